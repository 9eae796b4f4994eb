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
  unsigned last_year = 0;  // 0 when no game has a year
};

struct TreeOptions {
  // Add the statistics the index keeps of popular positions, when no filter beside the position
  // narrows the games, or only a rating floor and years their slices hold
  // (Filters::statistics_slice). Off, every game at the position is read: the same rows, slower
  // (tests compare the two).
  bool use_statistics = true;
};

// The rows for `filters.position` (required), most played first (then by SAN). A game counts
// once, at the first ply where its main line stands in the position.
[[nodiscard]] std::expected<std::vector<TreeRow>, index::Status> opening_tree(
    const index::Store& store, const Filters& filters, const TreeOptions& options = {});

}  // namespace pgndb::query
