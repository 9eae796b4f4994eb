// A game's speed from its TimeControl tag (PGN standard 9.6.1), as lichess classifies games:
// the estimated duration of a player's clock over 40 moves (the base time plus 40 increments)
// decides, with lichess's bounds (docs/query.md, "Speed"). The one place that maps a tag to a
// speed, and a speed to its name and back; the stored number is a file format (the summaries'
// first byte, the facts' speed column: docs/storage.md).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace pgn {

enum class Speed : std::uint8_t {
  Unknown = 0,  // no tag, `?`, or a text that is not a time control
  UltraBullet = 1,
  Bullet = 2,
  Blitz = 3,
  Rapid = 4,
  Classical = 5,
  Correspondence = 6,
};
inline constexpr std::size_t speed_count = 7;

// lichess's names (its explorer's `speeds` and its games' `speed`): "ultraBullet", "bullet",
// "blitz", "rapid", "classical", "correspondence"; "unknown" for Unknown.
inline constexpr std::array<std::string_view, speed_count> speed_names = {
    "unknown", "ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"};

constexpr std::string_view to_text(Speed s) { return speed_names[std::size_t(s)]; }

// The speed a name gives (as lichess spells it); nothing for any other text.
constexpr std::optional<Speed> parse_speed(std::string_view text) {
  for (std::size_t i = 0; i < speed_names.size(); ++i)
    if (text == speed_names[i]) return Speed(i);
  return std::nullopt;
}

// The estimated seconds of a player's clock over 40 moves under the first period of `tag`:
// `S+I` gives S + 40 I, `S` and `*S` (sandclock) give S, `M/S` (M moves in S seconds) gives
// 40 S / M, and `M/S+I` (as FIDE's `40/5400+30`) 40 S / M + 40 I; S and I may have decimals.
// Nothing for `?`, `-` or a text of another form.
[[nodiscard]] std::optional<double> estimated_seconds(std::string_view tag);

// The speed of a game with TimeControl `tag`: `-` (no clock) is correspondence; otherwise
// by estimated_seconds: under 30 ultraBullet, 180 bullet, 480 blitz, 1,500 rapid, 21,600
// classical, correspondence beyond (a day a move, `1/86400`, among them). Unknown when the
// tag says nothing this reads (`?`, prose such as "15 min. + 10 s. per move").
[[nodiscard]] Speed speed_of_time_control(std::string_view tag);

}  // namespace pgn
