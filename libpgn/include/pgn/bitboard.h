// Bitboard helpers and attack tables. Bit i of a Bitboard is square i (a1 = bit 0, h8 = bit 63).
#pragma once

#include <bit>
#include <cassert>

#include "pgn/types.h"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace pgn {

constexpr Bitboard FileABB = 0x0101010101010101ULL;
constexpr Bitboard FileHBB = FileABB << 7;
constexpr Bitboard Rank1BB = 0xFFULL;
constexpr Bitboard rank_bb(int rank) { return Rank1BB << (8 * rank); }
constexpr Bitboard file_bb(int file) { return FileABB << file; }

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) {
  assert(b);
  return Square(std::countr_zero(b));
}
inline Square msb(Bitboard b) {
  assert(b);
  return Square(63 - std::countl_zero(b));
}
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
inline bool more_than_one(Bitboard b) { return b & (b - 1); }

// The ranks of a bitboard as 8 bits (bit r: a square of rank r is set), and back: the whole ranks
// of those bits. Byte-parallel: a pattern search reads a material history's rooks' ranks so for
// each game it might replay.
constexpr Bitboard nonzero_bytes(Bitboard b) {  // 0x80 in each byte of b that is not 0
  constexpr Bitboard low7 = 0x7F7F7F7F7F7F7F7FULL;
  return (((b & low7) + low7) | b) & ~low7;
}
constexpr std::uint8_t ranks_of(Bitboard b) {
  return std::uint8_t((nonzero_bytes(b) >> 7) * 0x0102040810204080ULL >> 56);
}
constexpr Bitboard ranks_bb(std::uint8_t ranks) {
  return (nonzero_bytes(ranks * FileABB & 0x8040201008040201ULL) >> 7) * 0xFF;
}

// Shifts that drop what falls off the board's edge. `north` is towards rank 8.
constexpr Bitboard shift_north(Bitboard b) { return b << 8; }
constexpr Bitboard shift_south(Bitboard b) { return b >> 8; }
constexpr Bitboard shift_east(Bitboard b) { return (b & ~FileHBB) << 1; }
constexpr Bitboard shift_west(Bitboard b) { return (b & ~FileABB) >> 1; }
template <Color C>
constexpr Bitboard shift_forward(Bitboard b) {
  return C == White ? shift_north(b) : shift_south(b);
}
// Squares attacked by pawns of colour C standing on `b`.
template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard b) {
  Bitboard f = shift_forward<C>(b);
  return shift_east(f) | shift_west(f);
}

namespace detail {
// One entry per square for the sliding pieces: the relevant-occupancy mask, the table slice,
// and (without BMI2) the magic multiplier and shift that index it.
struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* attacks;
  unsigned shift;

  unsigned index(Bitboard occupied) const {
#if defined(__BMI2__)
    return unsigned(_pext_u64(occupied, mask));
#else
    return unsigned(((occupied & mask) * magic) >> shift);
#endif
  }
};
// Constant data written at build time by libpgn/tools/make_attack_tables.cpp.
extern const Magic rook_magics[64];
extern const Magic bishop_magics[64];
extern const Bitboard knight_table[64];
extern const Bitboard king_table[64];
extern const Bitboard pawn_table[2][64];
extern const Bitboard between_table[64][64];
extern const Bitboard rook_rays[64];
extern const Bitboard bishop_rays[64];
extern const Bitboard line_table[64][64];
}  // namespace detail

inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const auto& m = detail::rook_magics[s];
  return m.attacks[m.index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const auto& m = detail::bishop_magics[s];
  return m.attacks[m.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
// Slider attacks on an empty board: 1 KB in all, always in cache. With between_bb() they tell
// whether one known slider reaches a square without touching the large attack tables.
inline Bitboard rook_rays(Square s) { return detail::rook_rays[s]; }
inline Bitboard bishop_rays(Square s) { return detail::bishop_rays[s]; }
inline Bitboard knight_attacks(Square s) { return detail::knight_table[s]; }
inline Bitboard king_attacks(Square s) { return detail::king_table[s]; }
inline Bitboard pawn_attacks(Color c, Square s) { return detail::pawn_table[c][s]; }
// Squares strictly between a and b on a rank, file or diagonal, plus b itself; just b when the
// two are not aligned. Including b makes "block or capture the checker" a single mask.
inline Bitboard between_bb(Square a, Square b) { return detail::between_table[a][b]; }
// The whole line through a and b (edge to edge), or 0 when they are not aligned.
inline Bitboard line_bb(Square a, Square b) { return detail::line_table[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line_bb(a, b) & square_bb(c); }

// Attacks of a piece of type pt (not Pawn) on s.
inline Bitboard attacks_bb(PieceType pt, Square s, Bitboard occupied) {
  switch (pt) {
    case Knight: return knight_attacks(s);
    case Bishop: return bishop_attacks(s, occupied);
    case Rook: return rook_attacks(s, occupied);
    case Queen: return queen_attacks(s, occupied);
    case King: return king_attacks(s);
    case Pawn:
    case NoPieceType: break;
  }
  assert(false);
  return 0;
}

}  // namespace pgn
