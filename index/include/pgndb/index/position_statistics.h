// Statistics of the moves played from a position, as an opening explorer shows them: how often
// each move was played, how those games ended, and the ratings of the side that played it. The
// position index keeps them for the popular positions of each generation (docs/storage.md,
// "Position statistics"), so that a tree of a position millions of games passed through adds a
// few numbers per generation rather than reading millions of summaries.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "pgn/types.h"
#include "pgndb/index/game_summary.h"
#include "pgndb/index/search_facts.h"

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

// One of a position's best-rated games, with the move it played there (never Move::none(): a
// game that ends in the position plays nothing). `rating` is the average of the game's known
// ratings (0: neither known), as query::Order::EloDescending sorts games.
struct TopGame {
  std::uint32_t game = 0;
  std::uint16_t rating = 0;
  pgn::Move move;
  bool operator==(const TopGame&) const = default;
};
// The order of the best-rated games: the higher rating first, then the lower id.
inline bool ranks_before(const TopGame& a, const TopGame& b) {
  return a.rating != b.rating ? a.rating > b.rating : a.game < b.game;
}
// The rating a game ranks by.
inline std::uint16_t ranking_rating(const GameSummary& game) {
  const unsigned known = (game.white_elo != 0) + (game.black_elo != 0);
  return known ? std::uint16_t((unsigned(game.white_elo) + game.black_elo) / known) : 0;
}
// Adds `game` to `top` (best first, by ranks_before), which keeps at most `limit`.
inline void add_top_game(std::vector<TopGame>& top, const TopGame& game, std::size_t limit) {
  if (top.size() == limit && (limit == 0 || !ranks_before(game, top.back()))) return;
  top.insert(std::upper_bound(top.begin(), top.end(), game, ranks_before), game);
  if (top.size() > limit) top.pop_back();
}

// The part of a position's games a tree or a count takes from the statistics when it filters by
// rating and date: the statistics of the most popular positions are kept by rating band (of the
// lower of the two ratings, in hundreds) and year as well (docs/storage.md, "Position
// statistics"), so such a filter adds their slices instead of reading the games.
struct StatisticsSlice {
  // Both players rated at least this (a multiple of 100, at most 3000); 0: any game, rated or not.
  unsigned min_elo = 0;
  // The years [first, last] (a game of unknown year out); none: every game.
  std::optional<std::pair<unsigned, unsigned>> years;

  // The slice `filter` selects, or nothing when it checks more than a rating floor that is a
  // multiple of 100 and whole years (a tree or a count then reads the games).
  static std::optional<StatisticsSlice> of(const FactsFilter& filter);
  bool everything() const { return min_elo == 0 && !years; }
  // The filter that selects the slice's games: what a lookup checks on the games of the
  // generations that do not slice the position.
  FactsFilter filter() const {
    FactsFilter f;
    f.min_elo = min_elo;
    if (years) f.date = FactsFilter::Range{years->first << 16, years->second << 16 | 0xFFFF};
    return f;
  }
};

// What the store knows of a position's games (Store::position_statistics): the tallies kept
// for it, and the games it must read itself.
struct PositionStatistics {
  // Per move (any order), summed over the generations that keep statistics of the position
  // (with a slice, over those that keep its slices, and only the slice's games).
  std::vector<MoveTally> moves;
  // Ascending: the games of the other generations whose positions share the index's 40 bits
  // with this one (as Store::games_at gives them); each must be read to find its move (and,
  // with a slice, checked against it).
  std::vector<std::uint32_t> other_games;
  // When asked for (and no slice): the best-rated games among those counted in `moves`, best
  // first, at most top_games_kept. `ranked` is false when a generation that counts the position
  // keeps none of them (written before schema 18): the caller then ranks the games itself.
  bool ranked = false;
  std::vector<TopGame> top;
};

// The best-rated games the statistics keep of each position (lichess's explorer shows 15).
inline constexpr std::size_t top_games_kept = 15;

}  // namespace pgndb::index
