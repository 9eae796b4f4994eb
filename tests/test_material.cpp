// Mating material (Law 6.9; the Slovak seed's list, "matovací materiál"), each clause with
// positions written for it, and checked against the law itself: for each material the answer
// says cannot mate, no checkmate exists anywhere on the board with that material (an exhaustive
// search over the placements); for each it says can, a checkmate is found.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "pgn/fen.h"
#include "pgn/material.h"
#include "pgn/movegen.h"

namespace {

pgn::Position at(const std::string& fen) {
  auto pos = pgn::parse_fen(fen);
  INFO(fen);
  REQUIRE(pos);
  return *pos;
}
bool white_can_mate(const std::string& fen) { return pgn::can_mate(at(fen), pgn::White); }

// One man to place: its FEN letter and the squares it may stand on.
struct Man {
  char letter;
  std::uint64_t squares = ~0ULL;
};
constexpr std::uint64_t dark = 0xAA55AA55AA55AA55ULL, light = ~dark;

// A checkmate of Black, with White's men `white` and Black's `black` (kings included), Black to
// move; nothing when none exists. Black's king stands in the a1-d1-d4 triangle (every pawnless
// position is one of those by the board's symmetries); a square holds one man.
std::optional<std::string> checkmate_of_black(const std::vector<Man>& white,
                                              const std::vector<Man>& black) {
  std::vector<Man> men = black;  // black's king first
  men.insert(men.end(), white.begin(), white.end());
  constexpr std::uint64_t triangle = (1ULL << 0) | (1ULL << 1) | (1ULL << 2) | (1ULL << 3) |
                                     (1ULL << 9) | (1ULL << 10) | (1ULL << 11) | (1ULL << 18) |
                                     (1ULL << 19) | (1ULL << 27);
  men[0].squares &= triangle;
  std::vector<int> square(men.size(), -1);
  char board[64];
  std::optional<std::string> found;
  auto fen = [&] {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
      int empty = 0;
      for (int file = 0; file < 8; ++file) {
        const char c = board[rank * 8 + file];
        if (c == 0) {
          ++empty;
          continue;
        }
        if (empty) out += char('0' + empty);
        empty = 0;
        out += c;
      }
      if (empty) out += char('0' + empty);
      if (rank) out += '/';
    }
    return out + " b - - 0 1";
  };
  auto place = [&](auto&& self, std::size_t i) -> void {
    if (found) return;
    if (i == men.size()) {
      auto pos = pgn::parse_fen(fen());
      if (pos && pos->in_check() && pgn::legal_moves(*pos).empty()) found = fen();
      return;
    }
    for (int s = 0; s < 64 && !found; ++s) {
      if (!(men[i].squares >> s & 1) || board[s]) continue;
      board[s] = men[i].letter;
      self(self, i + 1);
      board[s] = 0;
    }
  };
  std::fill(std::begin(board), std::end(board), 0);
  place(place, 0);
  return found;
}

const Man K{'K'}, k{'k'}, N{'N'}, B{'B'}, R{'R'}, Q{'Q'}, n{'n'}, b{'b'}, r{'r'}, q{'q'},
    p{'p', 0x00FFFFFFFFFFFF00ULL};

}  // namespace

TEST_CASE("mating material, clause by clause of the Slovak seed's list") {
  // "aspoň jeden pešiak": a pawn (it can promote).
  CHECK(white_can_mate("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"));
  // "jeden jazdec, ak je na šachovnici aspoň jeden súperov pešiak, jazdec, strelec alebo veža".
  CHECK_FALSE(white_can_mate("8/8/8/4k3/8/8/4N3/4K3 w - - 0 1"));
  CHECK(white_can_mate("8/4p3/8/4k3/8/8/4N3/4K3 w - - 0 1"));
  CHECK(white_can_mate("8/4n3/8/4k3/8/8/4N3/4K3 w - - 0 1"));
  CHECK(white_can_mate("8/4b3/8/4k3/8/8/4N3/4K3 w - - 0 1"));
  CHECK(white_can_mate("8/4r3/8/4k3/8/8/4N3/4K3 w - - 0 1"));
  CHECK_FALSE(white_can_mate("8/4q3/8/4k3/8/8/4N3/4K3 w - - 0 1"));  // a queen: not listed
  // "jazdec a strelec".
  CHECK(white_can_mate("8/8/8/4k3/8/8/3BN3/4K3 w - - 0 1"));
  // "jeden strelec, ak je na šachovnici aspoň jeden súperov pešiak, jazdec alebo strelec
  // opačnej farby polí": d2 is a dark square, e7 dark, d7 light.
  CHECK_FALSE(white_can_mate("8/8/8/4k3/8/8/3B4/4K3 w - - 0 1"));
  CHECK(white_can_mate("8/4p3/8/4k3/8/8/3B4/4K3 w - - 0 1"));
  CHECK(white_can_mate("8/4n3/8/4k3/8/8/3B4/4K3 w - - 0 1"));
  CHECK(white_can_mate("8/3b4/8/4k3/8/8/3B4/4K3 w - - 0 1"));        // the other colour
  CHECK_FALSE(white_can_mate("8/4b3/8/4k3/8/8/3B4/4K3 w - - 0 1"));  // the same colour
  CHECK_FALSE(white_can_mate("8/4r3/8/4k3/8/8/3B4/4K3 w - - 0 1"));
  CHECK_FALSE(white_can_mate("8/4q3/8/4k3/8/8/3B4/4K3 w - - 0 1"));
  // "dvaja strelci": on both colours. On one colour they cannot, by the law (the list's
  // difference); two knights can, by the law (the list has no entry).
  CHECK(white_can_mate("8/8/8/4k3/8/8/3BB3/4K3 w - - 0 1"));
  CHECK_FALSE(white_can_mate("8/8/8/4k3/8/8/3B1B2/4K3 w - - 0 1"));
  CHECK(white_can_mate("8/8/8/4k3/8/8/3NN3/4K3 w - - 0 1"));
  // "aspoň jedna ťažká figúra".
  CHECK(white_can_mate("8/8/8/4k3/8/8/R7/4K3 w - - 0 1"));
  CHECK(white_can_mate("8/8/8/4k3/8/8/Q7/4K3 w - - 0 1"));
  // The king alone, whatever the other side has.
  CHECK_FALSE(white_can_mate("8/8/8/4k3/8/8/8/4K3 w - - 0 1"));
  CHECK_FALSE(white_can_mate("8/pppppppp/8/4k3/8/8/8/4K3 w - - 0 1"));
  // Either side to move, either colour: the answer is about the side asked.
  CHECK(pgn::can_mate(at("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1"), pgn::Black));
  CHECK_FALSE(pgn::can_mate(at("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1"), pgn::White));
  CHECK(pgn::insufficient_material(at("4k3/8/8/8/8/8/3B4/4K3 b - - 0 1")));
  CHECK_FALSE(pgn::insufficient_material(at("4k3/8/8/8/8/8/3R4/4K3 b - - 0 1")));
}

TEST_CASE("mating material agrees with the law: a checkmate exists exactly where it says can") {
  struct Material {
    std::vector<Man> white, black;
    bool can;
  };
  // The materials the clauses turn on, for White to mate. Where the answer is no, no checkmate
  // of Black exists with that material on any squares; where yes, one does. (A capture leaves
  // less material, whose answer is no as well in each "no" below.)
  const Material materials[] = {
      {{K, N}, {k}, false},
      {{K, B}, {k}, false},
      {{K, {'B', dark}, {'B', dark}}, {k}, false},
      {{K, {'B', dark}}, {k, {'b', dark}}, false},
      {{K, N}, {k, q}, false},
      {{K, B}, {k, r}, false},
      {{K, B}, {k, q}, false},
      {{K, N}, {k, p}, true},
      {{K, N}, {k, n}, true},
      {{K, N}, {k, b}, true},
      {{K, N}, {k, r}, true},
      {{K, {'B', dark}}, {k, {'b', light}}, true},
      {{K, B}, {k, n}, true},
      {{K, B}, {k, p}, true},
      {{K, N, N}, {k}, true},
      {{K, {'B', dark}, {'B', light}}, {k}, true},
      {{K, B, N}, {k}, true},
      {{K, R}, {k}, true},
      {{K, Q}, {k}, true},
  };
  for (const Material& m : materials) {
#ifdef PGNDB_SANITIZED
    // Under the sanitizers no search of every placement of four men (64^4 boards, a minute
    // there); the release run makes them all, and perft checks the move generator there too.
    if (!m.can && m.white.size() + m.black.size() == 4) continue;
#endif
    std::string white, black;
    for (const Man& man : m.white) white += man.letter;
    for (const Man& man : m.black) black += man.letter;
    INFO(white << " against " << black);
    const auto mate = checkmate_of_black(m.white, m.black);
    CHECK(mate.has_value() == m.can);
    // And can_mate says the same of a position with this material.
    if (mate) {
      INFO(*mate);
      CHECK(pgn::can_mate(at(*mate), pgn::White));
    }
  }
}
