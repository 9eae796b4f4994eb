#include "position_stats.h"

#include <algorithm>

#include "bytes.h"
#include "move_index.h"
#include "pgn/game.h"
#include "pgn/game_result.h"
#include "position_runs.h"

namespace pgndb::index {

void MoveTally::add(const GameSummary& game, bool white_moves) {
  ++games;
  int score = 0;  // for the side to move: 1 win, 0 draw, -1 loss
  switch (pgn::GameResult(game.result)) {
    case pgn::GameResult::WhiteWins:
      ++white_wins;
      score = white_moves ? 1 : -1;
      break;
    case pgn::GameResult::BlackWins:
      ++black_wins;
      score = white_moves ? -1 : 1;
      break;
    case pgn::GameResult::Draw: ++draws; break;
    case pgn::GameResult::Unknown: break;
  }
  const unsigned mover = white_moves ? game.white_elo : game.black_elo;
  const unsigned opponent = white_moves ? game.black_elo : game.white_elo;
  if (mover) {
    ++rated;
    elo_sum += mover;
  }
  if (mover && opponent && pgn::GameResult(game.result) != pgn::GameResult::Unknown) {
    ++both_rated;
    opponent_sum += opponent;
    wins_minus_losses += score;
  }
  last_year = std::max<unsigned>(last_year, game.year);
}

void MoveTally::add(const MoveTally& other) {
  games += other.games;
  white_wins += other.white_wins;
  draws += other.draws;
  black_wins += other.black_wins;
  rated += other.rated;
  elo_sum += other.elo_sum;
  both_rated += other.both_rated;
  opponent_sum += other.opponent_sum;
  wins_minus_losses += other.wins_minus_losses;
  last_year = std::max(last_year, other.last_year);
}

std::optional<StatisticsSlice> StatisticsSlice::of(const FactsFilter& filter) {
  if (filter.result || filter.plies || filter.max_elo || filter.annotated || filter.speeds ||
      filter.rating_groups || filter.checks_ending())
    return std::nullopt;
  if (filter.min_elo % 100 != 0 || filter.min_elo > 100 * (positions::top_band - 1))
    return std::nullopt;
  StatisticsSlice slice;
  slice.min_elo = filter.min_elo;
  if (filter.date) {
    // Whole years: from a year's first date (month and day unknown) to past its last.
    if ((filter.date->low & 0xFFFF) != 0 || (filter.date->high & 0xFFFF) < (12u << 8 | 31))
      return std::nullopt;
    slice.years = std::pair(filter.date->low >> 16, filter.date->high >> 16);
  }
  return slice;
}

namespace positions {

namespace {

constexpr char statistics_marker = char(0xFF);

// Cells of a position added up only once there are this many (and when it is written): most
// positions counted have tens or hundreds of games, and sorting their cells each time their
// vector grew (from 64 on) or an input's were added took two thirds of the time spent on
// statistics. Up to 4,096 cells of 88 bytes wait unsorted per position; a batch or a merge
// counts at most a few hundred thousand games at once before it writes them.
constexpr std::size_t cells_kept_unsorted = 4096;

// Makes room for `more` cells in `k`. Past cells_kept_unsorted, cells that would not fit are
// added up first, and the vector then keeps room for at least as many new cells as it holds
// distinct ones: each sort then comes after at least half as many new cells as it sorts
// (amortized, a cell is sorted a bounded number of times), and the cells held stay within
// twice the distinct ones and `more`. Added up each time the vector was full, a position of
// nearly 4,096 distinct cells (a batch's start position: moves by rating band and year) was
// sorted again every few games.
void room_for_cells(KeyStatistics& k, std::size_t more) {
  const std::size_t wanted = k.cells.size() + more;
  if (wanted <= k.cells.capacity() || wanted < cells_kept_unsorted) return;
  k.normalize();
  k.cells.reserve(std::max(2 * k.cells.size() + more, cells_kept_unsorted));
}

std::uint64_t zigzag(std::int64_t v) { return (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63); }
std::int64_t unzigzag(std::uint64_t v) { return std::int64_t(v >> 1) ^ -std::int64_t(v & 1); }

// The tally of `move` in `moves` (sorted by raw move), added when missing.
MoveTally& tally_of(std::vector<MoveTally>& moves, pgn::Move move) {
  auto at =
      std::lower_bound(moves.begin(), moves.end(), move.raw(),
                       [](const MoveTally& t, std::uint16_t raw) { return t.move.raw() < raw; });
  if (at == moves.end() || at->move != move) {
    at = moves.insert(at, MoveTally{});
    at->move = move;
  }
  return *at;
}

// The statistics of `key` in `all`, added (sliced, empty) when missing; `added` says which.
KeyStatistics& statistics_of(Statistics& all, pgn::Key key, bool white_moves,
                             bool* added = nullptr) {
  auto& keys = all.keys;
  auto at = std::lower_bound(keys.begin(), keys.end(), key,
                             [](const KeyStatistics& k, pgn::Key v) { return k.key < v; });
  const bool missing = at == keys.end() || at->key != key;
  if (missing) {
    at = keys.insert(at, KeyStatistics{});
    at->key = key;
    at->white_moves = white_moves;
  }
  if (added) *added = missing;
  return *at;
}

// The varints of a cell after its move, band and year (encode_statistics).
void put_cell_counts(const Cell& c, std::string& out) {
  const MoveTally& t = c.tally;
  for (std::uint64_t v : {t.games, t.white_wins, t.draws, t.black_wins}) bytes::put_varint(out, v);
  if (c.band == 0) {
    for (std::uint64_t v :
         {t.rated, t.elo_sum, t.both_rated, t.opponent_sum, zigzag(t.wins_minus_losses)})
      bytes::put_varint(out, v);
    return;
  }
  const std::uint64_t floor = band_floor(c.band);
  bytes::put_varint(out, t.elo_sum - t.games * floor);
  bytes::put_varint(out, t.opponent_sum - t.both_rated * floor);
}

// A cell's tally holds what its band implies (both rated in bands 1 and above): the short form
// then loses nothing. Counting from summaries always gives such cells; a damaged sum may not.
bool band_implied(const Cell& c, bool white_moves) {
  const MoveTally& t = c.tally;
  if (t.last_year != c.year) return false;
  if (c.band == 0) return true;
  const std::uint64_t decided = t.white_wins + t.draws + t.black_wins;
  const std::int64_t won = std::int64_t(t.white_wins) - std::int64_t(t.black_wins);
  const std::uint64_t floor = band_floor(c.band);
  return t.rated == t.games && t.both_rated == decided &&
         t.wins_minus_losses == (white_moves ? won : -won) && t.elo_sum >= t.games * floor &&
         t.opponent_sum >= t.both_rated * floor;
}

// The normalized cells of `k` are its moves' games, sliced: each move's cells add up to its
// tally, every cell names a move of `k`, and each holds what its band implies.
bool cells_add_up(const KeyStatistics& k) {
  std::size_t at = 0;
  for (const MoveTally& move : k.moves) {
    MoveTally sum;
    sum.move = move.move;
    for (; at < k.cells.size() && k.cells[at].tally.move == move.move; ++at) {
      if (!band_implied(k.cells[at], k.white_moves)) return false;
      sum.add(k.cells[at].tally);
    }
    if (sum != move) return false;
  }
  return at == k.cells.size();
}

// True when the cells of `k` are in Cell::order(), each once (as normalize() leaves them).
bool is_normalized(const KeyStatistics& k) {
  return std::adjacent_find(k.cells.begin(), k.cells.end(), [](const Cell& a, const Cell& b) {
           return a.order() >= b.order();
         }) == k.cells.end();
}

// Normalizes the cells of `k` and keeps them when encode_statistics writes them; false (and
// not sliced) otherwise.
bool slice_as_written(KeyStatistics& k, std::uint64_t threshold) {
  if (k.sliced && k.games() >= threshold) {
    k.normalize();
    if (cells_add_up(k)) return true;
  }
  k.sliced = false;
  k.cells.clear();
  return false;
}

}  // namespace

void as_written(Statistics& statistics, std::uint64_t threshold) {
  for (KeyStatistics& k : statistics.keys) slice_as_written(k, threshold);
}

std::string statistics_key(std::uint32_t generation, std::uint64_t key40) {
  std::string key = bytes::big_endian32(generation);
  key += statistics_marker;
  for (int shift = 32; shift >= 0; shift -= 8) key += char(key40 >> shift);
  return key;
}

bool is_statistics_key(std::string_view key) {
  return key.size() == statistics_key_size && key[4] == statistics_marker;
}

std::optional<StatisticsKey> parse_statistics_key(std::string_view key) {
  if (!is_statistics_key(key)) return std::nullopt;
  std::uint64_t key40 = 0;
  for (std::size_t i = 5; i < statistics_key_size; ++i) key40 = key40 << 8 | std::uint8_t(key[i]);
  return StatisticsKey{bytes::read_big_endian32(key), key40};
}

unsigned rating_band(unsigned white_elo, unsigned black_elo) {
  const unsigned lower = std::min(white_elo, black_elo);
  return lower == 0 ? 0 : 1 + std::min(lower / 100, top_band - 1);
}

unsigned band_floor(unsigned band) { return band <= 1 ? 0 : (band - 1) * 100; }

std::uint64_t KeyStatistics::games() const {
  std::uint64_t n = 0;
  for (const MoveTally& t : moves) n += t.games;
  return n;
}

void KeyStatistics::normalize() {
  // The cells' orders are sorted with their places (16 bytes each), then the cells gathered:
  // sorting the cells themselves (88 bytes) took a twentieth of an import's merges.
  thread_local std::vector<std::pair<std::uint64_t, std::uint32_t>> order;
  thread_local std::vector<Cell> sorted;
  order.clear();
  for (std::size_t i = 0; i < cells.size(); ++i) order.emplace_back(cells[i].order(), i);
  std::sort(order.begin(), order.end());
  sorted.clear();
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Cell& c = cells[order[i].second];
    if (i > 0 && order[i - 1].first == order[i].first)
      sorted.back().tally.add(c.tally);
    else
      sorted.push_back(c);
  }
  // Copied back rather than swapped: the vector keeps its capacity, which add_game's
  // amortization counts on.
  cells.assign(sorted.begin(), sorted.end());
}

std::uint64_t Statistics::games() const {
  std::uint64_t n = 0;
  for (const KeyStatistics& k : keys) n += k.games();
  return n;
}

bool Statistics::all_sliced() const {
  return std::all_of(keys.begin(), keys.end(), [](const KeyStatistics& k) { return k.sliced; });
}

bool Statistics::all_ranked() const {
  return std::all_of(keys.begin(), keys.end(), [](const KeyStatistics& k) { return k.ranked; });
}

void encode_statistics(const Statistics& statistics, std::string& out, std::uint64_t threshold) {
  bytes::put_varint(out, statistics.keys.size());
  for (const KeyStatistics& k : statistics.keys) {
    for (int shift = 16; shift >= 0; shift -= 8) out += char(k.key >> shift);
    out += char(k.white_moves ? 1 : 0);
    bytes::put_varint(out, k.moves.size());
    for (const MoveTally& t : k.moves) {
      for (std::uint64_t v : {std::uint64_t(t.move.raw()), t.games, t.white_wins, t.draws,
                              t.black_wins, t.rated, t.elo_sum, t.both_rated, t.opponent_sum,
                              zigzag(t.wins_minus_losses), std::uint64_t(t.last_year)})
        bytes::put_varint(out, v);
    }
  }
  bytes::put_varint(out, statistics.unread.size());
  std::uint32_t previous = 0;
  for (const std::uint32_t id : statistics.unread) {
    bytes::put_varint(out, id - previous);
    previous = id;
  }
  for (const KeyStatistics& k : statistics.keys) {
    if (!k.sliced || k.games() < threshold) {
      bytes::put_varint(out, 0);
      continue;
    }
    // Written as it is when normalized already (as_written, as seal_statistics calls it, does
    // that in place); otherwise a copy is normalized for writing.
    std::optional<KeyStatistics> copy;
    const bool kept =
        is_normalized(k) ? cells_add_up(k) : slice_as_written(copy.emplace(k), threshold);
    if (!kept) {
      bytes::put_varint(out, 0);
      continue;
    }
    const KeyStatistics& normalized = copy ? *copy : k;
    // Groups of cells of one move and band.
    std::vector<std::pair<std::size_t, std::size_t>> groups;  // [first, end) in the cells
    for (std::size_t i = 0; i < normalized.cells.size(); ++i) {
      const Cell& c = normalized.cells[i];
      if (groups.empty() || normalized.cells[groups.back().first].tally.move != c.tally.move ||
          normalized.cells[groups.back().first].band != c.band)
        groups.emplace_back(i, i);
      groups.back().second = i + 1;
    }
    bytes::put_varint(out, groups.size());
    std::size_t move = 0;
    for (const auto& [first, end] : groups) {
      const Cell& head = normalized.cells[first];
      while (k.moves[move].move != head.tally.move) ++move;  // cells_add_up: it is there
      bytes::put_varint(out, move);
      out += char(head.band);
      bytes::put_varint(out, end - first);
      for (std::size_t i = first; i < end; ++i) {
        const Cell& c = normalized.cells[i];
        bytes::put_varint(out, i == first ? c.year : c.year - normalized.cells[i - 1].year);
        put_cell_counts(c, out);
      }
    }
  }
  for (const KeyStatistics& k : statistics.keys) {
    if (!k.ranked) {
      bytes::put_varint(out, 0);
      continue;
    }
    bytes::put_varint(out, k.top.size() + 1);
    for (const TopGame& t : k.top) {
      const auto move = std::lower_bound(
          k.moves.begin(), k.moves.end(), t.move,
          [](const MoveTally& m, pgn::Move wanted) { return m.move.raw() < wanted.raw(); });
      bytes::put_varint(out, t.game);
      bytes::put_varint(out, t.rating);
      bytes::put_varint(out, std::uint64_t(move - k.moves.begin()));
    }
  }
}

namespace {

// Steps over the cells of a position with `moves` moves, keeping nothing; false when they are
// not well formed.
bool skip_cells(bytes::Reader& in, std::size_t moves) {
  std::uint64_t groups;
  if (!in.varint(groups) || groups > in.remaining()) return false;
  for (std::uint64_t g = 0; g < groups; ++g) {
    std::uint64_t move, cells, v;
    std::uint8_t band;
    if (!in.varint(move) || move >= moves || !in.byte(band) || band > top_band ||
        !in.varint(cells) || cells == 0 || cells > in.remaining())
      return false;
    for (std::uint64_t i = 0; i < cells; ++i)
      for (int n = 0; n < (band == 0 ? 10 : 7); ++n)  // the year's gap, then the counts
        if (!in.varint(v)) return false;
  }
  return true;
}

}  // namespace

bool decode_statistics(std::string_view bytes, std::uint64_t key40, Statistics& out, Cells cells,
                       Tops tops) {
  out.keys.clear();
  out.unread.clear();
  bytes::Reader in(bytes);
  std::uint64_t count;
  if (!in.varint(count) || count > in.remaining()) return false;
  for (std::uint64_t i = 0; i < count; ++i) {
    KeyStatistics k;
    std::uint64_t low = 0;
    for (int b = 0; b < 3; ++b) {
      std::uint8_t byte;
      if (!in.byte(byte)) return false;
      low = low << 8 | byte;
    }
    k.key = key40 << (64 - key_bits) | low;
    std::uint8_t side;
    std::uint64_t moves;
    if (!in.byte(side) || side > 1 || !in.varint(moves) || moves > in.remaining()) return false;
    k.white_moves = side == 1;
    for (std::uint64_t m = 0; m < moves; ++m) {
      std::uint64_t v[11];
      for (auto& x : v)
        if (!in.varint(x)) return false;
      if (v[0] > 0xFFFF || v[10] > 0xFFFF) return false;
      MoveTally t;
      t.move = pgn::Move::from_raw(std::uint16_t(v[0]));
      t.games = v[1];
      t.white_wins = v[2];
      t.draws = v[3];
      t.black_wins = v[4];
      t.rated = v[5];
      t.elo_sum = v[6];
      t.both_rated = v[7];
      t.opponent_sum = v[8];
      t.wins_minus_losses = unzigzag(v[9]);
      t.last_year = unsigned(v[10]);
      if (!k.moves.empty() && k.moves.back().move.raw() >= t.move.raw()) return false;
      k.moves.push_back(t);
    }
    if (!out.keys.empty() && out.keys.back().key >= k.key) return false;
    out.keys.push_back(std::move(k));
  }
  std::uint64_t unread;
  if (!in.varint(unread) || unread > in.remaining()) return false;
  std::uint64_t id = 0;
  for (std::uint64_t i = 0; i < unread; ++i) {
    std::uint64_t gap;
    // Ascending ids, each once (the first may be any id above 0).
    if (!in.varint(gap) || gap == 0 || (id += gap) > 0xFFFFFFFF) return false;
    out.unread.push_back(std::uint32_t(id));
  }
  // Schema 13's values end here: nothing sliced.
  const bool with_cells = !in.empty() && cells == Cells::Read;
  const bool to_tops = !in.empty() && (cells == Cells::Read || tops == Tops::Read);
  for (KeyStatistics& k : out.keys) {
    k.sliced = false;
    k.ranked = false;
    if (to_tops && !with_cells && !skip_cells(in, k.moves.size())) return false;
    if (!with_cells) continue;
    std::uint64_t groups;
    if (!in.varint(groups) || groups > in.remaining()) return false;
    if (groups == 0) continue;
    k.sliced = true;
    for (std::uint64_t g = 0; g < groups; ++g) {
      std::uint64_t move, cells;
      std::uint8_t band;
      if (!in.varint(move) || move >= k.moves.size() || !in.byte(band) || band > top_band ||
          !in.varint(cells) || cells == 0 || cells > in.remaining())
        return false;
      std::uint64_t year = 0;
      for (std::uint64_t i = 0; i < cells; ++i) {
        std::uint64_t gap;
        if (!in.varint(gap) || (year = i == 0 ? gap : year + gap) > 0xFFFF) return false;
        Cell c;
        c.band = band;
        c.year = std::uint16_t(year);
        MoveTally& t = c.tally;
        t.move = k.moves[move].move;
        t.last_year = c.year;
        std::uint64_t v[9];
        for (std::size_t n = 0; n < (c.band == 0 ? 9u : 6u); ++n)
          if (!in.varint(v[n])) return false;
        t.games = v[0];
        t.white_wins = v[1];
        t.draws = v[2];
        t.black_wins = v[3];
        if (c.band == 0) {
          t.rated = v[4];
          t.elo_sum = v[5];
          t.both_rated = v[6];
          t.opponent_sum = v[7];
          t.wins_minus_losses = unzigzag(v[8]);
        } else {
          const std::uint64_t floor = band_floor(c.band);
          const std::int64_t won = std::int64_t(t.white_wins) - std::int64_t(t.black_wins);
          t.rated = t.games;
          t.elo_sum = v[4] + t.games * floor;
          t.both_rated = t.white_wins + t.draws + t.black_wins;
          t.opponent_sum = v[5] + t.both_rated * floor;
          t.wins_minus_losses = k.white_moves ? won : -won;
        }
        if (!k.cells.empty() && k.cells.back().order() >= c.order()) return false;
        k.cells.push_back(c);
      }
    }
    if (!cells_add_up(k)) return false;
  }
  if (!to_tops) return true;
  // Schema 14 to 17's values end here: nothing ranked.
  if (in.empty()) return true;
  for (KeyStatistics& k : out.keys) {
    std::uint64_t count;
    if (!in.varint(count) || count > top_games_kept + 1) return false;
    if (count == 0) continue;
    k.ranked = true;
    for (std::uint64_t i = 1; i < count; ++i) {
      std::uint64_t game, rating, move;
      if (!in.varint(game) || game == 0 || game > 0xFFFFFFFF || !in.varint(rating) ||
          rating > 0xFFFF || !in.varint(move) || move >= k.moves.size() ||
          k.moves[move].move == pgn::Move::none())
        return false;
      const TopGame t{std::uint32_t(game), std::uint16_t(rating), k.moves[move].move};
      if (!k.top.empty() && !ranks_before(k.top.back(), t)) return false;
      k.top.push_back(t);
    }
  }
  return in.empty();
}

void add_statistics(Statistics& into, const Statistics& from) {
  for (const KeyStatistics& k : from.keys) {
    bool added;
    KeyStatistics& target = statistics_of(into, k.key, k.white_moves, &added);
    for (const MoveTally& t : k.moves) tally_of(target.moves, t.move).add(t);
    // The sum is sliced only when both parts are.
    if (added) target.sliced = k.sliced;
    target.sliced &= k.sliced;
    // Ranked only when both parts are, likewise. A game is counted in one part only.
    if (added) target.ranked = k.ranked;
    target.ranked &= k.ranked;
    if (!target.ranked) target.top.clear();
    for (const TopGame& t : k.top)
      if (target.ranked) add_top_game(target.top, t, top_games_kept);
    if (!target.sliced) {
      target.cells.clear();
      continue;
    }
    room_for_cells(target, k.cells.size());
    target.cells.insert(target.cells.end(), k.cells.begin(), k.cells.end());
  }
  const std::size_t middle = into.unread.size();
  into.unread.insert(into.unread.end(), from.unread.begin(), from.unread.end());
  std::inplace_merge(into.unread.begin(), into.unread.begin() + std::ptrdiff_t(middle),
                     into.unread.end());
}

void add_game(Statistics& into, pgn::Key key, bool white_moves, pgn::Move move, std::uint32_t id,
              const GameSummary& game, bool slice) {
  KeyStatistics& k = statistics_of(into, key, white_moves);
  tally_of(k.moves, move).add(game, white_moves);
  if (k.ranked && move != pgn::Move::none())
    add_top_game(k.top, {id, ranking_rating(game), move}, top_games_kept);
  if (!slice) {
    k.sliced = false;
    k.cells.clear();
  }
  if (!k.sliced) return;
  // A cell per game, added up now and then (room_for_cells).
  room_for_cells(k, 1);
  Cell& c = k.cells.emplace_back();
  c.band = std::uint8_t(rating_band(game.white_elo, game.black_elo));
  c.year = game.year;
  c.tally.move = move;
  c.tally.add(game, white_moves);
}

std::optional<pgn::Move> StatisticsCollector::move_of(const pgn::Position& pos, std::uint8_t code) {
  // Positions with one key number their moves alike (the key counts an en passant square only
  // where a pawn may take).
  const std::uint64_t tag = pos.key() ^ (std::uint64_t(code + 1) * 0x9E3779B97F4A7C15ULL);
  // 2^18 slots (4 MB): with 2^16 the walks of a 1 M-game import's end-of-import merge evicted
  // each other's openings, and the import took 7% longer.
  if (moves_.empty()) moves_.resize(std::size_t(1) << 18);
  CachedMove& slot = moves_[(tag ^ tag >> 32) & (moves_.size() - 1)];
  if (slot.tag == tag && !slot.move.is_none()) return slot.move;
  const pgn::Move move = pseudo_legal_move_at(pos, code);
  if (move.is_none()) return std::nullopt;
  slot = {tag, move};
  return move;
}

template <class Walk>
Status StatisticsCollector::resolve_walking(const SummaryOf& summary_of, Walk&& walk,
                                            std::map<std::uint64_t, Statistics>& into) {
  std::sort(requests_.begin(), requests_.end());
  requests_.erase(std::unique(requests_.begin(), requests_.end()), requests_.end());
  struct Wanted {
    std::uint64_t key40;
    bool slice;
    bool done = false;
  };
  std::vector<Wanted> wanted;
  for (std::size_t at = 0; at < requests_.size();) {
    const std::uint32_t id = requests_[at].game;
    wanted.clear();
    for (; at < requests_.size() && requests_[at].game == id; ++at)
      wanted.push_back({requests_[at].key40, requests_[at].slice});
    auto summary = summary_of(id);
    if (!summary) return summary.error();
    const GameSummary& s = *summary;
    std::size_t left = wanted.size();
    auto visit = [&](std::size_t ply, pgn::Key key, bool white_moves,
                     std::optional<pgn::Move> move) {
      if (!move && ply == s.plies) move = pgn::Move::none();  // the game ends there
      if (!move) return left > 0;                             // past the codes: unread
      const std::uint64_t k40 = key40_of(key);
      for (Wanted& w : wanted) {
        if (w.done || w.key40 != k40) continue;
        add_game(into[k40], key, white_moves, *move, id, s, w.slice);
        w.done = true;
        --left;
      }
      return left > 0;
    };
    const bool walked_all = s.standard_start && walk(id, s, visit);
    // Codes for the whole game, all walked: the game never stands in what is left. Otherwise
    // the lookup reads it.
    if (walked_all && s.opening_length == s.plies) continue;
    for (const Wanted& w : wanted)
      if (!w.done) into[w.key40].unread.push_back(id);
  }
  requests_.clear();
  return Status::ok();
}

Status StatisticsCollector::resolve(const SummaryOf& summary_of,
                                    std::map<std::uint64_t, Statistics>& into) {
  // Each code is decoded in the very position it was numbered in (the game's own, from the
  // start), where it names exactly the move played: no legality test is needed, unlike a code
  // tried on another position (opening_move).
  return resolve_walking(
      summary_of,
      [&](std::uint32_t, const GameSummary& s, auto& visit) {
        pgn::Position pos;
        for (std::size_t ply = 0;; ++ply) {
          std::optional<pgn::Move> move;
          if (ply < s.opening_length) move = move_of(pos, s.opening[ply]);
          if (!visit(ply, pgn::repetition_key(pos), pos.side_to_move() == pgn::White, move))
            return true;
          if (ply == s.opening_length) return true;
          if (!move) return false;  // a code that names no move: the codes stop here
          pos.play(*move);
        }
      },
      into);
}

Status StatisticsCollector::resolve(const SummaryOf& summary_of, const OpeningOf& opening_of,
                                    std::map<std::uint64_t, Statistics>& into) {
  return resolve_walking(
      summary_of,
      [&](std::uint32_t id, const GameSummary& s, auto& visit) {
        const Opening opening = opening_of(id);
        if (opening.keys.size() <= s.opening_length || opening.moves.size() < s.opening_length)
          return false;
        for (std::size_t ply = 0; ply <= s.opening_length; ++ply) {
          std::optional<pgn::Move> move;
          if (ply < s.opening_length) move = opening.moves[ply];
          // A standard start: White moves at the even plies.
          if (!visit(ply, opening.keys[ply], ply % 2 == 0, move)) break;
        }
        return true;
      },
      into);
}

}  // namespace positions

}  // namespace pgndb::index
