// Pictures of a board for people: a Unicode diagram for the terminal and an SVG drawing to put
// in a document. Presentation only: the position comes from the rules engine.
#pragma once

#include <string>

#include "pgn/position.h"
#include "pgn/types.h"

namespace pgndb::serve {

struct DiagramOptions {
  pgn::Move last_move = pgn::Move::none();  // marked on the board when given
  bool black_at_bottom = false;
};

// Eight lines of figurines (White's set for White: ♔♕♖♗♘♙), `·` for an empty square, ranks
// on the left and files below; the last move's squares in brackets.
[[nodiscard]] std::string unicode_board(const pgn::Position& pos, const DiagramOptions& options);

// A standalone SVG image (360 x 360 plus coordinates). Each piece is a text element with
// `data-square` (e.g. `e4`) and `data-piece` (FEN letter) attributes, so that scripts can read
// the drawing back.
[[nodiscard]] std::string svg_board(const pgn::Position& pos, const DiagramOptions& options);

}  // namespace pgndb::serve
