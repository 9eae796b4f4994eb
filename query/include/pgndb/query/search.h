// A search over a database: the games that pass every filter, in id order, one at a time. The
// planner asks the indexes that can answer a filter (position, names, result, ECO, date,
// plies), starting from the most selective, intersects their answers, and checks what no
// index answers (ratings) on each candidate game's header.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <vector>

#include "pgn/game_record.h"
#include "pgndb/index/status.h"
#include "pgndb/index/store.h"
#include "pgndb/query/filters.h"

namespace pgndb::query {

class Search {
 public:
  // Plans the search; the store must outlive it.
  [[nodiscard]] static std::expected<Search, index::Status> start(const index::Store& store,
                                                                  const Filters& filters);

  // The id of the next game that passes, or nothing at the end.
  [[nodiscard]] std::expected<std::optional<std::uint32_t>, index::Status> next();
  // The number of games that pass, from here on (consumes the search).
  [[nodiscard]] std::expected<std::uint64_t, index::Status> count();

 private:
  Search(const index::Store& store, const Filters& filters) : store_(&store), filters_(filters) {}
  [[nodiscard]] std::expected<bool, index::Status> passes_header(std::uint32_t id) const;

  const index::Store* store_;
  Filters filters_;
  // Candidates from the indexes, ascending; without any, every game 1..game_count().
  std::optional<std::vector<std::uint32_t>> candidates_;
  std::size_t at_ = 0;         // next candidate (index into candidates_, or id - 1)
  bool check_header_ = false;  // a filter needs each candidate's header
};

}  // namespace pgndb::query
