// A request's parameters, taken by name by the handler that knows them: each name at most once,
// values checked and typed, and the names nobody took found afterwards (pgndb's own API refuses
// them; the lichess-format paths ignore them, as lichess does).
#pragma once

#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pgndb/query/filters.h"
#include "pgndb/serve/query_string.h"

namespace pgndb::serve {

class ParameterReader {
 public:
  explicit ParameterReader(const Parameters& parameters)
      : parameters_(&parameters), taken_(parameters.size(), false) {}

  // The value of `name`; nothing when absent; an error when it is given twice.
  [[nodiscard]] std::expected<std::optional<std::string>, std::string> text(std::string_view name);
  // A whole number in [low, high].
  [[nodiscard]] std::expected<std::optional<unsigned>, std::string> number(std::string_view name,
                                                                           unsigned low,
                                                                           unsigned high);
  // `true`, `1` or an empty value for true; `false` or `0` for false.
  [[nodiscard]] std::expected<std::optional<bool>, std::string> flag(std::string_view name);
  // Every filter of query::filter_fields(), by its name, into `out`.
  [[nodiscard]] std::expected<void, std::string> filters(query::FilterText& out);
  // The first parameter no call above took.
  [[nodiscard]] std::optional<std::string> unknown() const;

 private:
  const Parameters* parameters_;
  std::vector<bool> taken_;
};

}  // namespace pgndb::serve
