#include "pgn/bitboard.h"

#include <initializer_list>

namespace pgn::detail {

Magic rook_magics[64];
Magic bishop_magics[64];
Bitboard knight_table[64];
Bitboard king_table[64];
Bitboard pawn_table[2][64];
Bitboard between_table[64][64];
Bitboard line_table[64][64];
Bitboard rook_rays[64];
Bitboard bishop_rays[64];

namespace {

// 102,400 rook and 5,248 bishop entries: the sizes of the "fancy" layout, where each square's
// slice holds 2^(relevant bits) entries.
Bitboard rook_table[0x19000];
Bitboard bishop_table[0x1480];

constexpr int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

// Ray attacks by walking the board: slow, used only to fill the tables.
Bitboard slow_attacks(const int (&dirs)[4][2], Square s, Bitboard occupied) {
  Bitboard attacks = 0;
  for (const auto& d : dirs) {
    int f = file_of(s) + d[0], r = rank_of(s) + d[1];
    while (on_board(f, r)) {
      Square t = make_square(f, r);
      attacks |= square_bb(t);
      if (occupied & square_bb(t)) break;
      f += d[0];
      r += d[1];
    }
  }
  return attacks;
}

Bitboard step_attacks(Square s, const int (&steps)[8][2]) {
  Bitboard b = 0;
  for (const auto& d : steps) {
    int f = file_of(s) + d[0], r = rank_of(s) + d[1];
    if (on_board(f, r)) b |= square_bb(make_square(f, r));
  }
  return b;
}

// xorshift64*: deterministic, so the magics (and the table layout) are the same on every run.
struct Prng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  std::uint64_t sparse() { return next() & next() & next(); }
};

void init_sliders(Magic (&magics)[64], Bitboard* table, const int (&dirs)[4][2]) {
  Bitboard occupancy[4096], reference[4096];
  int epoch[4096] = {}, attempt = 0;
  Prng prng{0x9E3779B97F4A7C15ULL};
  Bitboard* slice = table;
  // Each direction's ray from each square on an empty board, and whether the direction goes
  // up the square numbers: the first blocker is then the ray's lowest occupied square, else its
  // highest. Filling the 107,648 entries from these takes a fraction of walking the board for
  // each, which mattered: the tables are filled at every start of the program.
  Bitboard rays[4][64];
  bool up[4];
  for (int d = 0; d < 4; ++d) {
    const int df = dirs[d][0], dr = dirs[d][1];
    up[d] = df + 8 * dr > 0;
    for (int sq = 0; sq < 64; ++sq) {
      Bitboard ray = 0;
      for (int f = file_of(Square(sq)) + df, r = rank_of(Square(sq)) + dr; on_board(f, r);
           f += df, r += dr)
        ray |= square_bb(make_square(f, r));
      rays[d][sq] = ray;
    }
  }
  auto attacks = [&](int sq, Bitboard occupied) {
    Bitboard all = 0;
    for (int d = 0; d < 4; ++d) {
      Bitboard ray = rays[d][sq];
      if (const Bitboard blockers = ray & occupied) {
        const Square first = up[d] ? lsb(blockers) : msb(blockers);
        ray &= ~rays[d][first];
      }
      all |= ray;
    }
    return all;
  };
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    // The edges never matter to the attack set, unless the piece stands on them.
    Bitboard edges = ((rank_bb(0) | rank_bb(7)) & ~rank_bb(rank_of(s))) |
                     ((file_bb(0) | file_bb(7)) & ~file_bb(file_of(s)));
    Magic& m = magics[sq];
    m.mask = slow_attacks(dirs, s, 0) & ~edges;
    m.shift = unsigned(64 - popcount(m.mask));
    m.attacks = slice;

    // Enumerate every subset of the mask (Carry-Rippler) with its attack set.
    int size = 0;
    Bitboard b = 0;
    do {
      occupancy[size] = b;
      reference[size] = attacks(sq, b);
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);
    slice += size;

#if defined(__BMI2__)
    m.magic = 0;
    for (int i = 0; i < size; ++i)
      const_cast<Bitboard*>(m.attacks)[m.index(occupancy[i])] = reference[i];
#else
    // Find a multiplier that maps every subset to a slot without a harmful collision.
    for (;;) {
      do m.magic = prng.sparse();
      while (popcount((m.magic * m.mask) >> 56) < 6);
      ++attempt;
      bool ok = true;
      for (int i = 0; i < size && ok; ++i) {
        unsigned idx = m.index(occupancy[i]);
        Bitboard* entry = const_cast<Bitboard*>(m.attacks) + idx;
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          *entry = reference[i];
        } else if (*entry != reference[i]) {
          ok = false;
        }
      }
      if (ok) break;
    }
#endif
  }
  (void)attempt;
  (void)epoch;
  (void)prng;
}

constexpr int knight_steps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                    {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int king_steps[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                  {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

struct TableInit {
  TableInit() {
    for (int sq = 0; sq < 64; ++sq) {
      Square s = Square(sq);
      knight_table[sq] = step_attacks(s, knight_steps);
      king_table[sq] = step_attacks(s, king_steps);
      pawn_table[White][sq] = pawn_attacks_bb<White>(square_bb(s));
      pawn_table[Black][sq] = pawn_attacks_bb<Black>(square_bb(s));
      rook_rays[sq] = slow_attacks(rook_dirs, s, 0);
      bishop_rays[sq] = slow_attacks(bishop_dirs, s, 0);
    }
    init_sliders(rook_magics, rook_table, rook_dirs);
    init_sliders(bishop_magics, bishop_table, bishop_dirs);

    for (int a = 0; a < 64; ++a) {
      for (int b = 0; b < 64; ++b) {
        Square sa = Square(a), sb = Square(b);
        between_table[a][b] = square_bb(sb);
        line_table[a][b] = 0;
        if (a == b) continue;
        for (const auto* dirs : {&bishop_dirs, &rook_dirs}) {
          Bitboard from_a = slow_attacks(*dirs, sa, 0);
          if (!(from_a & square_bb(sb))) continue;
          Bitboard from_b = slow_attacks(*dirs, sb, 0);
          line_table[a][b] = (from_a & from_b) | square_bb(sa) | square_bb(sb);
          between_table[a][b] =
              (slow_attacks(*dirs, sa, square_bb(sb)) & slow_attacks(*dirs, sb, square_bb(sa))) |
              square_bb(sb);
        }
      }
    }
  }
};

// The tables are filled before main(); nothing in libpgn runs at static-initialisation time
// that needs them.
const TableInit table_init;

}  // namespace
}  // namespace pgn::detail
