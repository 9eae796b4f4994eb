// A game's result as a value: the four game termination markers of the PGN standard (8.2.6),
// numbered as every pgndb layout stores them (one byte or two bits: docs/storage.md). The one
// place that maps the text to the number and back.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace pgn {

enum class GameResult : std::uint8_t { Unknown = 0, WhiteWins = 1, BlackWins = 2, Draw = 3 };

inline constexpr std::array<std::string_view, 4> game_result_texts = {"*", "1-0", "0-1", "1/2-1/2"};

// `*`, `1-0`, `0-1` or `1/2-1/2`.
constexpr std::string_view to_text(GameResult r) { return game_result_texts[std::size_t(r)]; }

// The result a marker names; nothing for any other text.
constexpr std::optional<GameResult> parse_game_result(std::string_view text) {
  for (std::size_t i = 0; i < game_result_texts.size(); ++i)
    if (text == game_result_texts[i]) return GameResult(i);
  return std::nullopt;
}

// The result a marker names, Unknown for any other text (a game's result is `*` until known).
constexpr GameResult game_result_of(std::string_view text) {
  return parse_game_result(text).value_or(GameResult::Unknown);
}

// The result stored as a number (0..3); nothing for a number beyond them.
constexpr std::optional<GameResult> game_result_from_code(unsigned code) {
  if (code >= game_result_texts.size()) return std::nullopt;
  return GameResult(code);
}

constexpr std::uint8_t code_of(GameResult r) { return std::uint8_t(r); }

}  // namespace pgn
