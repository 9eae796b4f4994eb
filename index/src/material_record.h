// Layouts of the material index (docs/storage.md, "Material"), their one owner: each game's
// material history in the `materials` family, and a balance as the postings' material values
// hold it (metadata_keys.h, dimension 'm').
//
// A balance, 5 bytes, the pieces before the pawns so that the balances of one set of pieces are
// one key range (a search skips a range whose pieces cannot match, MaterialSpec::pieces_can_match):
//
//   White Q << 4 | White R, White B << 4 | White N, Black Q << 4 | Black R,
//   Black B << 4 | Black N, White P << 4 | Black P
//
// (a side has 15 pieces beside its king at most, so each count fits its 4 bits).
//
// A game's history (pgn::MaterialHistory), in groups as the summaries' (each game's bytes as a
// string, under the key of the group's first game; empty for a game that does not decode):
//
//   varint plies | flags byte | [5 bytes: the start's balance, unless flag 1]
//   | varint count of later runs | each run's change | [the pawns' squares, with flag 4]
//   | [the rooks' ranks, with flag 16]
//
// Flags: 1, the start is the initial position's material; 2, Black moved first; 4, the squares
// each side's pawns stood on follow (pgn::MaterialHistory::pawn_squares; schema 23: a history
// of 22 has none, and is read as "every square"); 8, each side's home rank is among them whole
// and not written; 16, the ranks each side's rooks stood on follow (rook_squares; schema 24:
// a history of 23 has none, "every square"). The squares are a byte a rank (bit f the file,
// a = 0), from the side's home rank out: White's ranks 2 (without flag 8) to 7, then Black's 7
// (without flag 8) to 2, so 10 bytes, or 12. The rooks' ranks are a byte a side, White's then
// Black's, bit r the side's rank r + 1 counted from its own home rank (Black's rank 8 is bit
// 0), so that both sides' usual bytes are alike. The move that
// makes a run is the ply its run starts at, and the side that made it follows from the ply, so a
// change needs only what was taken and what was promoted, a code: 0..4 the opponent's pawn,
// knight, bishop, rook or queen taken; 5 + 5 * (promoted - Knight) + taken (0 nothing, 1..4 a
// knight, bishop, rook or queen) a promotion. A run's byte is plies since the run before
// (1..7) << 5 | code, or 0 << 5 | code then the plies as a varint; 0xFF then the plies as a
// varint and 5 bytes of balance, for a change no move makes.
//
// About a byte a capture, 10 bytes of pawns' squares and 2 of rooks' ranks: 36 bytes a game on
// the corpus before ZSTD (the family is compressed: the squares' bytes of ranks far from home
// are mostly 0).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pgn/material_balance.h"

namespace pgndb::index::material {

inline constexpr std::size_t balance_size = 5;

void put_balance(std::string& out, const pgn::MaterialBalance& balance);
// A balance's 5 bytes as one number, big-endian (numbers sort as the bytes do): what an import
// carries and sorts, as it does the positions' keys (store.cpp, batch_entry).
[[nodiscard]] std::uint64_t packed(const pgn::MaterialBalance& balance);
// The metadata value (without game id; metadata_keys.h, dimension 'm') of a packed balance.
[[nodiscard]] std::string value_of_packed(std::uint64_t packed);
// Nothing when `bytes` is not balance_size long.
[[nodiscard]] std::optional<pgn::MaterialBalance> balance_of(std::string_view bytes);

// A balance's pieces (its first balance_size - 1 bytes, all but the pawns) as one number: eight
// counts of 4 bits, White's queens, rooks, bishops and knights, then Black's, the first the
// highest. The balances of one number are one key range, in the numbers' order.
inline constexpr std::size_t pieces_size = balance_size - 1;
// Counts a balance may have, by colour and kind: bit c of possible[colour][type - Pawn] says c
// pieces may be there (the pawns' are not used).
using PossibleCounts = std::array<std::array<std::uint16_t, 5>, 2>;
// The smallest pieces number at least `from` whose every count is possible, or nothing.
[[nodiscard]] std::optional<std::uint32_t> next_possible_pieces(std::uint32_t from,
                                                                const PossibleCounts& possible);

void encode_history(const pgn::MaterialHistory& history, std::string& out);
// Nothing when the bytes are not a history this layout writes.
[[nodiscard]] std::optional<pgn::MaterialHistory> decode_history(std::string_view bytes);
// The same into `out`, whose vectors keep their memory from one history to the next (a search
// decodes thousands); false when the bytes are not a history.
[[nodiscard]] bool decode_history(std::string_view bytes, pgn::MaterialHistory& out);

}  // namespace pgndb::index::material
