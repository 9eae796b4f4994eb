#include "pgndb/serve/query_string.h"

#include "pgn/text.h"

namespace pgndb::serve {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes `part`, which starts at `offset` in the whole query string (for the error).
std::expected<std::string, std::string> decode(std::string_view part, std::size_t offset) {
  std::string out;
  out.reserve(part.size());
  for (std::size_t i = 0; i < part.size(); ++i) {
    const char c = part[i];
    if (c == '+') {
      out += ' ';
    } else if (c != '%') {
      out += c;
    } else {
      const int high = i + 1 < part.size() ? hex_digit(part[i + 1]) : -1;
      const int low = i + 2 < part.size() ? hex_digit(part[i + 2]) : -1;
      if (high < 0 || low < 0)
        return std::unexpected(pgn::cat("query string: '%' at offset ", offset + i,
                                        " is not followed by two hex digits"));
      out += static_cast<char>(high << 4 | low);
      i += 2;
    }
  }
  return out;
}

}  // namespace

std::expected<Parameters, std::string> parse_query_string(std::string_view text) {
  Parameters parameters;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('&', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view pair = text.substr(at, end - at);
    if (!pair.empty()) {
      const std::size_t equals = pair.find('=');
      auto name = decode(pair.substr(0, equals), at);
      if (!name) return std::unexpected(name.error());
      if (name->empty())
        return std::unexpected(pgn::cat("query string: a parameter without a name at offset ", at));
      std::string value;
      if (equals != std::string_view::npos) {
        auto decoded = decode(pair.substr(equals + 1), at + equals + 1);
        if (!decoded) return std::unexpected(decoded.error());
        value = std::move(*decoded);
      }
      parameters.push_back({std::move(*name), std::move(value)});
    }
    at = end + 1;
  }
  return parameters;
}

}  // namespace pgndb::serve
