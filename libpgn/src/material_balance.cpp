#include "pgn/material_balance.h"

#include "pgn/bitboard.h"

namespace pgn {

namespace {

// The home squares (a2..h2, a7..h7) holding their own side's pawn.
Bitboard pawns_at_home(const Position& position) {
  return (position.pieces(White, Pawn) & rank_bb(1)) | (position.pieces(Black, Pawn) & rank_bb(6));
}

// MaterialHistory's numbering of the home pawn on `square` (a2..h2 or a7..h7).
std::uint8_t home_pawn_index(Square square) {
  return std::uint8_t((rank_of(square) == 1 ? 0 : 8) + file_of(square));
}

}  // namespace

MaterialBalance MaterialBalance::of(const Position& position) {
  MaterialBalance balance;
  for (Color c : {White, Black})
    for (PieceType t = Pawn; t <= Queen; t = PieceType(t + 1))
      balance.count[c][t - Pawn] = std::uint8_t(popcount(position.pieces(c, t)));
  return balance;
}

void MaterialTracker::start(const Position& position) {
  history_ = MaterialHistory{};
  history_.runs.push_back({0, MaterialBalance::of(position)});
  home_pawns_ = pawns_at_home(position);
  pieces_ = popcount(position.occupied());
  pawns_ = popcount(position.pieces(Pawn));
  for (Bitboard b = home_pawns_; b;)
    history_.pawns_home_at_start |= 1u << home_pawn_index(pop_lsb(b));
}

void MaterialTracker::played(const Position& after) {
  ++history_.plies;
  // Only a capture (a piece fewer) or a promotion (a pawn fewer) changes the material: two
  // counts decide before the ten are made.
  const int pieces = popcount(after.occupied()), pawns = popcount(after.pieces(Pawn));
  if (pieces != pieces_ || pawns != pawns_) {
    pieces_ = pieces;
    pawns_ = pawns;
    const MaterialBalance balance = MaterialBalance::of(after);
    if (!(balance == history_.runs.back().balance))
      history_.runs.push_back({history_.plies, balance});
  }
  // A white pawn on the second rank (a black one on the seventh) has never moved, so the home
  // pawns only ever leave: those still followed are the ones that stood there from the start.
  for (Bitboard gone = home_pawns_ & ~pawns_at_home(after); gone;) {
    const Square square = pop_lsb(gone);
    home_pawns_ &= ~square_bb(square);
    history_.pawns_gone.push_back(home_pawn_index(square));
  }
}

}  // namespace pgn
