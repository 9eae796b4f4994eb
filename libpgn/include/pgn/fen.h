// FEN and EPD positions: the one checked way from text to a Position, and back.
#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/position.h"

namespace pgn {

enum class FenError {
  WrongFieldCount,      // not 4 (EPD) to 6 space-separated fields
  BadPlacement,         // the board field: 8 ranks of 8 squares, letters from PNBRQKpnbrqk
  BadSideToMove,        // not `w` or `b`
  BadCastling,          // not `-` or letters from KQkq / A-H / a-h, or a letter repeated
  BadEnPassant,         // not `-` or a square
  BadHalfmoveClock,     // not a number from 0 to 65535
  BadFullmoveNumber,    // not a number from 1 to 65535
  MissingKing,          // a side has no king
  TooManyKings,         // a side has more than one king
  PawnOnBackRank,       // a pawn on rank 1 or 8
  OpponentInCheck,      // the side not to move is in check
  CastlingWithoutRook,  // a castling right whose king or rook is not in place
  ImpossibleEnPassant,  // an en passant square that no double step can have produced
};
// Not an error: more pieces than a game can reach (nine queens, seventeen pieces). Such
// positions are legal to set up, and move-generator test suites use them.

struct FenProblem {
  FenError code;
  std::string message;
};

// Every problem found in a FEN; parsing goes on after the first one where it can, so a user
// fixing a hand-written FEN sees all of them at once.
struct FenErrors {
  std::vector<FenProblem> problems;

  bool has(FenError code) const;
  // The problems joined by "; ".
  std::string message() const;
};

// Reads FEN (6 fields) or the first 4 fields of EPD (clocks default to 0 and 1). Castling may be
// standard (`KQkq`), X-FEN (`K` = the outermost rook on that side) or Shredder-FEN (`HAha`,
// the rooks' files). An en passant square is accepted whenever a double step can have produced
// it; it is kept only when a pawn of the side to move stands beside that pawn.
[[nodiscard]] std::expected<Position, FenErrors> parse_fen(std::string_view fen);

// FEN of the position. Castling is written `KQkq` where the rook is the outermost one on its
// side (always, in standard chess) and as the rook's file letter otherwise (X-FEN).
[[nodiscard]] std::string to_fen(const Position& pos);

constexpr std::string_view start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

}  // namespace pgn
