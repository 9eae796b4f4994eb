// Polyglot-compatible Zobrist hashing. The keys are a file format: opening books and other tools
// key positions by them, so the table is Polyglot's published one and a test pins known values.
#pragma once

#include "pgn/types.h"

namespace pgn::zobrist {

// Polyglot's 781 random numbers: 768 piece-square keys, 4 castling keys, 8 en passant file
// keys, 1 side-to-move key. Defined in polyglot_random.cpp.
extern const Key polyglot_random[781];

// Polyglot orders pieces black pawn, white pawn, black knight, white knight, ...
inline Key piece_square(Piece p, Square s) {
  int kind = 2 * (type_of(p) - 1) + (color_of(p) == White ? 1 : 0);
  return polyglot_random[64 * kind + s];
}
// index: 0 white short, 1 white long, 2 black short, 3 black long (= castling_index()).
inline Key castling(int index) { return polyglot_random[768 + index]; }
inline Key en_passant_file(int file) { return polyglot_random[772 + file]; }
// XORed in when White is to move.
inline Key white_to_move() { return polyglot_random[780]; }

}  // namespace pgn::zobrist
