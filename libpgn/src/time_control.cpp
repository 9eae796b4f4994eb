#include "pgn/time_control.h"

#include <charconv>
#include <utility>

namespace pgn {

namespace {

// A non-negative decimal number (digits, at most one point), the whole of `text`.
std::optional<double> seconds(std::string_view text) {
  if (text.empty() || text.front() == '-' || text.front() == '+') return std::nullopt;
  double value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// `S` or `S+I`: the base time and the increment.
std::optional<std::pair<double, double>> base_and_increment(std::string_view text) {
  const auto plus = text.find('+');
  const auto base = seconds(text.substr(0, plus));
  if (plus == std::string_view::npos)
    return base ? std::optional(std::pair(*base, 0.0)) : std::nullopt;
  const auto increment = seconds(text.substr(plus + 1));
  if (!base || !increment) return std::nullopt;
  return std::pair(*base, *increment);
}

}  // namespace

std::optional<double> estimated_seconds(std::string_view tag) {
  std::string_view period = trimmed(tag);
  period = period.substr(0, period.find(':'));
  if (period.starts_with('*')) return seconds(period.substr(1));
  double moves = 40;
  if (const auto slash = period.find('/'); slash != std::string_view::npos) {
    const auto given = seconds(period.substr(0, slash));
    if (!given || *given < 1) return std::nullopt;
    moves = *given;
    period = period.substr(slash + 1);
  }
  const auto clock = base_and_increment(period);
  if (!clock) return std::nullopt;
  return clock->first * 40 / moves + 40 * clock->second;
}

Speed speed_of_time_control(std::string_view tag) {
  if (trimmed(tag) == "-") return Speed::Correspondence;
  const auto estimate = estimated_seconds(tag);
  if (!estimate) return Speed::Unknown;
  if (*estimate < 30) return Speed::UltraBullet;
  if (*estimate < 180) return Speed::Bullet;
  if (*estimate < 480) return Speed::Blitz;
  if (*estimate < 1500) return Speed::Rapid;
  if (*estimate < 21600) return Speed::Classical;
  return Speed::Correspondence;
}

}  // namespace pgn
