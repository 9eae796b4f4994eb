// A game in progress: the current position plus what the rules need from its past (the keys of
// earlier positions, for repetitions), and how a game ends.
#pragma once

#include <vector>

#include "pgn/position.h"
#include "pgn/types.h"

namespace pgn {

// Ways a game ends by itself, without a claim or an agreement (FIDE Laws 5.2 and 9.6).
enum class Termination {
  None,
  Checkmate,
  Stalemate,
  InsufficientMaterial,  // neither side can ever mate (Law 6.9: material.h)
  SeventyFiveMoves,      // 75 moves by each side without a capture or pawn move
  FivefoldRepetition,
};

// Draws a player may claim (FIDE Law 9.2 and 9.3).
enum class DrawClaim {
  None,
  FiftyMoves,
  ThreefoldRepetition,
};

// The key that identifies a position as FIDE compares positions (Law 9.2.3): Position::key()
// follows Polyglot and counts an en passant square whenever a pawn stands beside the pawn that
// made the double step; this key counts it only when the capture is legal (drops it when, say,
// that pawn is pinned). Repetitions and the database's position index use it.
[[nodiscard]] Key repetition_key(const Position& pos);

class Game {
 public:
  explicit Game(const Position& start = Position());

  const Position& position() const { return position_; }
  // Plays a legal move (or Move::null()).
  void play(Move m);

  // How many times the current position has stood on the board, this time included. Positions
  // are the same when the same pieces stand on the same squares with the same side to move and
  // the same moves possible (FIDE Law 9.2.3): castling rights count, and an en passant right
  // counts only when the capture is legal.
  [[nodiscard]] int repetitions() const;
  [[nodiscard]] Termination termination() const;
  [[nodiscard]] DrawClaim draw_claim() const;

 private:
  Position position_;
  // Keys of the positions since the last irreversible move, the current one last.
  std::vector<Key> keys_;
};

}  // namespace pgn
