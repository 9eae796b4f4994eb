#include "pgndb/serve/parameters.h"

#include <charconv>

#include "pgn/text.h"

namespace pgndb::serve {

std::expected<std::optional<std::string>, std::string> ParameterReader::text(
    std::string_view name) {
  std::optional<std::string> value;
  for (std::size_t i = 0; i < parameters_->size(); ++i) {
    const Parameter& p = (*parameters_)[i];
    if (p.name != name) continue;
    if (value) return std::unexpected(pgn::cat(name, ": given more than once"));
    value = p.value;
    taken_[i] = true;
  }
  return value;
}

std::expected<std::optional<unsigned>, std::string> ParameterReader::number(std::string_view name,
                                                                            unsigned low,
                                                                            unsigned high) {
  auto value = text(name);
  if (!value) return std::unexpected(value.error());
  if (!*value) return std::nullopt;
  const std::string& v = **value;
  unsigned n = 0;
  const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (error != std::errc() || end != v.data() + v.size() || n < low || n > high)
    return std::unexpected(pgn::cat(name, ": '", v, "' is not a number from ", low, " to ", high));
  return n;
}

std::expected<std::optional<bool>, std::string> ParameterReader::flag(std::string_view name) {
  auto value = text(name);
  if (!value) return std::unexpected(value.error());
  if (!*value) return std::nullopt;
  const std::string& v = **value;
  if (v.empty() || v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  return std::unexpected(pgn::cat(name, ": '", v, "' is not true or false"));
}

std::expected<void, std::string> ParameterReader::filters(query::FilterText& out) {
  for (const auto& field : query::filter_fields()) {
    switch (field.kind) {
      case query::FilterField::Text: {
        auto v = text(field.name);
        if (!v) return std::unexpected(v.error());
        if (*v) out.*field.text = std::move(**v);
        break;
      }
      case query::FilterField::Number: {
        auto v = number(field.name, 0, 1'000'000);
        if (!v) return std::unexpected(v.error());
        if (*v) out.*field.number = **v;
        break;
      }
      case query::FilterField::Switch: {
        auto v = flag(field.name);
        if (!v) return std::unexpected(v.error());
        if (*v) out.*field.flag = **v;
        break;
      }
    }
  }
  return {};
}

std::optional<std::string> ParameterReader::unknown() const {
  for (std::size_t i = 0; i < parameters_->size(); ++i)
    if (!taken_[i]) return (*parameters_)[i].name;
  return std::nullopt;
}

}  // namespace pgndb::serve
