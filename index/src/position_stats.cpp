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

namespace positions {

namespace {

constexpr char statistics_marker = char(0xFF);

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

KeyStatistics& statistics_of(Statistics& all, pgn::Key key, bool white_moves) {
  auto& keys = all.keys;
  auto at = std::lower_bound(keys.begin(), keys.end(), key,
                             [](const KeyStatistics& k, pgn::Key v) { return k.key < v; });
  if (at == keys.end() || at->key != key) at = keys.insert(at, KeyStatistics{key, white_moves, {}});
  return *at;
}

}  // namespace

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

std::uint64_t Statistics::games() const {
  std::uint64_t n = 0;
  for (const KeyStatistics& k : keys)
    for (const MoveTally& t : k.moves) n += t.games;
  return n;
}

void encode_statistics(const Statistics& statistics, std::string& out) {
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
}

bool decode_statistics(std::string_view bytes, std::uint64_t key40, Statistics& out) {
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
  return in.empty();
}

void add_statistics(Statistics& into, const Statistics& from) {
  for (const KeyStatistics& k : from.keys) {
    KeyStatistics& target = statistics_of(into, k.key, k.white_moves);
    for (const MoveTally& t : k.moves) tally_of(target.moves, t.move).add(t);
  }
  const std::size_t middle = into.unread.size();
  into.unread.insert(into.unread.end(), from.unread.begin(), from.unread.end());
  std::inplace_merge(into.unread.begin(), into.unread.begin() + std::ptrdiff_t(middle),
                     into.unread.end());
}

void add_game(Statistics& into, pgn::Key key, bool white_moves, pgn::Move move,
              const GameSummary& game) {
  tally_of(statistics_of(into, key, white_moves).moves, move).add(game, white_moves);
}

std::optional<pgn::Move> StatisticsCollector::move_of(const pgn::Position& pos, std::uint8_t code) {
  // Positions with one key number their moves alike (the key counts an en passant square only
  // where a pawn may take).
  const std::uint64_t tag = pos.key() ^ (std::uint64_t(code + 1) * 0x9E3779B97F4A7C15ULL);
  if (moves_.empty()) moves_.resize(std::size_t(1) << 16);
  CachedMove& slot = moves_[(tag ^ tag >> 32) & (moves_.size() - 1)];
  if (slot.tag == tag && !slot.move.is_none()) return slot.move;
  const auto move = pseudo_legal_move_at(pos, code);
  if (move) slot = {tag, *move};
  return move;
}

Status StatisticsCollector::resolve(const SummaryOf& summary_of,
                                    std::map<std::uint64_t, Statistics>& into) {
  std::sort(requests_.begin(), requests_.end());
  requests_.erase(std::unique(requests_.begin(), requests_.end()), requests_.end());
  struct Wanted {
    std::uint64_t key40;
    bool done = false;
  };
  std::vector<Wanted> wanted;
  for (std::size_t at = 0; at < requests_.size();) {
    const std::uint32_t id = requests_[at].game;
    wanted.clear();
    for (; at < requests_.size() && requests_[at].game == id; ++at)
      wanted.push_back({requests_[at].key40});
    auto summary = summary_of(id);
    if (!summary) return summary.error();
    const GameSummary& s = *summary;
    std::size_t left = wanted.size();
    // Each code is decoded in the very position it was numbered in (the game's own, from the
    // start), where it names exactly the move played: no legality test is needed, unlike a
    // code tried on another position (opening_move).
    bool walked_all = s.standard_start;  // the codes decoded up to their end
    if (s.standard_start) {
      pgn::Position pos;
      for (std::size_t ply = 0; left > 0; ++ply) {
        const pgn::Key key = pgn::repetition_key(pos);
        const std::uint64_t k40 = key40_of(key);
        for (Wanted& w : wanted) {
          if (w.done || w.key40 != k40) continue;
          std::optional<pgn::Move> move;
          if (ply < s.opening_length)
            move = move_of(pos, s.opening[ply]);
          else if (ply == s.plies)
            move = pgn::Move::none();
          if (!move) continue;  // past the codes: unread
          add_game(into[k40], key, pos.side_to_move() == pgn::White, *move, s);
          w.done = true;
          --left;
        }
        if (ply == s.opening_length) break;
        auto move = move_of(pos, s.opening[ply]);
        if (!move) {
          walked_all = false;
          break;
        }
        pos.play(*move);
      }
    }
    // Codes for the whole game, all walked: the game never stands in what is left. Otherwise
    // the lookup reads it.
    if (walked_all && s.opening_length == s.plies) continue;
    for (const Wanted& w : wanted)
      if (!w.done) into[w.key40].unread.push_back(id);
  }
  requests_.clear();
  return Status::ok();
}

}  // namespace positions

}  // namespace pgndb::index
