// Standard Algebraic Notation in and out, and UCI coordinate notation.
#pragma once

#include <expected>
#include <string>
#include <string_view>

#include "pgn/position.h"
#include "pgn/types.h"

namespace pgn {

enum class SanErrorKind {
  Syntax,     // the text is not a move in any notation we read
  Illegal,    // a well-formed move that no legal move matches
  Ambiguous,  // a well-formed move that more than one legal move matches
};

struct SanError {
  SanErrorKind kind;
  // Names the move and the position, e.g. "illegal move Nf6 in <FEN>".
  std::string message;
};

// Resolves a move written in SAN against `pos`, leniently, the way real archives need:
// `O-O`/`0-0`/`O-O-O`/`0-0-0`, promotions as `e8=Q`, `e8Q`, `e8(Q)` or `e8/Q`, `exd6e.p.`,
// over-disambiguation (`Ngf3`, `Ng1f3`, `Ng1-f3`), a missing or wrong `x`, a missing or wrong
// `+`/`#`, trailing `!`/`?` annotations, the null moves `--`, `Z0` and `0000` (Move::null()),
// and UCI coordinates (`g1f3`, `e7e8q`, castling as `e1g1` or king-takes-rook `e1h1`).
[[nodiscard]] std::expected<Move, SanError> parse_san(const Position& pos, std::string_view text);

// Canonical SAN of legal move `m`: minimal disambiguation, `x` for captures, `=Q` promotions,
// `O-O`/`O-O-O`, and `+` or `#`. The null move is `--`.
[[nodiscard]] std::string to_san(const Position& pos, Move m);

// UCI notation of legal move `m`: castling is the king's two-square move (`e1g1`) in standard
// chess and king-takes-rook (`e1h1`) in Chess960. The null move is `0000`.
[[nodiscard]] std::string to_uci(const Position& pos, Move m);

}  // namespace pgn
