// A game in progress: the current position plus what the rules need from its past (the keys of
// earlier positions, for repetitions), and how it ended (game_ending.h).
#pragma once

#include <vector>

#include "pgn/game_ending.h"
#include "pgn/position.h"
#include "pgn/types.h"

namespace pgn {

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
  [[nodiscard]] int repetitions() const { return ending_.repetitions(); }
  // How the game has ended so far (game_ending.h): the first ending by itself along the moves
  // played, else the claim the current position allows.
  [[nodiscard]] GameEnding ending() const { return ending_.finish(position_); }

 private:
  Position position_;
  EndingTracker ending_;
};

}  // namespace pgn
