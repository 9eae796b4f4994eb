#include "pgn/game_ending.h"

#include <cstddef>

#include "pgn/game.h"
#include "pgn/material.h"

namespace pgn {

namespace {

// How many times the last of `keys` stands among them. A position recurs with the same side to
// move, an even number of plies later: only those are compared.
int repetitions_of_last(const std::vector<Key>& keys) {
  const Key last = keys.back();
  int n = 1;
  for (std::ptrdiff_t i = std::ptrdiff_t(keys.size()) - 3; i >= 0; i -= 2) n += keys[i] == last;
  return n;
}

}  // namespace

void EndingTracker::reset(const Position& start) {
  keys_.clear();
  ending_ = {};
  ply_ = 0;
  note(start, true);
}

void EndingTracker::after_move(const Position& pos) {
  ++ply_;
  // After a capture or a pawn move no earlier position can recur.
  // Only a capture (or a promotion, a pawn move) changes the material: only then need it be
  // looked at again (a tenth of `check`'s time otherwise).
  const bool irreversible = pos.halfmove_clock() == 0;
  if (irreversible) keys_.clear();
  note(pos, irreversible);
}

void EndingTracker::note(const Position& pos, bool material_changed) {
  keys_.push_back(repetition_key(pos));
  // A position stands a third time 8 plies after its first at the earliest: fewer keys since the
  // last capture or pawn move hold no threefold (most plies of most games).
  const int repetitions = keys_.size() >= 9 ? repetitions_of_last(keys_) : 1;
  ending_.repetition |= repetitions >= 3;
  ending_.fifty_moves |= pos.halfmove_clock() >= 100;
  if (ending_.ending != Ending::None) return;
  // What ends a game by itself at a ply, checkmate and stalemate aside: the dead position by
  // material first, then the 75 moves, then the fivefold repetition (each a draw).
  const Ending e = material_changed && insufficient_material(pos) ? Ending::InsufficientMaterial
                   : pos.halfmove_clock() >= 150                  ? Ending::SeventyFive
                   : repetitions >= 5                             ? Ending::Fivefold
                                                                  : Ending::None;
  if (e != Ending::None) {
    ending_.ending = e;
    ending_.ply = ply_;
  }
}

int EndingTracker::repetitions() const { return repetitions_of_last(keys_); }

GameEnding EndingTracker::finish(const Position& end) const {
  GameEnding out = ending_;
  // Checkmate and stalemate end the game at its last ply, before what the same move did besides:
  // a checkmate takes precedence over the 75 moves (Law 9.6.2), and a stalemate is named as such
  // when its material is dead too.
  const bool free = out.ending == Ending::None || out.ply == ply_;
  if (free && end.is_checkmate()) {
    out.ending = Ending::Checkmate;
    out.ply = ply_;
  } else if (free && end.is_stalemate()) {
    out.ending = Ending::Stalemate;
    out.ply = ply_;
  }
  if (out.ending == Ending::None) {
    // The claims the final position allows (FIDE Laws 9.2 and 9.3).
    const int repetitions = repetitions_of_last(keys_);
    out.ending = repetitions >= 3              ? Ending::Threefold
                 : end.halfmove_clock() >= 100 ? Ending::Fifty
                                               : Ending::None;
    out.ply = ply_;
  }
  return out;
}

GameEnding game_ending(const Position& start, std::span<const Move> moves) {
  EndingTracker tracker(start);
  Position pos = start;
  for (const Move m : moves) {
    pos.play_or_pass(m);
    tracker.after_move(pos);
  }
  return tracker.finish(pos);
}

}  // namespace pgn
