// The query string of a request URL (`fen=rnbq...&play=e2e4,c7c5`), as name/value pairs.
#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace pgndb::serve {

struct Parameter {
  std::string name, value;
};
// In the order written; a name may repeat (the handlers refuse what they take once).
using Parameters = std::vector<Parameter>;

// Splits at `&`, names from values at the first `=` (a bare name has an empty value), and
// decodes `+` as a space and `%XX` as the byte XX. A `%` not followed by two hex digits, or a
// name that is empty, is an error naming its offset in the text.
[[nodiscard]] std::expected<Parameters, std::string> parse_query_string(std::string_view text);

}  // namespace pgndb::serve
