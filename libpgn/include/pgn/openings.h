// Openings by position: the ECO code and name of each position lichess's chess-openings tables
// name (libpgn/data/openings/, CC0), and a game's opening, the named position its main line
// reaches at the deepest ply within its first 40. Positions are compared by repetition_key (as
// the position index compares them), so a game that transposes into a named position gets its
// name whatever the move order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "pgn/game_record.h"
#include "pgn/position.h"
#include "pgn/types.h"

namespace pgn {

struct Opening {
  std::string_view eco;    // "B90"
  std::string_view name;   // "Sicilian Defense: Najdorf Variation"
  std::string_view moves;  // "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6"
};

// An opening's number: its line in the tables (a.tsv to e.tsv, in order, from 1); 0 is none. A
// file format: databases keep it (docs/storage.md).
using OpeningId = std::uint16_t;

// Every opening, by number: openings()[0] is none (empty fields). Constant data, written at
// build time by libpgn/tools/make_opening_table.cpp, which refuses a table whose moves do not
// replay.
[[nodiscard]] std::span<const Opening> openings();

// The opening named at the position whose repetition_key is `key`, 0 when none is. Two lines of
// the tables that reach one position (none in the tables shipped) name it by the first.
[[nodiscard]] OpeningId opening_at(Key key);

// How many plies of a game are looked at for its opening.
inline constexpr std::size_t opening_plies = 40;

// The opening of a game whose main line stands, ply by ply, in the positions of repetition keys
// `keys` (the start first): the named one at the deepest ply up to opening_plies, 0 when none.
// A game set up from a position other than the standard start is not classified (`standard`).
[[nodiscard]] OpeningId classify_opening(std::span<const Key> keys, bool standard = true);
// The opening of `game`'s main line, its first plies played (for a game at hand; the importer
// classifies from the keys it has).
[[nodiscard]] OpeningId opening_of(const GameRecord& game);

}  // namespace pgn
