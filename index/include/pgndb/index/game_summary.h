// What queries read of many games at once, kept apart from the games themselves: the result,
// the date, the ratings, whether the game is annotated, and the codes of its first moves. A
// search with a rating filter, a sort by date or rating, or an opening tree over a hundred
// thousand games reads about twenty bytes of each instead of decoding it. The stored form is a
// file format (docs/storage.md, "Summaries").
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "pgn/position.h"
#include "pgndb/index/search_facts.h"
#include "pgndb/index/status.h"

namespace pgndb::index {

struct GameSummary {
  // How many main-line moves the summary keeps: an opening tree finds where a game stands in a
  // position among these (popular positions are early ones) and reads the game only otherwise.
  static constexpr std::size_t opening_plies = 16;

  std::uint8_t result = 0;  // 0 `*`, 1 `1-0`, 2 `0-1`, 3 `1/2-1/2` (as the game codec)
  std::uint16_t year = 0;   // 0 for each unknown part
  std::uint8_t month = 0, day = 0;
  std::uint16_t white_elo = 0, black_elo = 0;  // 0 when unknown
  std::uint16_t plies = 0;                     // main-line plies (at most 65,535)
  // A comment (beyond clock and time commands such as `[%clk 0:03:00]`) or a variation
  // anywhere in the game.
  bool annotated = false;
  bool standard_start = true;              // no SetUp/FEN position
  pgn::Speed speed = pgn::Speed::Unknown;  // from the TimeControl tag (schema 19)
  // How the main line ended, a repetition or fifty moves on the way (schema 20).
  pgn::Ending ending = pgn::Ending::None;
  bool repetition = false, fifty_moves = false;
  // The opening its main line reached (pgn/openings.h), 0 when none (schema 21).
  pgn::OpeningId opening_id = 0;
  // The first main-line moves as game_codec numbers them (their index among the pseudo-legal
  // moves of the position before each): min(plies, opening_plies) of them, or fewer when a
  // move's index does not fit a byte or a move is a null move (the codes stop there).
  std::uint8_t opening_length = 0;
  std::array<std::uint8_t, opening_plies> opening{};

  // A sortable date: year, month, day in one number, 0 for unknown parts.
  std::uint32_t date_number() const { return std::uint32_t(year) << 16 | month << 8 | day; }
  // How the game ended, as kept (the ply is not kept: 0).
  pgn::GameEnding game_ending() const { return {ending, 0, repetition, fifty_moves}; }
  // The facts the facts family keeps of the game.
  SearchFacts facts() const {
    return {result, annotated, year,   month,      day,         white_elo, black_elo,
            plies,  speed,     ending, repetition, fifty_moves, opening_id};
  }
};

// The stored form (docs/storage.md, "Summaries") and back; Corruption when the bytes are not a
// summary. A summary written before schema 20 reads too, its ending None (the upgrade to 20
// rewrites every summary).
void encode_summary(const GameSummary& summary, std::string& out);
[[nodiscard]] std::expected<GameSummary, Status> decode_summary(std::string_view bytes);

// The legal move of `pos` that an opening code names, or nothing when none does (a code stored
// for another position).
[[nodiscard]] std::optional<pgn::Move> opening_move(const pgn::Position& pos, std::uint8_t code);

}  // namespace pgndb::index
