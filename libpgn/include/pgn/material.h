// Mating material (Law 6.9 of the FIDE Laws, as the Slovak seed lists it: "matovací materiál")
// and the material balance in the seeds' piece values.
//
// can_mate() answers the law's question: could this side checkmate the other by some series of
// legal moves, however the other plays (helpmates count). It decides on the material alone, as
// arbiters and programs do: a side with a pawn, a rook or a queen can; a lone knight can only
// when the other side has a pawn, knight, bishop or rook to block its own king (a queen never
// can); bishops alone (with no knight) can only when some bishop stands on the other colour from
// the rest, or the other side has a pawn or a knight. Where the Slovak list differs from the
// law, this follows the law: two bishops on squares of one colour cannot mate (the list counts
// any two bishops), and two knights can (the list has no entry for them). tests/test_material.cpp
// gives each clause a position, and checks each answer by searching every placement of its
// material for a checkmate.
#pragma once

#include "pgn/position.h"

namespace pgn {

// Whether `side` has mating material in `pos` (Law 6.9).
[[nodiscard]] bool can_mate(const Position& pos, Color side);

// Neither side can checkmate: the game is drawn (Law 5.2.2's dead position, by material).
[[nodiscard]] inline bool insufficient_material(const Position& pos) {
  // A pawn, rook or queen on the board can mate: the common case, asked at every ply.
  if (pos.pieces(Pawn) | pos.pieces(Rook) | pos.pieces(Queen)) return false;
  return !can_mate(pos, White) && !can_mate(pos, Black);
}

// The seeds' piece values (Slovak seed: pawn 1, knight 3, bishop 3, rook 5, queen 9).
inline constexpr int piece_value(PieceType pt) {
  constexpr int values[] = {0, 1, 3, 3, 5, 9, 0};
  return values[pt];
}
// The value of `side`'s pieces in `pos` (its king not counted).
[[nodiscard]] int material_value(const Position& pos, Color side);

}  // namespace pgn
