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

// The filters given on the command line, checked (`text`, from filter_text).
[[nodiscard]] Parsed<query::Filters> checked_filters(const query::FilterText& text);

// The database at `db` open for reading; nothing (the error printed as "pgndb COMMAND: ...")
// when it cannot be.
[[nodiscard]] std::optional<index::Store> open_for_reading(const std::string& db,
                                                           std::string_view command);

}  // namespace pgndb::cli
