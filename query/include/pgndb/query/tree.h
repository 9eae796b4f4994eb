// The opening explorer: from a position, every move played in the games that pass the filters,
// with how those games went.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "pgn/position.h"
#include "pgndb/index/status.h"
#include "pgndb/index/store.h"
#include "pgndb/query/filters.h"

namespace pgndb::query {

struct TreeRow {
  pgn::Move move;  // Move::none() for the games that end in the position
  std::string san;
  std::uint64_t games = 0, white_wins = 0, draws = 0, black_wins = 0;
  // The side to move's rating: average over the games where it is known, and its performance
  // (the opponents' average + 400 x (wins - losses) / games, over the rated games); 0 when no
  // game has both ratings.
  unsigned average_elo = 0, performance = 0;
  // The opponents' average rating over the games with both ratings and a result (0: none), and
  // the performance of the side not to move (its opponents' average + 400 x its wins - losses
  // over those games; its opponents' average is taken over the games that rate them): a
  // player's tree shows the player's side whoever moves.
  unsigned average_opponent_elo = 0, other_performance = 0;
  unsigned last_year = 0;  // 0 when no game has a year
};

struct TreeOptions {
  // Add the statistics the index keeps of popular positions, when no filter beside the position
  // narrows the games, or only a rating floor and years their slices hold
  // (Filters::statistics_slice). Off, every game at the position is read: the same rows, slower
  // (tests compare the two).
  bool use_statistics = true;
  // How many of the best-rated games that played a move from the position to give
  // (Exploration::top_games). Up to index::top_games_kept, the statistics keep them for popular
  // positions without filters; otherwise the games that pass are ranked (slower).
  std::size_t top_games = 0;
};

struct Exploration {
  std::vector<TreeRow> rows;
  // Best first: the higher average of the known ratings, then the lower id
  // (index::ranks_before, as Order::EloDescending); games that end in the position are not
  // among them.
  std::vector<index::TopGame> top_games;
};

// The rows for `filters.position` (required), most played first (then by SAN), and the
// best-rated games asked for. A game counts once, at the first ply where its main line stands in
// the position.
[[nodiscard]] std::expected<Exploration, index::Status> explore(const index::Store& store,
                                                                const Filters& filters,
                                                                const TreeOptions& options = {});
// The rows alone.
[[nodiscard]] std::expected<std::vector<TreeRow>, index::Status> opening_tree(
    const index::Store& store, const Filters& filters, const TreeOptions& options = {});

}  // namespace pgndb::query
