#include "pgn/game.h"

#include <algorithm>

#include "pgn/material.h"
#include "pgn/movegen.h"
#include "pgn/zobrist.h"

namespace pgn {

Key repetition_key(const Position& pos) {
  if (pos.en_passant() == NoSquare || has_legal_en_passant(pos)) return pos.key();
  return pos.key() ^ zobrist::en_passant_file(file_of(pos.en_passant()));
}

Game::Game(const Position& start) : position_(start), keys_{repetition_key(start)} {}

void Game::play(Move m) {
  position_.play_or_pass(m);
  // After a capture, a pawn move or a change of castling rights no earlier position can recur
  // (the halfmove clock alone does not see lost castling rights, the key does).
  if (position_.halfmove_clock() == 0) keys_.clear();
  keys_.push_back(repetition_key(position_));
}

int Game::repetitions() const { return int(std::count(keys_.begin(), keys_.end(), keys_.back())); }

Termination Game::termination() const {
  if (position_.is_checkmate()) return Termination::Checkmate;
  if (position_.is_stalemate()) return Termination::Stalemate;
  if (insufficient_material(position_)) return Termination::InsufficientMaterial;
  if (position_.halfmove_clock() >= 150) return Termination::SeventyFiveMoves;
  if (repetitions() >= 5) return Termination::FivefoldRepetition;
  return Termination::None;
}

DrawClaim Game::draw_claim() const {
  if (repetitions() >= 3) return DrawClaim::ThreefoldRepetition;
  if (position_.halfmove_clock() >= 100) return DrawClaim::FiftyMoves;
  return DrawClaim::None;
}

}  // namespace pgn
