#include "pgn/material.h"

namespace pgn {

namespace {

constexpr Bitboard dark_squares = 0xAA55AA55AA55AA55ULL;  // a1 dark, b1 light

}  // namespace

bool can_mate(const Position& pos, Color side) {
  const Bitboard own = pos.pieces(side), other = pos.pieces(~side);
  if (own & (pos.pieces(Pawn) | pos.pieces(Rook) | pos.pieces(Queen))) return true;
  const Bitboard knights = own & pos.pieces(Knight);
  if (knights) {
    // King and one knight: the other side's king must be blocked by its own men, and only a
    // pawn, knight, bishop or rook can stand where it must without taking or covering the
    // knight (a queen always could).
    if (popcount(own) > 2) return true;  // another knight or a bishop besides
    return (other & ~pos.pieces(King) & ~pos.pieces(Queen)) != 0;
  }
  const Bitboard bishops = pos.pieces(Bishop);
  if (own & bishops) {
    // Bishops (the side's and the other's) on squares of one colour never attack a king on
    // the other colour, nor guard its flight squares there: mate needs a bishop on the other
    // colour, or a pawn or knight of the other side's to block.
    const bool one_colour = !(bishops & dark_squares) || !(bishops & ~dark_squares);
    return !one_colour || (other & (pos.pieces(Pawn) | pos.pieces(Knight))) != 0;
  }
  return false;  // the king alone
}

int material_value(const Position& pos, Color side) {
  int total = 0;
  for (PieceType pt : {Pawn, Knight, Bishop, Rook, Queen})
    total += piece_value(pt) * popcount(pos.pieces(side, pt));
  return total;
}

}  // namespace pgn
