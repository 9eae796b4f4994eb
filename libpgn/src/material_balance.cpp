#include "pgn/material_balance.h"

#include <algorithm>

#include "pgn/bitboard.h"

namespace pgn {

namespace {

std::uint8_t capped_count(Bitboard pieces) {
  return std::uint8_t(std::min(popcount(pieces), int(MaterialBalance::most)));
}

void count_side(const Position& position, Color c, MaterialBalance& balance) {
  for (PieceType t = Pawn; t <= Queen; t = PieceType(t + 1))
    balance.count[c][t - Pawn] = capped_count(position.pieces(c, t));
}

}  // namespace

MaterialBalance MaterialBalance::of(const Position& position) {
  MaterialBalance balance;
  count_side(position, White, balance);
  count_side(position, Black, balance);
  return balance;
}

void MaterialTracker::start(const Position& position) {
  clear();  // the runs keep their memory from one game to the next (an import follows millions)
  history_.runs.push_back({0, MaterialBalance::of(position)});
  history_.pawn_squares = {position.pieces(White, Pawn), position.pieces(Black, Pawn)};
  history_.rook_squares = {position.pieces(White, Rook), position.pieces(Black, Rook)};
  pieces_ = popcount(position.occupied());
  pawns_ = popcount(position.pieces(Pawn));
}

void MaterialTracker::changed(const Position& after, int pieces, int pawns) {
  // Only a capture (a piece fewer) or a promotion (a pawn fewer) changes the material: two
  // counts decided (played()) before the others are made. A move takes pieces of the side now
  // to move only, and changes the mover's own only by a promotion, which leaves it a pawn fewer:
  // the mover's five counts are made again only then.
  pieces_ = pieces;
  pawns_ = pawns;
  MaterialBalance balance = history_.runs.back().balance;
  const Color mover = ~after.side_to_move();
  count_side(after, ~mover, balance);
  // A count kept as `most` may stand for more (a FEN's 16 pawns): its change would not show.
  if (capped_count(after.pieces(mover, Pawn)) != balance.count[mover][0] ||
      balance.count[mover][0] == MaterialBalance::most)
    count_side(after, mover, balance);
  if (!(balance == history_.runs.back().balance))
    history_.runs.push_back({history_.plies, balance});
}

}  // namespace pgn
