#include "move_index.h"

#include "pgn/movegen.h"

#include "pgn/bitboard.h"

namespace pgndb::index {

namespace {

using pgn::Bitboard;
using pgn::Square;

// The squares the piece on `from` (of the side to move) may go to, pseudo-legally; for a
// pawn about to promote each target stands for four moves.
Bitboard targets_of(const pgn::Position& pos, Square from) {
  const pgn::Color us = pos.side_to_move();
  const Bitboard own = pos.pieces(us), occupied = pos.occupied();
  switch (pgn::type_of(pos.piece_on(from))) {
    case pgn::Pawn: {
      Bitboard enemies = pos.pieces(~us);
      if (pos.en_passant() != pgn::NoSquare) enemies |= pgn::square_bb(pos.en_passant());
      Bitboard result = pgn::pawn_attacks(us, from) & enemies;
      const int forward = us == pgn::White ? 8 : -8;
      const Square one = Square(from + forward);
      if (!(occupied & pgn::square_bb(one))) {
        result |= pgn::square_bb(one);
        const Square two = Square(one + forward);
        if (pgn::relative_rank(us, pgn::rank_of(from)) == 1 && !(occupied & pgn::square_bb(two)))
          result |= pgn::square_bb(two);
      }
      return result;
    }
    case pgn::King: {
      Bitboard result = pgn::king_attacks(from) & ~own;
      for (pgn::CastlingSide side : {pgn::KingSide, pgn::QueenSide})
        if (pos.can_castle(us, side)) result |= pgn::square_bb(pos.castling_rook(us, side));
      return result;
    }
    case pgn::Knight:
    case pgn::Bishop:
    case pgn::Rook:
    case pgn::Queen:
      return pgn::attacks_bb(pgn::type_of(pos.piece_on(from)), from, occupied) & ~own;
    default: return 0;
  }
}

bool promotes(const pgn::Position& pos, Square from) {
  return pgn::type_of(pos.piece_on(from)) == pgn::Pawn &&
         pgn::relative_rank(pos.side_to_move(), pgn::rank_of(from)) == 6;
}

// The moves of all the side to move's pawns on `pawns` at once (a pawn about to promote counts
// four times): each kind of pawn move is one shift of the whole set. A capture is counted per
// pawn and direction, as two pawns may take on one square.
template <pgn::Color Us>
unsigned pawn_move_count(const pgn::Position& pos, Bitboard pawns) {
  constexpr Bitboard third_rank = pgn::rank_bb(Us == pgn::White ? 2 : 5);
  constexpr Bitboard seventh_rank = pgn::rank_bb(Us == pgn::White ? 6 : 1);
  const Bitboard empty = ~pos.occupied();
  Bitboard prey = pos.pieces(~Us);
  if (pos.en_passant() != pgn::NoSquare) prey |= pgn::square_bb(pos.en_passant());
  auto count = [&](Bitboard p) {
    const Bitboard single = pgn::shift_forward<Us>(p) & empty;
    const Bitboard two = pgn::shift_forward<Us>(single & third_rank) & empty;
    const Bitboard ahead = pgn::shift_forward<Us>(p);
    return unsigned(pgn::popcount(single) + pgn::popcount(two) +
                    pgn::popcount(pgn::shift_east(ahead) & prey) +
                    pgn::popcount(pgn::shift_west(ahead) & prey));
  };
  return count(pawns & ~seventh_rank) + 4 * count(pawns & seventh_rank);
}

}  // namespace

unsigned pseudo_legal_index(const pgn::Position& pos, pgn::Move m) {
  const pgn::Color us = pos.side_to_move();
  const Bitboard below = pgn::square_bb(m.from()) - 1;
  // Pieces on squares below the move's origin: all their moves come first. They are counted
  // kind by kind from the piece sets (no look at each square's piece): pawns all at once, the
  // others with one attack lookup each.
  const Bitboard pawns = pos.pieces(us, pgn::Pawn) & below;
  unsigned index = us == pgn::White ? pawn_move_count<pgn::White>(pos, pawns)
                                    : pawn_move_count<pgn::Black>(pos, pawns);
  const Bitboard free = ~pos.pieces(us), occupied = pos.occupied();
  auto count = [&](Bitboard pieces, auto attacks) {
    for (pieces &= below; pieces;)
      index += unsigned(pgn::popcount(attacks(pgn::pop_lsb(pieces)) & free));
  };
  count(pos.pieces(us, pgn::Knight), [](Square s) { return pgn::knight_attacks(s); });
  count(pos.pieces(us, pgn::Bishop, pgn::Queen),
        [&](Square s) { return pgn::bishop_attacks(s, occupied); });
  count(pos.pieces(us, pgn::Rook, pgn::Queen),
        [&](Square s) { return pgn::rook_attacks(s, occupied); });
  if (pos.pieces(us, pgn::King) & below)
    index += unsigned(pgn::popcount(targets_of(pos, pos.king_square(us))));
  const Bitboard lower = targets_of(pos, m.from()) & (pgn::square_bb(m.to()) - 1);
  if (promotes(pos, m.from()))
    index += 4 * unsigned(pgn::popcount(lower)) + unsigned(m.promotion() - pgn::Knight);
  else
    index += unsigned(pgn::popcount(lower));
  return index;
}

std::optional<pgn::Move> pseudo_legal_move_at(const pgn::Position& pos, unsigned index) {
  const pgn::Color us = pos.side_to_move();
  for (Bitboard pieces = pos.pieces(us); pieces;) {
    const Square from = pgn::pop_lsb(pieces);
    Bitboard targets = targets_of(pos, from);
    const unsigned per_target = promotes(pos, from) ? 4 : 1;
    const unsigned count = unsigned(pgn::popcount(targets)) * per_target;
    if (index >= count) {
      index -= count;
      continue;
    }
    for (unsigned skip = index / per_target; skip > 0; --skip) targets &= targets - 1;
    const Square to = pgn::lsb(targets);
    const pgn::PieceType type = pgn::type_of(pos.piece_on(from));
    if (per_target == 4)
      return pgn::Move(from, to, pgn::Move::Promotion, pgn::PieceType(pgn::Knight + index % 4));
    if (type == pgn::King && (pos.pieces(us) & pgn::square_bb(to)))
      return pgn::Move(from, to, pgn::Move::Castling);
    if (type == pgn::Pawn && to == pos.en_passant())
      return pgn::Move(from, to, pgn::Move::EnPassant);
    return pgn::Move(from, to);
  }
  return std::nullopt;
}

bool is_legal(const pgn::Position& pos, pgn::Move m) {
  if (m.kind() == pgn::Move::Castling) return pgn::legal_moves(pos).contains(m);
  const pgn::Color us = pos.side_to_move();
  const pgn::Square from = m.from(), to = m.to();
  // Their pieces that stop attacking: the one taken (on `to`, or beside it en passant).
  pgn::Bitboard taken = pgn::square_bb(to);
  pgn::Bitboard occupied = (pos.occupied() & ~pgn::square_bb(from)) | pgn::square_bb(to);
  if (m.kind() == pgn::Move::EnPassant) {
    const pgn::Bitboard pawn =
        pgn::square_bb(pgn::make_square(pgn::file_of(to), pgn::rank_of(from)));
    taken |= pawn;
    occupied &= ~pawn;
  }
  const pgn::Square king = pgn::type_of(pos.piece_on(from)) == pgn::King ? to : pos.king_square(us);
  return !(pos.attackers_to(king, occupied) & pos.pieces(~us) & ~taken);
}

}  // namespace pgndb::index
