// The filter options (docs/query.md) that the commands selecting games share.
#pragma once

#include <optional>
#include <string_view>

#include "command.h"
#include "pgndb/index/store.h"
#include "pgndb/query/filters.h"

namespace pgndb::cli {

void declare_filters(po::options_description& options);
// The filters given on the command line, as written.
[[nodiscard]] query::FilterText filter_text(const po::variables_map& vm);

// What a command that selects games starts from: its filters, checked, and the database (`--db`)
// open for reading.
struct Selection {
  query::Filters filters;
  index::Store store;
};
// Checks the filters (`text`, from filter_text) and opens the database. On failure, prints the
// one-line error as "pgndb COMMAND: ..." and returns nothing (the command exits with Usage).
[[nodiscard]] std::optional<Selection> open_selection(const po::variables_map& vm,
                                                      const query::FilterText& text,
                                                      std::string_view command);

}  // namespace pgndb::cli
