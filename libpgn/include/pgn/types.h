// Plain value types every other libpgn header builds on: colours, pieces, squares, moves.
#pragma once

#include <cstdint>

namespace pgn {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

enum Color : std::uint8_t { White, Black };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t { NoPieceType, Pawn, Knight, Bishop, Rook, Queen, King };

// A piece is its colour in bit 3 and its type in bits 0-2, so NoPiece is 0.
enum Piece : std::uint8_t {
  NoPiece,
  WhitePawn = Pawn,
  WhiteKnight,
  WhiteBishop,
  WhiteRook,
  WhiteQueen,
  WhiteKing,
  BlackPawn = Pawn + 8,
  BlackKnight,
  BlackBishop,
  BlackRook,
  BlackQueen,
  BlackKing,
};
constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// Squares count from a1 = 0 along the rank: b1 = 1, ..., h8 = 63.
enum Square : std::uint8_t {
  // clang-format off
  A1, B1, C1, D1, E1, F1, G1, H1,
  A2, B2, C2, D2, E2, F2, G2, H2,
  A3, B3, C3, D3, E3, F3, G3, H3,
  A4, B4, C4, D4, E4, F4, G4, H4,
  A5, B5, C5, D5, E5, F5, G5, H5,
  A6, B6, C6, D6, E6, F6, G6, H6,
  A7, B7, C7, D7, E7, F7, G7, H7,
  A8, B8, C8, D8, E8, F8, G8, H8,
  // clang-format on
  NoSquare = 64
};
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
// The same square seen from `c`'s side of the board (a1 <-> a8 for Black).
constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c * 56)); }
constexpr int relative_rank(Color c, int rank) { return rank ^ (c * 7); }
constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }

// Castling rights: one bit per colour and side. The rook each right refers to is stored in the
// position, so Chess960 needs no special case.
enum CastlingSide : std::uint8_t { KingSide, QueenSide };
constexpr int castling_index(Color c, CastlingSide side) { return c * 2 + side; }
constexpr std::uint8_t castling_bit(Color c, CastlingSide side) {
  return std::uint8_t(1u << castling_index(c, side));
}

// A move in 16 bits:
//   bits  0-5   origin square
//   bits  6-11  destination square
//   bits 12-13  promotion piece type minus Knight (Knight, Bishop, Rook, Queen)
//   bits 14-15  kind: normal, promotion, en passant, castling
// Castling is written as the king capturing its own rook (destination = the rook's square), so
// every Chess960 castling is one unambiguous move. Move::none() (all zero, a1a1) is "no move";
// Move::null() (b1b1) is the null move of PGN's `--` / `Z0`. Neither is ever generated.
class Move {
 public:
  enum Kind : std::uint16_t {
    Normal = 0,
    Promotion = 1 << 14,
    EnPassant = 2 << 14,
    Castling = 3 << 14
  };

  // Uninitialised, like a built-in integer, so that a MoveList costs nothing to create.
  Move() = default;
  constexpr Move(Square from, Square to) : data_(std::uint16_t(from | (to << 6))) {}
  constexpr Move(Square from, Square to, Kind kind, PieceType promotion = Knight)
      : data_(std::uint16_t(from | (to << 6) | ((promotion - Knight) << 12) | kind)) {}

  static constexpr Move none() { return from_raw(0); }
  static constexpr Move null() { return Move(B1, B1); }

  constexpr Square from() const { return Square(data_ & 63); }
  constexpr Square to() const { return Square((data_ >> 6) & 63); }
  constexpr Kind kind() const { return Kind(data_ & (3 << 14)); }
  constexpr PieceType promotion() const { return PieceType(((data_ >> 12) & 3) + Knight); }
  constexpr bool is_null() const { return *this == null(); }
  constexpr bool is_none() const { return data_ == 0; }
  constexpr std::uint16_t raw() const { return data_; }
  static constexpr Move from_raw(std::uint16_t raw) {
    Move m{};
    m.data_ = raw;
    return m;
  }

  constexpr bool operator==(const Move&) const = default;

 private:
  std::uint16_t data_;
};

}  // namespace pgn
