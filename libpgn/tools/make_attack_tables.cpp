// Writes libpgn's attack tables as C++ source (the build runs it; see libpgn/CMakeLists.txt).
//
// The tables were filled at every start of the program: about 3 ms of CPU and 240 fresh pages
// (860 KB of slider attacks) before main(), a tenth of a `pgndb find`, most of `pgndb --help`.
// As constant data they are part of the executable: nothing is computed at start, and a command
// only reads the pages of the entries it uses, from the page cache.
//
// Built with libpgn's own -march: with BMI2 the slider entries are indexed by PEXT of the
// occupancy (no magic numbers); without it, by magic multipliers searched here with a fixed
// seed. The generated file refuses to compile where that choice differs.
//
// Usage: make_attack_tables OUTPUT.cpp
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "pgn/bitboard.h"

namespace {

using namespace pgn;
using pgn::detail::Magic;

constexpr int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
constexpr int knight_steps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                    {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int king_steps[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                  {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

// Ray attacks by walking the board.
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

// xorshift64*: deterministic, so the magics (and the table layout) are the same on every build.
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

// One slider's 64 squares: each square's mask, multiplier, shift and the offset of its slice in
// `table` (the "fancy" layout: 2^(relevant bits) entries a square).
struct Slider {
  Magic magics[64];
  std::size_t offsets[64];
  std::vector<Bitboard> table;
};

Slider make_slider(const int (&dirs)[4][2]) {
  Slider out;
  std::vector<Bitboard> occupancy(4096), reference(4096);
  std::vector<int> epoch(4096, 0);
  int attempt = 0;
  Prng prng{0x9E3779B97F4A7C15ULL};
  for (int sq = 0; sq < 64; ++sq) {
    const Square s = Square(sq);
    // The edges never matter to the attack set, unless the piece stands on them.
    const Bitboard edges = ((rank_bb(0) | rank_bb(7)) & ~rank_bb(rank_of(s))) |
                           ((file_bb(0) | file_bb(7)) & ~file_bb(file_of(s)));
    Magic& m = out.magics[sq];
    m.mask = slow_attacks(dirs, s, 0) & ~edges;
    m.shift = unsigned(64 - popcount(m.mask));
    m.magic = 0;
    m.attacks = nullptr;
    // Every subset of the mask (Carry-Rippler) with its attack set.
    int size = 0;
    Bitboard b = 0;
    do {
      occupancy[size] = b;
      reference[size] = slow_attacks(dirs, s, b);
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);
    out.offsets[sq] = out.table.size();
    out.table.resize(out.table.size() + std::size_t(size));
    Bitboard* slice = out.table.data() + out.offsets[sq];
#if defined(__BMI2__)
    for (int i = 0; i < size; ++i) slice[m.index(occupancy[i])] = reference[i];
#else
    // A multiplier that maps every subset to a slot without a harmful collision.
    for (;;) {
      do m.magic = prng.sparse();
      while (popcount((m.magic * m.mask) >> 56) < 6);
      ++attempt;
      bool ok = true;
      for (int i = 0; i < size && ok; ++i) {
        const unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          slice[idx] = reference[i];
        } else if (slice[idx] != reference[i]) {
          ok = false;
        }
      }
      if (ok) break;
    }
#endif
  }
  (void)attempt;
  (void)prng;
  return out;
}

std::string hex(Bitboard b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llxULL", static_cast<unsigned long long>(b));
  return buf;
}

void write_array(std::ostream& out, const Bitboard* values, std::size_t n) {
  out << "{";
  for (std::size_t i = 0; i < n; ++i) out << (i % 4 == 0 ? "\n    " : " ") << hex(values[i]) << ",";
  out << "\n}";
}

// The slider's entries, in the anonymous namespace of the generated file.
void write_slider_table(std::ostream& out, const char* name, const Slider& slider) {
  out << "alignas(64) const Bitboard " << name << "_table[" << slider.table.size() << "] = ";
  write_array(out, slider.table.data(), slider.table.size());
  out << ";\n";
}

// Each square's mask, multiplier, slice and shift.
void write_slider_magics(std::ostream& out, const char* name, const Slider& slider) {
  out << "const Magic " << name << "_magics[64] = {\n";
  for (int sq = 0; sq < 64; ++sq) {
    const Magic& m = slider.magics[sq];
    out << "    {" << hex(m.mask) << ", " << hex(m.magic) << ", " << name << "_table + "
        << slider.offsets[sq] << ", " << m.shift << "},\n";
  }
  out << "};\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_attack_tables OUTPUT.cpp\n";
    return 2;
  }
  Bitboard knight[64], king[64], pawn[2][64], rook_rays[64], bishop_rays[64];
  static Bitboard between[64][64], line[64][64];
  for (int sq = 0; sq < 64; ++sq) {
    const Square s = Square(sq);
    knight[sq] = step_attacks(s, knight_steps);
    king[sq] = step_attacks(s, king_steps);
    pawn[White][sq] = pawn_attacks_bb<White>(square_bb(s));
    pawn[Black][sq] = pawn_attacks_bb<Black>(square_bb(s));
    rook_rays[sq] = slow_attacks(rook_dirs, s, 0);
    bishop_rays[sq] = slow_attacks(bishop_dirs, s, 0);
  }
  for (int a = 0; a < 64; ++a) {
    for (int b = 0; b < 64; ++b) {
      const Square sa = Square(a), sb = Square(b);
      between[a][b] = square_bb(sb);
      line[a][b] = 0;
      if (a == b) continue;
      for (const auto* dirs : {&bishop_dirs, &rook_dirs}) {
        const Bitboard from_a = slow_attacks(*dirs, sa, 0);
        if (!(from_a & square_bb(sb))) continue;
        const Bitboard from_b = slow_attacks(*dirs, sb, 0);
        line[a][b] = (from_a & from_b) | square_bb(sa) | square_bb(sb);
        between[a][b] =
            (slow_attacks(*dirs, sa, square_bb(sb)) & slow_attacks(*dirs, sb, square_bb(sa))) |
            square_bb(sb);
      }
    }
  }
  const Slider rook = make_slider(rook_dirs), bishop = make_slider(bishop_dirs);

  std::ofstream out(argv[1]);
  out << "// Generated by libpgn/tools/make_attack_tables.cpp at build time: do not edit.\n"
         "#include \"pgn/bitboard.h\"\n\n";
#if defined(__BMI2__)
  out << "#if !defined(__BMI2__)\n";
#else
  out << "#if defined(__BMI2__)\n";
#endif
  out << "#error \"the attack tables were generated for another -march (BMI2 or not)\"\n"
         "#endif\n\n"
         "namespace pgn::detail {\nnamespace {\n";
  write_slider_table(out, "rook", rook);
  write_slider_table(out, "bishop", bishop);
  out << "}  // namespace\n\n";
  write_slider_magics(out, "rook", rook);
  write_slider_magics(out, "bishop", bishop);
  auto table = [&](const char* declaration, const Bitboard* values, std::size_t n) {
    out << "const Bitboard " << declaration << " = ";
    write_array(out, values, n);
    out << ";\n";
  };
  table("knight_table[64]", knight, 64);
  table("king_table[64]", king, 64);
  out << "const Bitboard pawn_table[2][64] = {";
  for (int c = 0; c < 2; ++c) {
    write_array(out, pawn[c], 64);
    out << ",";
  }
  out << "};\n";
  table("rook_rays[64]", rook_rays, 64);
  table("bishop_rays[64]", bishop_rays, 64);
  for (const auto& [name, values] : {std::pair{"between_table", &between}, {"line_table", &line}}) {
    out << "const Bitboard " << name << "[64][64] = {";
    for (int a = 0; a < 64; ++a) {
      write_array(out, (*values)[a], 64);
      out << ",";
    }
    out << "};\n";
  }
  out << "\n}  // namespace pgn::detail\n";
  out.close();
  if (!out) {
    std::cerr << "make_attack_tables: cannot write " << argv[1] << '\n';
    return 1;
  }
  return 0;
}
