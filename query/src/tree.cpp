#include "pgndb/query/tree.h"
#include "pgn/game_result.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "pgn/game.h"
#include "pgn/san.h"
#include "pgndb/query/game_facts.h"
#include "pgndb/query/search.h"

namespace pgndb::query {

namespace {

using index::GameSummary;
using index::MoveTally;
using index::Status;

// Finds the move a game played in the root position from its summary's opening codes, replaying
// them from the start. Most games of a popular position reach it within those codes; the others
// are read whole.
class OpeningWalk {
 public:
  explicit OpeningWalk(pgn::Key root) : root_(root) {}

  enum class Outcome { Found, NeverThere, ReadTheGame };
  // On Found, `move` is the move played (Move::none() when the game ends in the root).
  Outcome find(const GameSummary& s, pgn::Move& move) {
    if (!s.standard_start) return Outcome::ReadTheGame;
    pgn::Position pos;
    for (std::size_t ply = 0;; ++ply) {
      if (pgn::repetition_key(pos) == root_) {
        if (ply < s.opening_length) {
          auto decoded = decode(pos, s.opening[ply]);
          if (!decoded) return Outcome::ReadTheGame;
          move = *decoded;
          return Outcome::Found;
        }
        if (ply == s.plies) {
          move = pgn::Move::none();
          return Outcome::Found;
        }
        return Outcome::ReadTheGame;
      }
      if (ply == s.opening_length)
        return s.opening_length == s.plies ? Outcome::NeverThere : Outcome::ReadTheGame;
      auto decoded = decode(pos, s.opening[ply]);
      if (!decoded) return Outcome::ReadTheGame;
      pos.play(*decoded);
    }
  }

 private:
  // A code's move in `pos`, found once per position and code: the games of a tree share
  // their first moves.
  std::optional<pgn::Move> decode(const pgn::Position& pos, std::uint8_t code) {
    // The Polyglot key counts an en passant square only with a pawn ready to take, as the
    // numbering of the moves does: positions with one key number their moves alike.
    const std::uint64_t key = pos.key() ^ (std::uint64_t(code + 1) * 0x9E3779B97F4A7C15ULL);
    if (auto known = moves_.find(key); known != moves_.end()) return known->second;
    auto move = index::opening_move(pos, code);
    if (move) moves_.emplace(key, *move);
    return move;
  }

  pgn::Key root_;
  std::unordered_map<std::uint64_t, pgn::Move> moves_;
};

}  // namespace

namespace {

// The best-rated games that pass `filters` and play a move from the root, found by ranking every
// game that passes (Order::EloDescending) and reading the best until `wanted` are found.
std::expected<std::vector<index::TopGame>, Status> rank_games(const index::Store& store,
                                                              const Filters& filters,
                                                              std::size_t wanted) {
  std::vector<index::TopGame> top;
  auto search = Search::start(store, filters, Order::EloDescending);
  if (!search) return std::unexpected(search.error());
  const pgn::Key key = pgn::repetition_key(*filters.position);
  OpeningWalk walk(key);
  std::vector<std::uint32_t> ids;
  while (top.size() < wanted) {
    ids.clear();
    while (ids.size() < 32) {
      auto id = search->next();
      if (!id) return std::unexpected(id.error());
      if (!*id) break;
      ids.push_back(**id);
    }
    if (ids.empty()) break;
    // Summaries come in id order; the ranking is the search's.
    std::unordered_map<std::uint32_t, index::TopGame> found;
    Status s = store.for_each_summary(ids, [&](std::uint32_t id, const GameSummary& summary) {
      pgn::Move move;
      if (walk.find(summary, move) == OpeningWalk::Outcome::Found)
        found[id] = {id, index::ranking_rating(summary), move};
      else
        found[id] = {id, index::ranking_rating(summary), pgn::Move::null()};  // to be read
    });
    if (!s.is_ok()) return std::unexpected(s);
    for (std::uint32_t id : ids) {
      if (top.size() == wanted) break;
      index::TopGame g = found[id];
      if (g.move == pgn::Move::null()) {
        auto at = store.main_line_at(id, key);
        if (!at) return std::unexpected(at.error());
        g.move = *at ? (*at)->move : pgn::Move::none();
      }
      if (g.move != pgn::Move::none()) top.push_back(g);
    }
  }
  return top;
}

}  // namespace

std::expected<std::vector<TreeRow>, Status> opening_tree(const index::Store& store,
                                                         const Filters& filters,
                                                         const TreeOptions& options) {
  auto explored = explore(store, filters, options);
  if (!explored) return std::unexpected(explored.error());
  return std::move(explored->rows);
}

std::expected<Exploration, Status> explore(const index::Store& store, const Filters& filters,
                                           const TreeOptions& options) {
  if (!filters.position)
    return std::unexpected(
        Status::error(Status::Code::InvalidArgument, "a tree needs a position (--fen or --moves)"));
  const pgn::Position& root = *filters.position;
  const pgn::Key key = pgn::repetition_key(root);
  const bool white_moves = root.side_to_move() == pgn::White;

  std::unordered_map<std::uint16_t, MoveTally> by_move;  // by Move::raw()
  Exploration explored;
  std::vector<index::TopGame>& top = explored.top_games;
  // False once the games counted here are not all the games counted: the statistics' part
  // keeps no best-rated games (a slice, or a generation written before schema 18).
  bool top_complete = true;
  auto count = [&](std::uint32_t id, pgn::Move move, const GameSummary& summary) {
    MoveTally& t = by_move[move.raw()];
    t.move = move;
    t.add(summary, white_moves);
    if (options.top_games && move != pgn::Move::none())
      index::add_top_game(top, {id, index::ranking_rating(summary), move}, options.top_games);
  };
  OpeningWalk walk(key);
  std::vector<std::pair<std::uint32_t, GameSummary>> to_read;  // found in the games themselves
  // The position statistics' other games are checked against the slice on their facts, before
  // any summary is read (below).
  std::optional<index::StatisticsSlice> slice;
  if (options.use_statistics) slice = filters.statistics_slice();
  const index::FactsFilter slice_filter = slice ? slice->filter() : index::FactsFilter{};
  // Counts the games `ids` (ascending) from their summaries, or notes them to be read.
  auto tally = [&](const std::vector<std::uint32_t>& ids) {
    return store.for_each_summary(ids, [&](std::uint32_t id, const GameSummary& summary) {
      pgn::Move move;
      switch (walk.find(summary, move)) {
        case OpeningWalk::Outcome::Found: count(id, move, summary); break;
        case OpeningWalk::Outcome::ReadTheGame: to_read.emplace_back(id, summary); break;
        case OpeningWalk::Outcome::NeverThere:  // the index's 40 bits matched another position
          break;
      }
    });
  };

  std::vector<std::uint32_t> chunk;
  if (slice) {
    // The statistics the index keeps where the position is popular (their slices, with rating
    // and date filters); the other generations' games are read (fewer than the threshold each).
    auto statistics = store.position_statistics(root, *slice, options.top_games > 0);
    if (!statistics) return std::unexpected(statistics.error());
    for (const MoveTally& t : statistics->moves) {
      MoveTally& m = by_move[t.move.raw()];
      m.move = t.move;
      m.add(t);
    }
    if (options.top_games) {
      top_complete = statistics->ranked && options.top_games <= index::top_games_kept;
      for (const index::TopGame& g : statistics->top)
        index::add_top_game(top, g, options.top_games);
    }
    // With a slice, the other games are checked on their facts first (uncompressed, a few
    // bytes each): a summary read at random decompresses a block of its own, 40 µs at 5 M
    // games, and most of the games fail a rating or date filter.
    std::vector<std::uint32_t> passing;
    if (!slice->everything())
      if (Status s = store.select_facts(statistics->other_games, slice_filter, passing); !s.is_ok())
        return std::unexpected(s);
    const auto& ids = slice->everything() ? statistics->other_games : passing;
    for (std::size_t at = 0; at < ids.size(); at += 16384) {
      chunk.assign(ids.begin() + std::ptrdiff_t(at),
                   ids.begin() + std::ptrdiff_t(std::min(ids.size(), at + 16384)));
      if (Status s = tally(chunk); !s.is_ok()) return std::unexpected(s);
    }
  } else {
    auto search = Search::start(store, filters);
    if (!search) return std::unexpected(search.error());
    for (bool more = true; more;) {
      chunk.clear();
      while (chunk.size() < 16384) {
        auto id = search->next();
        if (!id) return std::unexpected(id.error());
        if (!*id) {
          more = false;
          break;
        }
        chunk.push_back(**id);
      }
      if (Status s = tally(chunk); !s.is_ok()) return std::unexpected(s);
    }
  }
  for (const auto& [id, summary] : to_read) {
    // The move played at the first ply at which the game stands in the position.
    auto at = store.main_line_at(id, key);
    if (!at) return std::unexpected(at.error());
    if (!*at) continue;  // the index's 40 bits matched another position
    count(id, (*at)->move, summary);
  }
  if (options.top_games && !top_complete) {
    auto ranked = rank_games(store, filters, options.top_games);
    if (!ranked) return std::unexpected(ranked.error());
    top = std::move(*ranked);
  }

  std::vector<TreeRow>& rows = explored.rows;
  for (auto& [raw, t] : by_move) {
    TreeRow row;
    row.move = t.move;
    row.games = t.games;
    row.white_wins = t.white_wins;
    row.draws = t.draws;
    row.black_wins = t.black_wins;
    row.last_year = t.last_year;
    row.san = row.move == pgn::Move::none() ? "(end)" : pgn::to_san(root, row.move);
    if (t.rated) row.average_elo = unsigned(t.elo_sum / t.rated);
    if (t.both_rated) row.average_opponent_elo = unsigned(t.opponent_sum / t.both_rated);
    if (t.both_rated && t.rated)
      row.other_performance = unsigned(
          std::max<std::int64_t>(0, std::int64_t(t.elo_sum / t.rated) -
                                        400 * t.wins_minus_losses / std::int64_t(t.both_rated)));
    if (t.both_rated)
      row.performance = unsigned(
          std::max<std::int64_t>(0, std::int64_t(t.opponent_sum / t.both_rated) +
                                        400 * t.wins_minus_losses / std::int64_t(t.both_rated)));
    rows.push_back(std::move(row));
  }
  std::sort(rows.begin(), rows.end(), [](const TreeRow& a, const TreeRow& b) {
    return a.games != b.games ? a.games > b.games : a.san < b.san;
  });
  return explored;
}

}  // namespace pgndb::query
