// How game_codec numbers a move: its index among the side to move's pseudo-legal moves (legal
// but for leaving the own king attacked; castling counted for every castling right), ordered by
// (from square, to square, promotion piece: knight, bishop, rook, queen). Castling is the king
// taking its own rook, so it sorts by the rook's square.
//
// Why pseudo-legal: an index needs only each piece's target set, found with one attack lookup
// and no test of the king's safety. Numbering among the legal moves (the first format) made
// every move of an import run the whole legal move generator, a fifth of its time, for a
// slightly smaller index.
#pragma once

#include <optional>

#include "pgn/position.h"
#include "pgn/types.h"

namespace pgndb::index {

// The index of `m`, which must be a pseudo-legal move of `pos` (every legal move is).
[[nodiscard]] unsigned pseudo_legal_index(const pgn::Position& pos, pgn::Move m);
// The move with that index, or Move::none() when `pos` has fewer pseudo-legal moves. A Move, not
// an optional: the optional's two fields came back through memory, and reading them whole
// stalled each stored move of a replay (a tenth of a pattern search's time).
[[nodiscard]] pgn::Move pseudo_legal_move_at(const pgn::Position& pos, unsigned index);

// Whether the pseudo-legal move `m` of `pos` is legal: it leaves the own king unattacked (the
// squares it occupies after the move, the captured piece gone; castling by the legal move
// generator). The decoder checks each stored move so; a whole legal move generation per move was
// most of a decode.
[[nodiscard]] bool is_legal(const pgn::Position& pos, pgn::Move m);

}  // namespace pgndb::index
