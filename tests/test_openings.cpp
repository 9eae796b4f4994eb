// The opening tables (libpgn/data/openings/, lichess's) and a game's opening by position
// (openings.h). The classification of real games is checked against pgn-extract's boards in
// test_pgn_extract.cpp.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "pgn/game.h"
#include "pgn/openings.h"
#include "pgn/san.h"

namespace {

// The repetition keys of the main line `moves` (SAN, space-separated) from the start.
std::vector<pgn::Key> keys_of(std::string_view moves) {
  pgn::Position pos;
  std::vector<pgn::Key> keys = {pgn::repetition_key(pos)};
  while (!moves.empty()) {
    const std::size_t space = moves.find(' ');
    const std::string_view token = moves.substr(0, space);
    moves = space == std::string_view::npos ? std::string_view() : moves.substr(space + 1);
    if (token.empty() || token.back() == '.') continue;
    const auto move = pgn::parse_san(pos, token);
    REQUIRE(move);
    pos.play(*move);
    keys.push_back(pgn::repetition_key(pos));
  }
  return keys;
}

std::string name_of(pgn::OpeningId id) {
  const auto& o = pgn::openings()[id];
  return std::string(o.eco) + " " + std::string(o.name);
}

}  // namespace

TEST_CASE("every line of the opening tables replays and names its position") {
  const auto all = pgn::openings();
  // The five files of lichess's tables, a header line each: 3,807 openings.
  REQUIRE(all.size() == 3807 + 1);
  CHECK(all[0].eco.empty());
  std::size_t named_by_an_earlier_line = 0;
  for (std::size_t id = 1; id < all.size(); ++id) {
    INFO(id << ": " << all[id].eco << " " << all[id].name << ": " << all[id].moves);
    CHECK(all[id].eco.size() == 3);
    CHECK(!all[id].name.empty());
    const auto keys = keys_of(all[id].moves);
    const pgn::OpeningId found = pgn::opening_at(keys.back());
    CHECK(found != 0);
    CHECK(found <= id);
    named_by_an_earlier_line += found != id;
  }
  // No two lines reach one position.
  CHECK(named_by_an_earlier_line == 0);
  CHECK(pgn::opening_at(pgn::repetition_key(pgn::Position())) == 0);
}

TEST_CASE("a game's opening is its deepest named position, by position, within 40 plies") {
  // The Najdorf by its usual order, and the same position by another (5...a6 before Nc3).
  const auto najdorf = keys_of("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be2");
  CHECK(name_of(pgn::classify_opening(najdorf)) ==
        "B92 Sicilian Defense: Najdorf Variation, Opocensky Variation");
  const auto najdorf_other = keys_of("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 a6 5. Nc3 Nf6 6. Be2");
  CHECK(pgn::classify_opening(najdorf_other) == pgn::classify_opening(najdorf));
  // The Nimzo-Indian from 1.d4 and from 1.c4: one position, one name.
  const auto nimzo = keys_of("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4");
  const auto nimzo_english = keys_of("1. c4 e6 2. Nc3 Nf6 3. d4 Bb4");
  CHECK(name_of(pgn::classify_opening(nimzo)) == "E20 Nimzo-Indian Defense");
  CHECK(pgn::classify_opening(nimzo_english) == pgn::classify_opening(nimzo));
  // Past the named positions, the last one reached: a move no table names keeps the name.
  const auto on = keys_of("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. a4 h6");
  CHECK(pgn::classify_opening(on) == pgn::classify_opening(nimzo));
  // Only the first 40 plies count: a named position reached at ply 42 is not the opening.
  std::string shuffle;
  for (int i = 0; i < 10; ++i) shuffle += "Nf3 Nf6 Ng1 Ng8 ";
  const auto late = keys_of(shuffle + "e4 c5");
  REQUIRE(late.size() == 43);
  CHECK(pgn::classify_opening(std::span(late).first(41)) == pgn::classify_opening(late));
  CHECK(name_of(pgn::classify_opening(late)) != "B20 Sicilian Defense");
  // The limit exactly: after 36 plies back at the start, the Sicilian's 2...d6 stands at ply 40
  // and counts; 3. d4 at ply 41, a line of the tables too, does not.
  std::string back;
  for (int i = 0; i < 9; ++i) back += "Nf3 Nf6 Ng1 Ng8 ";
  const auto at_40 = keys_of(back + "e4 c5 Nf3 d6 d4");
  REQUIRE(at_40.size() == 42);
  CHECK(name_of(pgn::classify_opening(at_40)) == "B50 Sicilian Defense: Modern Variations");
  CHECK(name_of(pgn::classify_opening(keys_of("1. e4 c5 2. Nf3 d6 3. d4"))) ==
        "B50 Sicilian Defense");
  // No move, or a game set up from another position: no opening.
  CHECK(pgn::classify_opening(keys_of("")) == 0);
  CHECK(pgn::classify_opening(nimzo, false) == 0);
}
