#include "pgn/movegen.h"

#include <algorithm>
#include <initializer_list>

#include "pgn/bitboard.h"

namespace pgn {

namespace {

// The generator reports moves to a sink, so that one piece of code both lists moves and counts
// them: the counting sink adds popcounts and never builds a move.
struct ListSink {
  MoveList& list;

  void piece_moves(Square from, Bitboard targets) {
    while (targets) list.push_back(Move(from, pop_lsb(targets)));
  }
  // `offset` is to - from for every move in `targets`.
  void pawn_moves(Bitboard targets, int offset) {
    while (targets) {
      Square to = pop_lsb(targets);
      list.push_back(Move(Square(to - offset), to));
    }
  }
  void promotions(Bitboard targets, int offset) {
    while (targets) {
      Square to = pop_lsb(targets);
      Square from = Square(to - offset);
      for (PieceType pt : {Queen, Rook, Bishop, Knight})
        list.push_back(Move(from, to, Move::Promotion, pt));
    }
  }
  void move(Move m) { list.push_back(m); }
};

struct CountSink {
  int count = 0;

  void piece_moves(Square, Bitboard targets) { count += popcount(targets); }
  void pawn_moves(Bitboard targets, int) { count += popcount(targets); }
  void promotions(Bitboard targets, int) { count += 4 * popcount(targets); }
  void move(Move) { ++count; }
};

// Stops at the first move found.
struct AnySink {
  bool found = false;

  void piece_moves(Square, Bitboard targets) { found |= targets != 0; }
  void pawn_moves(Bitboard targets, int) { found |= targets != 0; }
  void promotions(Bitboard targets, int) { found |= targets != 0; }
  void move(Move) { found = true; }
};

template <Color Them>
Bitboard attackers_of_color(const Position& pos, Square s, Bitboard occupied) {
  return ((pawn_attacks(~Them, s) & pos.pieces(Them, Pawn)) |
          (knight_attacks(s) & pos.pieces(Them, Knight)) |
          (king_attacks(s) & pos.pieces(Them, King)) |
          (bishop_attacks(s, occupied) & pos.pieces(Them, Bishop, Queen)) |
          (rook_attacks(s, occupied) & pos.pieces(Them, Rook, Queen)));
}

// Pieces of the side to move that stand alone between their king and an enemy slider.
template <Color Us>
Bitboard pinned_pieces(const Position& pos, Square ksq, Bitboard occupied) {
  constexpr Color Them = ~Us;
  Bitboard snipers = (rook_attacks(ksq, 0) & pos.pieces(Them, Rook, Queen)) |
                     (bishop_attacks(ksq, 0) & pos.pieces(Them, Bishop, Queen));
  Bitboard pinned = 0;
  while (snipers) {
    Square s = pop_lsb(snipers);
    Bitboard blockers = between_bb(ksq, s) & occupied & ~square_bb(s);
    if (blockers && !more_than_one(blockers)) pinned |= blockers & pos.pieces(Us);
  }
  return pinned;
}

template <Color Us, class Sink>
void generate_pawn_moves(const Position& pos, Sink& sink, Bitboard target, Bitboard pinned,
                         Square ksq) {
  constexpr Color Them = ~Us;
  constexpr int Up = Us == White ? 8 : -8;
  constexpr Bitboard rank7 = rank_bb(relative_rank(Us, 6));
  constexpr Bitboard rank3 = rank_bb(relative_rank(Us, 2));
  const Bitboard occupied = pos.occupied();
  const Bitboard empty = ~occupied;
  const Bitboard enemies = pos.pieces(Them);
  const Bitboard pawns = pos.pieces(Us, Pawn);

  // Pawns that are not pinned, in bulk.
  const Bitboard free_pawns = pawns & ~pinned;
  {
    Bitboard p = free_pawns & ~rank7;
    Bitboard single = shift_forward<Us>(p) & empty;
    Bitboard dbl = shift_forward<Us>(single & rank3) & empty;
    sink.pawn_moves(single & target, Up);
    sink.pawn_moves(dbl & target, 2 * Up);
    Bitboard f = shift_forward<Us>(p);
    sink.pawn_moves(shift_east(f) & enemies & target, Up + 1);
    sink.pawn_moves(shift_west(f) & enemies & target, Up - 1);
  }
  if (Bitboard p = free_pawns & rank7) {
    Bitboard f = shift_forward<Us>(p);
    sink.promotions(f & empty & target, Up);
    sink.promotions(shift_east(f) & enemies & target, Up + 1);
    sink.promotions(shift_west(f) & enemies & target, Up - 1);
  }

  // Pinned pawns move only along the pin line.
  Bitboard pinned_pawns = pawns & pinned;
  while (pinned_pawns) {
    Square from = pop_lsb(pinned_pawns);
    Bitboard allowed = target & line_bb(ksq, from);
    Bitboard to = pawn_attacks(Us, from) & enemies;
    Bitboard push = shift_forward<Us>(square_bb(from)) & empty;
    to |= push | (shift_forward<Us>(push & rank3) & empty);
    to &= allowed;
    if (square_bb(from) & rank7) {
      while (to) {
        Square t = pop_lsb(to);
        sink.promotions(square_bb(t), t - from);
      }
    } else {
      while (to) {
        Square t = pop_lsb(to);
        sink.pawn_moves(square_bb(t), t - from);
      }
    }
  }

  // En passant: simulate the capture, since removing two pawns from a rank can expose the king.
  const Square ep = pos.en_passant();
  if (ep == NoSquare) return;
  const Square captured = Square(ep ^ 8);
  // Evasions: the capture must take the checker or block the check.
  if (!(target & (square_bb(ep) | square_bb(captured)))) return;
  Bitboard capturers = pawn_attacks(Them, ep) & pawns;
  while (capturers) {
    Square from = pop_lsb(capturers);
    Bitboard occ_after = (occupied ^ square_bb(from) ^ square_bb(captured)) | square_bb(ep);
    bool exposed = (rook_attacks(ksq, occ_after) & pos.pieces(Them, Rook, Queen)) ||
                   (bishop_attacks(ksq, occ_after) & pos.pieces(Them, Bishop, Queen));
    // A knight's check is not answered by taking a pawn.
    bool other_check = pos.checkers() & ~square_bb(captured) & pos.pieces(Them, Knight);
    if (!exposed && !other_check) sink.move(Move(from, ep, Move::EnPassant));
  }
}

template <Color Us, class Sink>
void generate_castling(const Position& pos, Sink& sink, Square ksq) {
  constexpr Color Them = ~Us;
  const Bitboard occupied = pos.occupied();
  for (CastlingSide side : {KingSide, QueenSide}) {
    if (!pos.can_castle(Us, side)) continue;
    const Square rsq = pos.castling_rook(Us, side);
    const Square kdst = relative_square(Us, side == KingSide ? G1 : C1);
    const Square rdst = relative_square(Us, side == KingSide ? F1 : D1);
    const Bitboard movers = square_bb(ksq) | square_bb(rsq);
    // Every square either piece crosses or lands on must be empty, but for the two themselves.
    if ((between_bb(ksq, kdst) | between_bb(rsq, rdst)) & occupied & ~movers) continue;
    // The king may not pass through or land on an attacked square. Looking through both movers
    // finds the Chess960 cases where the castling rook itself was shielding the king's square.
    const Bitboard occ_after = occupied ^ movers;
    Bitboard path = between_bb(ksq, kdst);
    bool attacked = false;
    while (path && !attacked) attacked = attackers_of_color<Them>(pos, pop_lsb(path), occ_after);
    if (!attacked) sink.move(Move(ksq, rsq, Move::Castling));
  }
}

template <Color Us, class Sink>
void generate(const Position& pos, Sink& sink) {
  constexpr Color Them = ~Us;
  const Square ksq = pos.king_square(Us);
  const Bitboard us_bb = pos.pieces(Us);
  const Bitboard occupied = pos.occupied();
  const Bitboard checkers = pos.checkers();

  // King: every target square is tested with the king lifted off the board, so that it cannot
  // step back along the line of a slider that checks it.
  {
    Bitboard candidates = king_attacks(ksq) & ~us_bb;
    Bitboard legal = 0;
    const Bitboard occ_without_king = occupied ^ square_bb(ksq);
    while (candidates) {
      Square to = pop_lsb(candidates);
      if (!attackers_of_color<Them>(pos, to, occ_without_king)) legal |= square_bb(to);
    }
    sink.piece_moves(ksq, legal);
  }
  if (more_than_one(checkers)) return;

  // Squares the other pieces may go to: anywhere but their own pieces, and when in check only
  // onto the checker or between it and the king.
  Bitboard target = ~us_bb;
  if (checkers) target &= between_bb(ksq, lsb(checkers));
  const Bitboard pinned = pinned_pieces<Us>(pos, ksq, occupied);

  generate_pawn_moves<Us>(pos, sink, target, pinned, ksq);

  for (Bitboard b = pos.pieces(Us, Knight) & ~pinned; b;) {
    Square from = pop_lsb(b);
    sink.piece_moves(from, knight_attacks(from) & target);
  }
  for (Bitboard b = pos.pieces(Us, Bishop, Queen); b;) {
    Square from = pop_lsb(b);
    Bitboard to = bishop_attacks(from, occupied) & target;
    if (pinned & square_bb(from)) to &= line_bb(ksq, from);
    sink.piece_moves(from, to);
  }
  for (Bitboard b = pos.pieces(Us, Rook, Queen); b;) {
    Square from = pop_lsb(b);
    Bitboard to = rook_attacks(from, occupied) & target;
    if (pinned & square_bb(from)) to &= line_bb(ksq, from);
    sink.piece_moves(from, to);
  }

  if (!checkers && pos.castling_rights()) generate_castling<Us>(pos, sink, ksq);
}

template <class Sink>
void generate(const Position& pos, Sink& sink) {
  if (pos.side_to_move() == White)
    generate<White>(pos, sink);
  else
    generate<Black>(pos, sink);
}

}  // namespace

bool MoveList::contains(Move m) const { return std::find(begin(), end(), m) != end(); }

void generate_legal_moves(const Position& pos, MoveList& list) {
  list.clear();
  ListSink sink{list};
  generate(pos, sink);
}

int count_legal_moves(const Position& pos) {
  CountSink sink;
  generate(pos, sink);
  return sink.count;
}

bool has_legal_move(const Position& pos) {
  AnySink sink;
  generate(pos, sink);
  return sink.found;
}

bool has_legal_en_passant(const Position& pos) {
  const Square ep = pos.en_passant();
  if (ep == NoSquare) return false;
  const Color us = pos.side_to_move(), them = ~us;
  const Square captured = Square(ep ^ 8);
  const Square ksq = pos.king_square(us);
  // A capture is legal when, with both pawns moved, nothing of theirs but the taken pawn
  // attacks the king: this covers checks, pins and the two pawns leaving one rank together.
  for (Bitboard capturers = pawn_attacks(them, ep) & pos.pieces(us, Pawn); capturers;) {
    const Square from = pop_lsb(capturers);
    const Bitboard occ_after =
        (pos.occupied() ^ square_bb(from) ^ square_bb(captured)) | square_bb(ep);
    if (!(pos.attackers_to(ksq, occ_after) & pos.pieces(them) & ~square_bb(captured))) return true;
  }
  return false;
}

}  // namespace pgn
