// JSON output of the commands that offer it.
#pragma once

#include <string>
#include <string_view>

namespace pgndb::cli {

// A JSON string literal: quotes, backslashes and control characters escaped.
inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[(c >> 4) & 15];
      out += hex[c & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace pgndb::cli
