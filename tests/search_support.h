// Helpers of the tests that run searches (query/search.h) in-process.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "pgndb/index/store.h"
#include "pgndb/query/filters.h"
#include "pgndb/query/search.h"

namespace pgndb::test {

// The games a search of `store` gives, run to its end, each with its match ply (the search must
// have one: --material, --final-material, --pattern). `plan` is the search's plan after the
// first `page` games, or after the last when `page` is 0 or more than the games.
inline std::vector<std::pair<std::uint32_t, unsigned>> searched(const index::Store& store,
                                                                const query::FilterText& text,
                                                                query::Plan& plan,
                                                                std::size_t page = 0) {
  auto filters = query::parse_filters(text);
  REQUIRE(filters);
  auto search = query::Search::start(store, *filters);
  REQUIRE(search);
  std::vector<std::pair<std::uint32_t, unsigned>> out;
  for (;;) {
    auto id = search->next();
    REQUIRE(id);
    if (!*id) break;
    REQUIRE(search->match_ply());
    out.emplace_back(**id, *search->match_ply());
    if (out.size() == page) plan = search->plan();
  }
  if (page == 0 || out.size() < page) plan = search->plan();
  return out;
}

}  // namespace pgndb::test
