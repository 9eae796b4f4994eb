// The filter options (docs/query.md) that the commands selecting games share.
#pragma once

#include "command.h"
#include "pgndb/query/filters.h"

namespace pgndb::cli {

void declare_filters(po::options_description& options);
// The filters given on the command line, as written.
[[nodiscard]] query::FilterText filter_text(const po::variables_map& vm);

}  // namespace pgndb::cli
