#include "pgn/game.h"

#include "pgn/movegen.h"
#include "pgn/zobrist.h"

namespace pgn {

Key repetition_key(const Position& pos) {
  if (pos.en_passant() == NoSquare || has_legal_en_passant(pos)) return pos.key();
  return pos.key() ^ zobrist::en_passant_file(file_of(pos.en_passant()));
}

Game::Game(const Position& start) : position_(start), ending_(start) {}

void Game::play(Move m) {
  position_.play_or_pass(m);
  ending_.after_move(position_);
}

}  // namespace pgn
