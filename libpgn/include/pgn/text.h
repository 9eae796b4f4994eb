// Building messages from pieces (g++ 12's library has no <format>).
#pragma once

#include <concepts>
#include <string>
#include <string_view>

namespace pgn {

namespace detail {
inline void append(std::string& out, std::string_view s) { out += s; }
inline void append(std::string& out, char c) { out += c; }
inline void append(std::string& out, const char* s) { out += s; }
template <std::integral T>
requires(!std::same_as<T, char> && !std::same_as<T, bool>) void append(std::string& out, T v) {
  out += std::to_string(v);
}
}  // namespace detail

// Concatenates strings, characters and integers: cat("rank ", 3, " has ", n, " squares").
template <class... Parts>
[[nodiscard]] std::string cat(const Parts&... parts) {
  std::string out;
  (detail::append(out, parts), ...);
  return out;
}

// Input quoted in a message: at most the first `max` bytes of `text` (cut before a UTF-8
// sequence, then "..."), control characters written as \xNN. A token may be a megabyte long and
// hold any bytes; a message is one printable line.
[[nodiscard]] inline std::string excerpt(std::string_view text, std::size_t max = 40) {
  std::size_t n = text.size();
  if (n > max) {
    n = max;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (char c : text.substr(0, n)) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7F) {
      out += "\\x";
      out += hex[b >> 4];
      out += hex[b & 15];
    } else {
      out += c;
    }
  }
  return n < text.size() ? out + "..." : out;
}

}  // namespace pgn
