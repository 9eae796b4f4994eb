#include "pgn/position.h"

#include <cassert>

#include "pgn/movegen.h"
#include "pgn/zobrist.h"

namespace pgn {

// The start position is set up once and copied: a position is made for every game replayed
// (and for every game whose opening a statistics count walks), and placing 32 pieces and
// computing the key each time was a fiftieth of the merge at the end of an import.
Position::Position() {
  static const Position start{Build{}};
  *this = start;
}

Position::Position(Build) {
  constexpr PieceType back_rank[8] = {Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook};
  for (int file = 0; file < 8; ++file) {
    put_piece(make_piece(White, back_rank[file]), make_square(file, 0));
    put_piece(WhitePawn, make_square(file, 1));
    put_piece(BlackPawn, make_square(file, 6));
    put_piece(make_piece(Black, back_rank[file]), make_square(file, 7));
  }
  castling_ = 0xF;
  castling_rook_ = {H1, A1, H8, A8};
  key_ = compute_key();
}

void Position::put_piece(Piece p, Square s) {
  board_[s] = p;
  by_type_[type_of(p)] |= square_bb(s);
  by_color_[color_of(p)] |= square_bb(s);
  key_ ^= zobrist::piece_square(p, s);
}

void Position::remove_piece(Square s) {
  Piece p = board_[s];
  board_[s] = NoPiece;
  by_type_[type_of(p)] ^= square_bb(s);
  by_color_[color_of(p)] ^= square_bb(s);
  key_ ^= zobrist::piece_square(p, s);
}

void Position::move_piece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard both = square_bb(from) | square_bb(to);
  board_[from] = NoPiece;
  board_[to] = p;
  by_type_[type_of(p)] ^= both;
  by_color_[color_of(p)] ^= both;
  key_ ^= zobrist::piece_square(p, from) ^ zobrist::piece_square(p, to);
}

Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
  return (pawn_attacks(White, s) & pieces(Black, Pawn)) |
         (pawn_attacks(Black, s) & pieces(White, Pawn)) | (knight_attacks(s) & by_type_[Knight]) |
         (king_attacks(s) & by_type_[King]) |
         (rook_attacks(s, occupied) & (by_type_[Rook] | by_type_[Queen])) |
         (bishop_attacks(s, occupied) & (by_type_[Bishop] | by_type_[Queen]));
}

// Sliders are found by their rays and the squares between, which stay in cache, rather than
// by the attack tables: this runs after every move of every game replayed.
void Position::update_checkers() {
  const Square ksq = king_square(side_);
  const Color them = ~side_;
  checkers_ = (pawn_attacks(side_, ksq) & pieces(them, Pawn)) |
              (knight_attacks(ksq) & pieces(them, Knight));
  Bitboard snipers = (rook_rays(ksq) & pieces(them, Rook, Queen)) |
                     (bishop_rays(ksq) & pieces(them, Bishop, Queen));
  const Bitboard occupied = this->occupied();
  while (snipers) {
    const Square s = pop_lsb(snipers);
    if (!(between_bb(ksq, s) & occupied & ~square_bb(s))) checkers_ |= square_bb(s);
  }
}

// Called with the side that made the double step still to move.
void Position::set_en_passant_if_capturable(Square target) {
  if (pawn_attacks(side_, target) & pieces(~side_, Pawn)) {
    ep_ = target;
    key_ ^= zobrist::en_passant_file(file_of(target));
  }
}

Key Position::compute_key() const {
  Key k = 0;
  for (int s = 0; s < 64; ++s)
    if (board_[s] != NoPiece) k ^= zobrist::piece_square(board_[s], Square(s));
  for (int i = 0; i < 4; ++i)
    if (castling_ & (1 << i)) k ^= zobrist::castling(i);
  if (ep_ != NoSquare) k ^= zobrist::en_passant_file(file_of(ep_));
  if (side_ == White) k ^= zobrist::white_to_move();
  return k;
}

Square Position::castling_king_destination(Move m) {
  Color c = rank_of(m.from()) == 0 ? White : Black;
  return relative_square(c, m.to() > m.from() ? G1 : C1);
}

Square Position::castling_rook_destination(Move m) {
  Color c = rank_of(m.from()) == 0 ? White : Black;
  return relative_square(c, m.to() > m.from() ? F1 : D1);
}

void Position::play(Move m) {
  assert(!m.is_none() && !m.is_null());
  const Color us = side_;
  const Square from = m.from(), to = m.to();
  const Piece piece = board_[from];
  assert(piece != NoPiece && color_of(piece) == us);

  if (ep_ != NoSquare) {
    key_ ^= zobrist::en_passant_file(file_of(ep_));
    ep_ = NoSquare;
  }
  ++halfmove_clock_;

  switch (m.kind()) {
    case Move::Castling: {
      const Piece rook = board_[to];
      remove_piece(from);
      remove_piece(to);
      put_piece(piece, castling_king_destination(m));
      put_piece(rook, castling_rook_destination(m));
      break;
    }
    case Move::EnPassant:
      remove_piece(Square(to ^ 8));  // the captured pawn stands behind the target square
      move_piece(from, to);
      halfmove_clock_ = 0;
      break;
    case Move::Promotion:
      if (board_[to] != NoPiece) remove_piece(to);
      remove_piece(from);
      put_piece(make_piece(us, m.promotion()), to);
      halfmove_clock_ = 0;
      break;
    case Move::Normal:
      if (board_[to] != NoPiece) {
        remove_piece(to);
        halfmove_clock_ = 0;
      }
      move_piece(from, to);
      if (type_of(piece) == Pawn) {
        halfmove_clock_ = 0;
        if ((from ^ to) == 16) set_en_passant_if_capturable(Square((from + to) / 2));
      }
      break;
  }

  if (castling_) {
    // A right is lost when its king moves, or when anything leaves or lands on its rook's square.
    std::uint8_t lost = type_of(piece) == King ? std::uint8_t(us == White ? 0x3 : 0xC) : 0;
    for (int i = 0; i < 4; ++i)
      if (castling_rook_[i] == from || castling_rook_[i] == to) lost |= std::uint8_t(1 << i);
    lost &= castling_;
    for (int i = 0; i < 4; ++i)
      if (lost & (1 << i)) {
        key_ ^= zobrist::castling(i);
        castling_rook_[i] = NoSquare;  // as parse_fen leaves it, so operator== agrees
      }
    castling_ &= std::uint8_t(~lost);
  }

  side_ = ~us;
  key_ ^= zobrist::white_to_move();
  if (us == Black) ++fullmove_number_;
  update_checkers();
  assert(is_consistent());
}

void Position::play_null() {
  assert(!in_check());
  if (ep_ != NoSquare) {
    key_ ^= zobrist::en_passant_file(file_of(ep_));
    ep_ = NoSquare;
  }
  ++halfmove_clock_;
  if (side_ == Black) ++fullmove_number_;
  side_ = ~side_;
  key_ ^= zobrist::white_to_move();
  update_checkers();
}

bool Position::is_consistent() const {
  if (popcount(pieces(White, King)) != 1 || popcount(pieces(Black, King)) != 1) return false;
  if (by_color_[White] & by_color_[Black]) return false;
  for (int s = 0; s < 64; ++s) {
    Piece p = board_[s];
    bool occupied_here = occupied() & square_bb(Square(s));
    if (occupied_here != (p != NoPiece)) return false;
    if (p != NoPiece && !(pieces(color_of(p), type_of(p)) & square_bb(Square(s)))) return false;
  }
  if (attackers_to(king_square(~side_)) & by_color_[side_]) return false;
  return key_ == compute_key();
}

bool Position::is_checkmate() const { return in_check() && !has_legal_move(*this); }

bool Position::is_stalemate() const { return !in_check() && !has_legal_move(*this); }

}  // namespace pgn
