// Attack tables against a square-by-square walk of the board, the ranks of a bitboard against
// a look at each square, and the 16-bit move layout.
#include <catch2/catch.hpp>

#include <random>

#include "pgn/bitboard.h"
#include "pgn/types.h"

using namespace pgn;

namespace {

Bitboard walk(Square s, Bitboard occupied, std::initializer_list<std::pair<int, int>> dirs) {
  Bitboard result = 0;
  for (auto [df, dr] : dirs) {
    for (int f = file_of(s) + df, r = rank_of(s) + dr; f >= 0 && f < 8 && r >= 0 && r < 8;
         f += df, r += dr) {
      result |= square_bb(make_square(f, r));
      if (occupied & square_bb(make_square(f, r))) break;
    }
  }
  return result;
}

}  // namespace

TEST_CASE("slider attacks equal a walk along the rays for random occupancies") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    Square s = Square(rng() % 64);
    Bitboard occupied = rng() & rng();
    INFO("square " << int(s) << " occupied " << occupied);
    REQUIRE(rook_attacks(s, occupied) == walk(s, occupied, {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}));
    REQUIRE(bishop_attacks(s, occupied) == walk(s, occupied, {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}));
  }
}

TEST_CASE("a bitboard's ranks and the bitboard of ranks equal a look at each square") {
  // Every set of ranks both ways, then random bitboards (sparse and dense) one way: a square
  // alone in its rank, on any file, sets its rank's bit.
  for (unsigned set = 0; set < 256; ++set) {
    Bitboard whole = 0;
    for (int r = 0; r < 8; ++r)
      if (set >> r & 1) whole |= rank_bb(r);
    INFO("ranks " << set);
    REQUIRE(ranks_bb(std::uint8_t(set)) == whole);
    REQUIRE(ranks_of(whole) == set);
  }
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const Bitboard b = i % 3 == 0   ? square_bb(Square(rng() % 64))
                       : i % 3 == 1 ? rng() & rng() & rng()
                                    : rng();
    unsigned expected = 0;
    for (int sq = 0; sq < 64; ++sq)
      if (b >> sq & 1) expected |= 1u << rank_of(Square(sq));
    INFO("bitboard " << b);
    REQUIRE(ranks_of(b) == expected);
  }
}

TEST_CASE("leaper and pawn attacks at the edges") {
  CHECK(knight_attacks(A1) == (square_bb(B3) | square_bb(C2)));
  CHECK(popcount(knight_attacks(D4)) == 8);
  CHECK(king_attacks(H8) == (square_bb(G8) | square_bb(G7) | square_bb(H7)));
  CHECK(pawn_attacks(White, A2) == square_bb(B3));
  CHECK(pawn_attacks(Black, H7) == square_bb(G6));
  CHECK(pawn_attacks(White, E8) == 0);
}

TEST_CASE("between and line masks") {
  CHECK(between_bb(A1, H8) == (walk(A1, square_bb(H8), {{1, 1}})));
  CHECK(between_bb(A1, A4) == (square_bb(A2) | square_bb(A3) | square_bb(A4)));
  CHECK(between_bb(A1, B3) == square_bb(B3));  // not aligned: just the target
  CHECK(line_bb(B2, C3) == walk(A1, 0, {{1, 1}}) + square_bb(A1));
  CHECK(line_bb(A1, B3) == 0);
  CHECK(aligned(A1, D4, H8));
  CHECK_FALSE(aligned(A1, D4, H7));
}

TEST_CASE("move layout round-trips every field") {
  for (int from = 0; from < 64; ++from) {
    for (int to = 0; to < 64; ++to) {
      const Move normal{Square(from), Square(to)};
      REQUIRE(normal.from() == from);
      REQUIRE(normal.to() == to);
      REQUIRE(normal.kind() == Move::Normal);
      for (PieceType pt : {Knight, Bishop, Rook, Queen}) {
        const Move promotion{Square(from), Square(to), Move::Promotion, pt};
        REQUIRE(promotion.promotion() == pt);
        REQUIRE(promotion.kind() == Move::Promotion);
        REQUIRE(Move::from_raw(promotion.raw()) == promotion);
      }
    }
  }
  CHECK(Move::none().is_none());
  CHECK(Move::null().is_null());
  CHECK_FALSE(Move(E1, H1, Move::Castling).is_null());
}
