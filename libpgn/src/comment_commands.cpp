#include "pgn/comment_commands.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace pgn {

namespace {

// `h:mm:ss`, `mm:ss` or `ss`, each with an optional fraction on the seconds.
std::optional<double> parse_duration(std::string_view s) {
  double total = 0;
  int fields = 0;
  while (!s.empty()) {
    std::size_t colon = s.find(':');
    std::string_view field = s.substr(0, colon);
    // Digits only (from_chars alone would take "nan", "inf" and a sign).
    if (field.empty() || field[0] < '0' || field[0] > '9') return std::nullopt;
    double value = 0;
    auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || end != field.data() + field.size() || value < 0) return std::nullopt;
    total = total * 60 + value;
    if (++fields > 3) return std::nullopt;
    if (colon == std::string_view::npos) break;
    s.remove_prefix(colon + 1);
    if (s.empty()) return std::nullopt;
  }
  if (fields == 0) return std::nullopt;
  return total;
}

std::optional<Evaluation> parse_eval(std::string_view s) {
  s = s.substr(0, s.find(','));  // lichess may append ",depth"
  if (s.empty()) return std::nullopt;
  if (s[0] == '#') {
    s.remove_prefix(1);
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    int moves = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), moves);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return Evaluation{Evaluation::Kind::Mate, moves};
  }
  if (s[0] == '+') s.remove_prefix(1);
  double pawns = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), pawns);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(pawns)) return std::nullopt;
  return Evaluation{Evaluation::Kind::Centipawns, int(std::lround(pawns * 100))};
}

}  // namespace

CommentCommands parse_comment_commands(std::string_view comment) {
  CommentCommands result;
  std::size_t at = 0;
  while ((at = comment.find("[%", at)) != std::string_view::npos) {
    const std::size_t close = comment.find(']', at);
    if (close == std::string_view::npos) break;
    std::string_view body = comment.substr(at + 2, close - at - 2);
    at = close + 1;
    const std::size_t space = body.find_first_of(" \t\n\r");
    if (space == std::string_view::npos) continue;
    const std::string_view name = body.substr(0, space);
    std::string_view value = body.substr(space);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t' ||
                              value.front() == '\n' || value.front() == '\r'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    if (name == "clk")
      result.clock_seconds = parse_duration(value);
    else if (name == "emt")
      result.elapsed_seconds = parse_duration(value);
    else if (name == "eval")
      result.eval = parse_eval(value);
  }
  return result;
}

}  // namespace pgn
