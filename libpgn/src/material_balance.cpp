#include "pgn/material_balance.h"

#include <algorithm>

#include "pgn/bitboard.h"

namespace pgn {

MaterialBalance MaterialBalance::of(const Position& position) {
  MaterialBalance balance;
  for (Color c : {White, Black})
    for (PieceType t = Pawn; t <= Queen; t = PieceType(t + 1))
      balance.count[c][t - Pawn] =
          std::uint8_t(std::min(popcount(position.pieces(c, t)), int(MaterialBalance::most)));
  return balance;
}

void MaterialTracker::start(const Position& position) {
  history_ = MaterialHistory{};
  history_.runs.push_back({0, MaterialBalance::of(position)});
  pieces_ = popcount(position.occupied());
  pawns_ = popcount(position.pieces(Pawn));
}

void MaterialTracker::changed(const Position& after, int pieces, int pawns) {
  // Only a capture (a piece fewer) or a promotion (a pawn fewer) changes the material: two
  // counts decided (played()) before the ten are made.
  pieces_ = pieces;
  pawns_ = pawns;
  const MaterialBalance balance = MaterialBalance::of(after);
  if (!(balance == history_.runs.back().balance))
    history_.runs.push_back({history_.plies, balance});
}

}  // namespace pgn
