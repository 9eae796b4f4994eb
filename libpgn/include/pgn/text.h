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

}  // namespace pgn
