#include "move_index.h"

#include <array>

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

namespace {

// The move `index` among those of the piece on `from`, whose targets are `targets`; `index` is
// below their number.
pgn::Move move_from(const pgn::Position& pos, Square from, Bitboard targets, unsigned index) {
  const unsigned per_target = promotes(pos, from) ? 4 : 1;
  for (unsigned skip = index / per_target; skip > 0; --skip) targets &= targets - 1;
  const Square to = pgn::lsb(targets);
  const pgn::PieceType type = pgn::type_of(pos.piece_on(from));
  if (per_target == 4)
    return pgn::Move(from, to, pgn::Move::Promotion, pgn::PieceType(pgn::Knight + index % 4));
  if (type == pgn::King && (pos.pieces(pos.side_to_move()) & pgn::square_bb(to)))
    return pgn::Move(from, to, pgn::Move::Castling);
  if (type == pgn::Pawn && to == pos.en_passant()) return pgn::Move(from, to, pgn::Move::EnPassant);
  return pgn::Move(from, to);
}

// The pawns' moves are counted in bulk, as pseudo_legal_index counts them: between two of the
// other pieces (a handful), the pawns there are skipped with a few popcounts rather than one
// target lookup each. Finding moves is most of replaying a stored game.
template <pgn::Color Us>
pgn::Move move_at(const pgn::Position& pos, unsigned index) {
  constexpr pgn::Color them = Us == pgn::White ? pgn::Black : pgn::White;
  constexpr Bitboard second_rank = pgn::rank_bb(Us == pgn::White ? 1 : 6);
  constexpr Bitboard seventh_rank = pgn::rank_bb(Us == pgn::White ? 6 : 1);
  const auto back = [](Bitboard b) { return pgn::shift_forward<them>(b); };
  const Bitboard own = pos.pieces(Us), occupied = pos.occupied(), empty = ~occupied;
  const Bitboard pawns = pos.pieces(Us, pgn::Pawn);
  Bitboard prey = pos.pieces(them);
  if (pos.en_passant() != pgn::NoSquare) prey |= pgn::square_bb(pos.en_passant());
  // The pawns (on their squares) that can push once, push twice, take east, take west.
  const Bitboard push = pawns & back(empty);
  const Bitboard twice = push & second_rank & back(back(empty));
  const Bitboard east = pawns & back(pgn::shift_west(prey));
  const Bitboard west = pawns & back(pgn::shift_east(prey));
  // A pawn about to promote makes four moves of each: the three more counted apart, only in the
  // rare positions with one.
  const bool promotions = pawns & seventh_rank;
  const auto pawn_moves = [&](Bitboard squares) {
    const auto n = [&](Bitboard b) { return unsigned(pgn::popcount(b & squares)); };
    const unsigned moves = n(push) + n(twice) + n(east) + n(west);
    if (!promotions) return moves;
    const Bitboard promoting = squares & seventh_rank;
    const auto p = [&](Bitboard b) { return unsigned(pgn::popcount(b & promoting)); };
    return moves + 3 * (p(push) + p(east) + p(west));
  };
  // Each other piece's number of moves, kind by kind: the lookups do not wait on one another,
  // nor on a branch on each piece's kind.
  std::array<std::uint8_t, 64> counts;
  const auto count_all = [&](Bitboard pieces, auto attacks) {
    while (pieces) {
      const Square s = pgn::pop_lsb(pieces);
      counts[s] = std::uint8_t(pgn::popcount(attacks(s) & ~own));
    }
  };
  count_all(pos.pieces(Us, pgn::Knight), [](Square s) { return pgn::knight_attacks(s); });
  count_all(pos.pieces(Us, pgn::Bishop),
            [&](Square s) { return pgn::bishop_attacks(s, occupied); });
  count_all(pos.pieces(Us, pgn::Rook), [&](Square s) { return pgn::rook_attacks(s, occupied); });
  count_all(pos.pieces(Us, pgn::Queen), [&](Square s) {
    return pgn::bishop_attacks(s, occupied) | pgn::rook_attacks(s, occupied);
  });
  // The king's moves, and one more for each castling right (the king takes its own rook).
  const Square king = pos.king_square(Us);
  counts[king] =
      std::uint8_t(pgn::popcount(pgn::king_attacks(king) & ~own) +
                   pos.can_castle(Us, pgn::KingSide) + pos.can_castle(Us, pgn::QueenSide));
  Bitboard counted = 0;  // the squares whose pieces' moves are behind `index`
  for (Bitboard pieces = own & ~pawns;;) {
    // The pawns below the next other piece (or all those left).
    const Square from = pieces ? pgn::lsb(pieces) : pgn::NoSquare;
    const Bitboard below = (pieces ? pgn::square_bb(from) - 1 : ~Bitboard(0)) & ~counted;
    if (pawns & below) {
      const unsigned n = pawn_moves(below);
      if (index < n) {
        // The pawn among these whose moves hold `index`, each counted from the sets above.
        for (Bitboard among = pawns & below; among;) {
          const Square pawn = pgn::pop_lsb(among);
          const Bitboard bit = pgn::square_bb(pawn);
          const unsigned moves =
              unsigned(bool(push & bit) + bool(twice & bit) + bool(east & bit) + bool(west & bit)) *
              (bit & seventh_rank ? 4 : 1);
          if (index < moves) return move_from(pos, pawn, targets_of(pos, pawn), index);
          index -= moves;
        }
        return pgn::Move::none();  // (not reached: the pawns' moves are n)
      }
      index -= n;
    }
    if (!pieces) return pgn::Move::none();
    pieces &= pieces - 1;
    counted |= below | pgn::square_bb(from);
    const unsigned count = counts[from];
    if (index < count) return move_from(pos, from, targets_of(pos, from), index);
    index -= count;
  }
}

}  // namespace

pgn::Move pseudo_legal_move_at(const pgn::Position& pos, unsigned index) {
  return pos.side_to_move() == pgn::White ? move_at<pgn::White>(pos, index)
                                          : move_at<pgn::Black>(pos, index);
}

bool is_legal(const pgn::Position& pos, pgn::Move m) {
  const pgn::Color us = pos.side_to_move();
  if (m.kind() == pgn::Move::Castling) {
    // The king takes its own rook (Chess960 too). Legal when the king is not in check, the
    // squares both cross or land on are empty but for the two of them, and no square the king
    // stands on, crosses or lands on is attacked with both gone (so that a slider behind the
    // rook counts). The legal move generator answered this at a game's every castling, a few
    // percent of a pattern search's replay.
    if (pos.in_check()) return false;
    const Square king = m.from(), rook = m.to();
    const Square king_to = pgn::Position::castling_king_destination(m);
    const Square rook_to = pgn::Position::castling_rook_destination(m);
    const Bitboard movers = pgn::square_bb(king) | pgn::square_bb(rook);
    const Bitboard occupied = pos.occupied() & ~movers;
    if ((pgn::between_bb(king, king_to) | pgn::between_bb(rook, rook_to)) & occupied) return false;
    for (Bitboard path = pgn::between_bb(king, king_to) | pgn::square_bb(king_to); path;)
      if (pos.attackers_to(pgn::pop_lsb(path), occupied) & pos.pieces(~us)) return false;
    return true;
  }
  const pgn::Square from = m.from(), to = m.to();
  const bool king_moves = pgn::type_of(pos.piece_on(from)) == pgn::King;
  // Out of check, a piece (not the king) that moves, not en passant (two pawns leave a rank),
  // can only uncover a slider on the line from its king through its square: none when the
  // square is on no such line (most moves), else one attack lookup of that line's kind, not
  // every kind of attacker.
  if (!king_moves && !pos.in_check() && m.kind() != pgn::Move::EnPassant) {
    const pgn::Square own_king = pos.king_square(us);
    const pgn::Bitboard from_bb = pgn::square_bb(from), to_bb = pgn::square_bb(to);
    const bool straight = pgn::rook_rays(own_king) & from_bb;
    if (!straight && !(pgn::bishop_rays(own_king) & from_bb)) return true;
    const pgn::Bitboard occupied = (pos.occupied() & ~from_bb) | to_bb;
    const pgn::Bitboard uncovered =
        straight
            ? pgn::rook_attacks(own_king, occupied) & pos.pieces(~us, pgn::Rook, pgn::Queen)
            : pgn::bishop_attacks(own_king, occupied) & pos.pieces(~us, pgn::Bishop, pgn::Queen);
    return !(uncovered & ~to_bb);
  }
  // Their pieces that stop attacking: the one taken (on `to`, or beside it en passant).
  pgn::Bitboard taken = pgn::square_bb(to);
  pgn::Bitboard occupied = (pos.occupied() & ~pgn::square_bb(from)) | pgn::square_bb(to);
  if (m.kind() == pgn::Move::EnPassant) {
    const pgn::Bitboard pawn =
        pgn::square_bb(pgn::make_square(pgn::file_of(to), pgn::rank_of(from)));
    taken |= pawn;
    occupied &= ~pawn;
  }
  const pgn::Square king = king_moves ? to : pos.king_square(us);
  return !(pos.attackers_to(king, occupied) & pos.pieces(~us) & ~taken);
}

}  // namespace pgndb::index
