// The check the tests of the position statistics share: a tree and a count answered from the
// statistics (and their slices) equal those read game by game.
#pragma once

#include <catch2/catch.hpp>

#include <tuple>

#include "pgndb/index/store.h"
#include "pgndb/query/filters.h"
#include "pgndb/query/search.h"
#include "pgndb/query/tree.h"

namespace pgndb::test {

inline auto tree_row_fields(const query::TreeRow& r) {
  return std::tie(r.move, r.san, r.games, r.white_wins, r.draws, r.black_wins, r.average_elo,
                  r.performance, r.last_year);
}

// The tree of `filters` with the statistics and without them, row by row, and the count from
// the statistics against the search's. The caller's INFO names the case.
inline void check_statistics_answer(const index::Store& store, const query::Filters& filters) {
  auto fast = query::opening_tree(store, filters);
  auto slow = query::opening_tree(store, filters, {.use_statistics = false});
  REQUIRE(fast);
  REQUIRE(slow);
  REQUIRE(fast->size() == slow->size());
  for (std::size_t i = 0; i < fast->size(); ++i) {
    INFO("row " << i << ": " << (*slow)[i].san);
    CHECK(tree_row_fields((*fast)[i]) == tree_row_fields((*slow)[i]));
  }
  // The best-rated games likewise: from the statistics (or ranked by the search, with a slice)
  // and from every game read.
  for (std::size_t wanted : {std::size_t(1), index::top_games_kept}) {
    auto fast_top = query::explore(store, filters, {.top_games = wanted});
    auto slow_top = query::explore(store, filters, {.use_statistics = false, .top_games = wanted});
    REQUIRE(fast_top);
    REQUIRE(slow_top);
    INFO(wanted << " best-rated games");
    CHECK(fast_top->top_games == slow_top->top_games);
    CHECK(fast_top->top_games.size() == std::min(wanted, slow_top->top_games.size()));
  }
  query::Plan plan;
  auto counted = query::count_games(store, filters, plan);
  auto search = query::Search::start(store, filters);
  REQUIRE(counted);
  REQUIRE(search);
  auto searched = search->count();
  REQUIRE(searched);
  CHECK(*counted == *searched);
}

}  // namespace pgndb::test
