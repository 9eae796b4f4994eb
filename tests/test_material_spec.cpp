// The material search's parts in libpgn: MaterialTracker (a game's balances and its home pawns'
// order), MaterialSpec (ending names and pgn-extract's syntax, its errors) and
// first_material_match (stability). pgn-extract's -y and -z selections over real games are the
// oracle in tests/test_pgn_extract.cpp; these pin the rules on games written for them.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "pgn/fen.h"
#include "pgn/material_balance.h"
#include "pgn/material_spec.h"
#include "pgn/san.h"
#include "support.h"

namespace {

using pgndb::test::material_history_of;

pgn::MaterialSpec spec(const std::string& text) {
  auto parsed = pgn::MaterialSpec::parse(text);
  INFO(text << ": " << (parsed ? "" : parsed.error().message));
  REQUIRE(parsed);
  return *parsed;
}

// A balance from "white black" counts of P N B R Q each, e.g. {1,0,0,1,0}, {0,0,0,1,0}.
pgn::MaterialBalance balance(std::array<std::uint8_t, 5> white, std::array<std::uint8_t, 5> black) {
  return pgn::MaterialBalance{{white, black}};
}

}  // namespace

TEST_CASE("material: a game's runs of balances", "[material]") {
  // 1.e4 d5 2.exd5 Qxd5 3.Nc3 Qa5 4.d4: a pawn each way, then nothing taken.
  const auto h = material_history_of(std::string(pgn::start_fen),
                                     {"e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "d4"});
  CHECK(h.plies == 7);
  REQUIRE(h.runs.size() == 3);
  CHECK(h.runs[0].ply == 0);
  CHECK(h.runs[0].balance == pgn::MaterialBalance::start());
  CHECK(h.runs[1].ply == 3);
  CHECK(h.runs[1].balance == balance({8, 2, 2, 2, 1}, {7, 2, 2, 2, 1}));
  CHECK(h.runs[2].ply == 4);
  CHECK(h.final_balance() == balance({7, 2, 2, 2, 1}, {7, 2, 2, 2, 1}));
  CHECK(h.length(0) == 3);
  CHECK(h.length(1) == 1);
  CHECK(h.length(2) == 3);
}

TEST_CASE("material: a promotion is a run of its own, and a FEN game starts from its material",
          "[material]") {
  const auto h = material_history_of("8/4P2k/8/8/8/8/6p1/K7 w - - 0 1", {"e8=Q", "g1=N"});
  REQUIRE(h.runs.size() == 3);
  CHECK(h.runs[0].balance == balance({1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}));
  CHECK(h.runs[1].balance == balance({0, 0, 0, 0, 1}, {1, 0, 0, 0, 0}));
  CHECK(h.final_balance() == balance({0, 0, 0, 0, 1}, {0, 1, 0, 0, 0}));

  // A FEN may set up more pawns than a count keeps (15): a promotion leaves the pawns' count at
  // 15, and the queen it makes still counts. Each run is the position's own balance.
  const std::string crowded = "7k/P7/PPPPPPPP/PPPPPPPP/8/8/8/K7 w - - 0 1";
  const auto many = material_history_of(crowded, {"a8=Q"});  // mate, as it happens
  REQUIRE(many.runs.size() == 2);
  CHECK(many.runs[0].balance == balance({15, 0, 0, 0, 0}, {0, 0, 0, 0, 0}));
  CHECK(many.runs[1].ply == 1);
  CHECK(many.final_balance() == balance({15, 0, 0, 0, 1}, {0, 0, 0, 0, 0}));
  pgn::Position after = pgndb::test::fen(crowded);
  after.play(*pgn::parse_san(after, "a8=Q"));
  CHECK(many.runs[1].balance == pgn::MaterialBalance::of(after));
}

TEST_CASE("material: ending names", "[material]") {
  const auto rook_ending = spec("KRPvKR");
  CHECK(rook_ending.matches(balance({1, 0, 0, 1, 0}, {0, 0, 0, 1, 0})));
  CHECK_FALSE(rook_ending.matches(balance({0, 0, 0, 1, 0}, {1, 0, 0, 1, 0})));
  CHECK(rook_ending.matches(balance({0, 0, 0, 1, 0}, {1, 0, 0, 1, 0}), pgn::Black));
  CHECK(rook_ending.matches_either(balance({0, 0, 0, 1, 0}, {1, 0, 0, 1, 0})));
  CHECK_FALSE(rook_ending.matches(balance({2, 0, 0, 1, 0}, {0, 0, 0, 1, 0})));
  CHECK(spec("kqvkr").matches(balance({0, 0, 0, 0, 1}, {0, 0, 0, 1, 0})));
  CHECK(spec("KRRPPvKRR").matches(balance({2, 0, 0, 2, 0}, {0, 0, 0, 2, 0})));
  CHECK(spec("KvK").matches(balance({}, {})));
  CHECK_FALSE(spec("KRPvKR").stability());
}

TEST_CASE("material: pgn-extract's counts and relative forms", "[material]") {
  // Two rooks each, one side exactly one pawn more (its help's example).
  const auto s = spec("r2p* r=p1>=");  // the second side exactly one pawn more
  CHECK(s.matches(balance({2, 0, 0, 2, 0}, {3, 0, 0, 2, 0})));
  CHECK_FALSE(s.matches(balance({3, 0, 0, 2, 0}, {3, 0, 0, 2, 0})));
  CHECK_FALSE(s.matches(balance({1, 0, 0, 2, 0}, {3, 0, 0, 2, 0})));
  CHECK_FALSE(s.matches(balance({2, 0, 0, 2, 0}, {3, 0, 0, 1, 0})));
  // `>` is "at least d more", `<` "at least d fewer", `#` different, `=` same.
  CHECK(spec("p* p2>").matches(balance({1, 0, 0, 0, 0}, {4, 0, 0, 0, 0})));
  CHECK_FALSE(spec("p* p2>").matches(balance({3, 0, 0, 0, 0}, {4, 0, 0, 0, 0})));
  CHECK(spec("p* p<").matches(balance({5, 0, 0, 0, 0}, {2, 0, 0, 0, 0})));
  CHECK(spec("q* q#").matches(balance({0, 0, 0, 0, 1}, {0, 0, 0, 0, 0})));
  CHECK_FALSE(spec("q* q#").matches(balance({0, 0, 0, 0, 1}, {0, 0, 0, 0, 1})));
  // `+`, `d+`, `d-`, `-`, `?`, `*`, and a piece not listed is absent.
  CHECK(spec("r+").matches(balance({0, 0, 0, 2, 0}, {8, 2, 2, 2, 1})));
  CHECK_FALSE(spec("r+").matches(balance({1, 0, 0, 2, 0}, {})));
  CHECK(spec("p3+").matches(balance({5, 0, 0, 0, 0}, {})));
  CHECK(spec("p3-").matches(balance({2, 0, 0, 0, 0}, {})));
  CHECK_FALSE(spec("p3-").matches(balance({4, 0, 0, 0, 0}, {})));
  CHECK(spec("n?").matches(balance({0, 0, 0, 0, 0}, {})));
  CHECK_FALSE(spec("n?").matches(balance({0, 2, 0, 0, 0}, {})));
  // With no second side, its material is anything; a king may be written.
  CHECK(spec("KQ").matches(balance({0, 0, 0, 0, 1}, {8, 2, 2, 2, 1})));
  // L: minor pieces counted together, and then B and N ignored for that side.
  // The second side: exactly a rook fewer, exactly two minor pieces more, a pawn fewer or more.
  const auto sac = spec("q*r+l*p+ q=r1<=l2>=p1<");
  CHECK(sac.matches(balance({6, 0, 0, 2, 0}, {5, 1, 1, 1, 0})));
  CHECK(sac.matches(balance({6, 0, 0, 2, 0}, {5, 0, 2, 1, 0})));
  CHECK(sac.matches(balance({6, 1, 0, 2, 0}, {4, 2, 1, 1, 0})));
  CHECK_FALSE(sac.matches(balance({6, 0, 0, 2, 0}, {5, 0, 1, 1, 0})));
  CHECK_FALSE(sac.matches(balance({6, 0, 0, 2, 0}, {6, 1, 1, 1, 0})));
  // A leading number is the stability.
  CHECK(spec("10 R2P+ R=P*").stability() == 10u);
}

TEST_CASE("material: specs with faults are refused with the place of the fault", "[material]") {
  struct Case {
    const char* text;
    std::size_t offset;
    const char* message;
  };
  const Case cases[] = {
      {"", 0, "no material given"},
      {"   ", 3, "no material given"},
      {"rx", 1, "unknown piece letter 'x'"},
      {"KRPvKX", 5, "unexpected 'X' in an ending's name"},
      {"KRPvRK", 4, "from its king"},
      {"KPPPPPPPPPvK", 9, "too many 'P'"},
      {"r12", 2, "a count is one digit"},
      {"rr", 1, "'r' is given twice"},
      {"k2", 0, "a king occurs exactly once"},
      {"p9", 0, "at most 8 pawns"},
      {"3r", 1, "a leading number"},
      {"r r r", 4, "unexpected text after the second side"},
      {"n2?", 2, "'?' takes no count"},
      {"99999 r", 0, "stability above"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto parsed = pgn::MaterialSpec::parse(c.text);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().offset == c.offset);
    CHECK(parsed.error().message.find(c.message) != std::string::npos);
  }
}

TEST_CASE("material: stability counts the moves played from the balance", "[material]") {
  // 1.e4 d5 2.exd5 Qxd5: the balance after 2.exd5 (a pawn up) stands for one move (Qxd5).
  const auto exchange = material_history_of(
      std::string(pgn::start_fen), {"e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "d4", "Nf6"});
  const auto pawn_up = spec("qr2b2n2p8 qr2b2n2p7");
  CHECK(pgn::first_material_match(exchange, pawn_up, 0, false) == 3u);
  CHECK_FALSE(pgn::first_material_match(exchange, pawn_up, 1, false));
  // Even material again from ply 4: four moves played from it (Nc3 Qa5 d4 Nf6), the last from the
  // position before the final one; the final position counts no move.
  const auto even = spec("qr2b2n2p7 qr2b2n2p7");
  CHECK(pgn::first_material_match(exchange, even, 3, false) == 4u);
  CHECK_FALSE(pgn::first_material_match(exchange, even, 4, false));
  // Balances that differ but all match one spec count together: the start, then a pawn each.
  const auto queens_on = spec("qr2b2n2p* q=r=b=n=p=");
  CHECK(pgn::first_material_match(exchange, queens_on, 2, false) == 0u);
  // Swapped colours: Black a pawn up is White's spec only with --either-colour.
  const auto black_up = material_history_of(std::string(pgn::start_fen),
                                            {"e4", "d5", "Nf3", "dxe4", "Nc3", "Nf6", "Bc4"});
  CHECK_FALSE(pgn::first_material_match(black_up, pawn_up, 2, false));
  CHECK(pgn::first_material_match(black_up, pawn_up, 2, true) == 4u);
}
