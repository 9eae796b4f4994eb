// Statistics of the moves played from a position, as an opening explorer shows them: how often
// each move was played, how those games ended, and the ratings of the side that played it. The
// position index keeps them for the popular positions of each generation (docs/storage.md,
// "Position statistics"), so that a tree of a position millions of games passed through adds a
// few numbers per generation rather than reading millions of summaries.
#pragma once

#include <cstdint>
#include <vector>

#include "pgn/types.h"
#include "pgndb/index/game_summary.h"

namespace pgndb::index {

// The games that played one move from a position (Move::none(): the games that ended there).
// A game counts once, at the first ply where its main line stands in the position.
struct MoveTally {
  pgn::Move move;
  std::uint64_t games = 0, white_wins = 0, draws = 0, black_wins = 0;
  // The side to move's rating, over the games that give it.
  std::uint64_t rated = 0, elo_sum = 0;
  // Over the games with both ratings and a result: the opponents' ratings and the side to
  // move's wins minus losses (for its performance).
  std::uint64_t both_rated = 0, opponent_sum = 0;
  std::int64_t wins_minus_losses = 0;
  unsigned last_year = 0;  // 0 when no game gives a year

  // Counts a game that played `move` from the position, `white_moves` when White was to move.
  void add(const GameSummary& game, bool white_moves);
  // Adds another tally of the same move.
  void add(const MoveTally& other);
  bool operator==(const MoveTally&) const = default;
};

// What the store knows of a position's games (Store::position_statistics): the tallies kept
// for it, and the games it must read itself.
struct PositionStatistics {
  // Per move (any order), summed over the generations that keep statistics of the position.
  std::vector<MoveTally> moves;
  // Ascending: the games of the other generations whose positions share the index's 40 bits
  // with this one (as Store::games_at gives them); each must be read to find its move.
  std::vector<std::uint32_t> other_games;
};

}  // namespace pgndb::index
