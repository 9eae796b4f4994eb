// The material index's stored forms (index/src/material_record.h): a balance's bytes and its
// packed number, and a history's bytes. The expected bytes are worked out by hand from the
// layout the header documents, so a change of layout, or codes that fall back to escapes (a
// history still decodes, three times larger), fails here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "material_record.h"
#include "pgn/fen.h"
#include "pgn/material_balance.h"
#include "pgn/san.h"
#include "support.h"

namespace {

using pgndb::index::material::decode_history;
using pgndb::index::material::encode_history;

using pgndb::test::material_history_of;

std::string encoded(const pgn::MaterialHistory& history) {
  std::string out;
  encode_history(history, out);
  return out;
}

std::string bytes(std::initializer_list<unsigned> values) {
  std::string out;
  for (unsigned v : values) out += char(v);
  return out;
}

void require_round_trip(const pgn::MaterialHistory& history) {
  const auto back = decode_history(encoded(history));
  REQUIRE(back);
  CHECK(back->plies == history.plies);
  REQUIRE(back->runs.size() == history.runs.size());
  for (std::size_t i = 0; i < history.runs.size(); ++i) {
    CHECK(back->runs[i].ply == history.runs[i].ply);
    CHECK(back->runs[i].balance == history.runs[i].balance);
  }
  CHECK(back->pawn_squares == history.pawn_squares);
  // The rooks' squares come back as their whole ranks.
  for (pgn::Color c : {pgn::White, pgn::Black})
    CHECK(back->rook_squares[c] == pgn::ranks_bb(pgn::ranks_of(history.rook_squares[c])));
}

// A balance from counts given as {P, N, B, R, Q} for White, then Black.
pgn::MaterialBalance balance(std::array<std::uint8_t, 5> white, std::array<std::uint8_t, 5> black) {
  return pgn::MaterialBalance{{white, black}};
}

}  // namespace

TEST_CASE("a balance's bytes, its packed number and its metadata value", "[material]") {
  using namespace pgndb::index::material;
  // The initial position: White Q 1 R 2, B 2 N 2, the same for Black, then the pawns 8 and 8.
  const pgn::MaterialBalance start = pgn::MaterialBalance::start();
  std::string out;
  put_balance(out, start);
  CHECK(out == bytes({0x12, 0x22, 0x12, 0x22, 0x88}));
  CHECK(packed(start) == 0x1222122288ULL);
  CHECK(value_of_packed(packed(start)) == "m" + bytes({0x12, 0x22, 0x12, 0x22, 0x88}));
  const auto odd = balance({3, 0, 1, 0, 2}, {0, 4, 0, 1, 0});
  CHECK(packed(odd) == 0x2010010430ULL);
  out.clear();
  put_balance(out, odd);
  REQUIRE(balance_of(out));
  CHECK(*balance_of(out) == odd);
  // Numbers sort as the bytes do: what the postings' key order and the batch's sort share.
  CHECK((packed(odd) > packed(start)) ==
        (value_of_packed(packed(odd)) > value_of_packed(packed(start))));
  CHECK_FALSE(balance_of("1234"));
}

TEST_CASE("a history's captures are one byte each", "[material]") {
  // 1. e4 d5 2. exd5 Qxd5: Black's pawn taken at ply 3 (code 0, 3 plies after the start), then
  // White's at ply 4 (code 0, one ply later). Flags 1, 4 and 8 (the home ranks whole) and 16;
  // White's pawns stood on e4 and d5 (ranks 3 to 7: 0, e, d, 0, 0), Black's on d5 (ranks 6 to
  // 2); each side's rooks on its home rank alone (bit 0).
  const auto h = material_history_of(std::string(pgn::start_fen), {"e4", "d5", "exd5", "Qxd5"});
  CHECK(encoded(h) == bytes({4, 1 | 4 | 8 | 16, 2, 3 << 5 | 0, 1 << 5 | 0, 0, 0x10, 0x08, 0, 0, 0,
                             0x08, 0, 0, 0, 0x01, 0x01}));
  require_round_trip(h);

  // A bishop, a knight, a rook and a queen taken (codes 2, 1, 3, 4), the rook 8 plies after the
  // knight: its byte has no room for the distance, which follows as a varint. The start's
  // five bytes: White Q0 R1, B0 N0, Black Q1 R1, B1 N1, pawns 0 and 0. No pawn stood anywhere:
  // flag 4, 12 bytes of squares, each 0 (the home ranks are not whole). White's rook stood on
  // ranks 4 and 1 (0x09), Black's on rank 4, the fifth from its home (0x10): flag 16.
  const auto pieces = material_history_of("7k/8/K7/8/1r1R2q1/8/8/1n1b4 w - - 0 1",
                                          {"Rxd1", "Kg8", "Ka7", "Kh8", "Rxb1", "Kg8", "Ka6", "Kh8",
                                           "Ka7", "Kg8", "Ka6", "Kh8", "Rxb4", "Kg8", "Rxg4"});
  REQUIRE(pieces.runs.size() == 5);
  CHECK(encoded(pieces) == bytes({15, 4 | 16, 0x01, 0x00, 0x11, 0x11, 0x00, 4, 1 << 5 | 2,
                                  4 << 5 | 1, 3, 8, 2 << 5 | 4}) +
                               std::string(12, '\0') + bytes({0x09, 0x10}));
  require_round_trip(pieces);
}

TEST_CASE("a history's promotions, with and without a capture, and Black first", "[material]") {
  // bxa8=Q takes a rook: 5 + 5 * (Queen - Knight) + 3 (a rook) = 23. The start is not the
  // initial position's material: its five bytes follow the flags. White's pawn stood on b7
  // (White's ranks 2 to 7, then Black's 7 to 2). White had no rook; Black's stood on a8.
  const auto h = material_history_of("r6k/1P6/8/8/8/8/8/K7 w - - 0 1", {"bxa8=Q"});
  CHECK(encoded(h) == bytes({1, 4 | 16, 0x00, 0x00, 0x01, 0x00, 0x10, 1, 1 << 5 | 23, 0,    0,   0,
                             0, 0,      0x02, 0,    0,    0,    0,    0, 0,           0x00, 0x01}));
  require_round_trip(h);

  // Black moves first (flag 2) and promotes to a knight without a capture: 5 + 0 + 0. Black's
  // pawn stood on a2, the last byte of the squares. No rooks.
  const auto black = material_history_of("7k/8/8/8/8/8/p7/7K b - - 0 1", {"a1=N"});
  CHECK(encoded(black) ==
        bytes({1, 2 | 4 | 16, 0x00, 0x00, 0x00, 0x00, 0x01, 1, 1 << 5 | 5, 0, 0, 0,
               0, 0,          0,    0,    0,    0,    0,    0, 0x01,       0, 0}));
  require_round_trip(black);
}

TEST_CASE("a change no move makes is kept whole after an escape", "[material]") {
  pgn::MaterialHistory h;
  h.runs.push_back({0, pgn::MaterialBalance::start()});
  // Two pieces gone at once: no single move does that.
  h.runs.push_back({3, balance({8, 1, 2, 2, 1}, {8, 2, 1, 2, 1})});
  // A pawn gone from the side that moved (White, at ply 5), with nothing promoted.
  h.runs.push_back({5, balance({7, 1, 2, 2, 1}, {8, 2, 1, 2, 1})});
  // Black promotes to a queen and takes a pawn: no promotion takes one.
  h.runs.push_back({6, balance({6, 1, 2, 2, 1}, {7, 2, 1, 2, 2})});
  h.plies = 10;
  const std::string out = encoded(h);
  CHECK(out.substr(0, 3) == bytes({10, 1, 3}));
  CHECK(out.substr(3, 2) == bytes({0xFF, 3}));
  CHECK(out.size() == 3 + 3 * (2 + 5));
  require_round_trip(h);
}

TEST_CASE("every capture and promotion has its code", "[material]") {
  // White moves at ply 1 from the initial material; every change a move can make is a code,
  // never an escape.
  for (int promoted = 0; promoted < 5; ++promoted)
    for (int taken = -1; taken < 5; ++taken) {
      if (promoted == 0 && taken < 0) continue;  // nothing changes
      pgn::MaterialHistory h;
      h.runs.push_back({0, pgn::MaterialBalance::start()});
      pgn::MaterialBalance after = pgn::MaterialBalance::start();
      if (taken >= 0) --after.count[pgn::Black][taken];
      if (promoted) {
        --after.count[pgn::White][0];
        ++after.count[pgn::White][promoted];
      }
      h.runs.push_back({1, after});
      h.plies = 1;
      INFO("promoted " << promoted << ", taken " << taken);
      const std::string out = encoded(h);
      const bool possible = !(promoted && taken == 0);  // a promotion takes no pawn
      if (possible) {
        const unsigned code = promoted
                                  ? 5 + 5 * unsigned(promoted - 1) + unsigned(taken < 0 ? 0 : taken)
                                  : unsigned(taken);
        CHECK(out == bytes({1, 1, 1, 1 << 5 | code}));
      } else {
        CHECK(std::uint8_t(out[3]) == 0xFF);
      }
      require_round_trip(h);
    }
}

TEST_CASE("the next set of pieces whose counts are all possible", "[material]") {
  using pgndb::index::material::next_possible_pieces;
  using pgndb::index::material::PossibleCounts;
  // Against every number the sets allow, listed: sets of one to three counts each.
  std::mt19937 random(5);
  for (int round = 0; round < 200; ++round) {
    PossibleCounts possible{};
    for (auto& side : possible)
      for (int kind = 1; kind < 5; ++kind)
        for (int n = 1 + int(random() % 3); n > 0; --n)
          side[kind] |= std::uint16_t(1u << (random() % 16));
    // The places, highest first: White Q R B N, then Black's.
    std::vector<std::uint32_t> allowed = {0};
    for (int colour = 0; colour < 2; ++colour)
      for (int kind = 4; kind >= 1; --kind) {
        std::vector<std::uint32_t> longer;
        for (std::uint32_t prefix : allowed)
          for (unsigned c = 0; c < 16; ++c)
            if (possible[colour][kind] >> c & 1) longer.push_back(prefix << 4 | c);
        allowed = std::move(longer);
      }
    std::sort(allowed.begin(), allowed.end());
    std::vector<std::uint32_t> froms = {0, ~0u};
    for (int i = 0; i < 20; ++i) {
      const std::uint32_t a = allowed[random() % allowed.size()];
      froms.insert(froms.end(), {a, a - 1, a + 1, std::uint32_t(random())});
    }
    for (const std::uint32_t from : froms) {
      const auto expected = std::lower_bound(allowed.begin(), allowed.end(), from);
      const auto next = next_possible_pieces(from, possible);
      INFO("round " << round << ", from " << std::hex << from);
      if (expected == allowed.end())
        CHECK_FALSE(next);
      else
        CHECK(next == std::optional<std::uint32_t>(*expected));
    }
  }
  // A kind with no possible count: nothing.
  PossibleCounts none{};
  for (auto& side : none) side.fill(0xFFFF);
  none[1][3] = 0;
  CHECK_FALSE(next_possible_pieces(0, none));
}

TEST_CASE("a history's pawns' squares: kept when known, refused when damaged", "[material]") {
  // Unknown squares (a history of schema 22 reads so) are not written: flags 1, no squares.
  pgn::MaterialHistory h;
  h.runs.push_back({0, pgn::MaterialBalance::start()});
  h.plies = 2;
  CHECK(encoded(h) == bytes({2, 1, 0}));
  require_round_trip(h);
  // Squares anywhere on ranks 2 to 7, the home ranks not whole: 12 bytes.
  h.pawn_squares = {0x00FF'0000'0000'FE00ULL, 0x0001'0000'0000'FF00ULL};
  const std::string twelve = encoded(h);
  CHECK(twelve == bytes({2, 1 | 4, 0, 0xFE, 0, 0, 0, 0, 0xFF, 0x01, 0, 0, 0, 0, 0xFF}));
  require_round_trip(h);
  // The same squares read from what a database of 22 held are "every square", and so are the
  // rooks' in a history of 22 or 23.
  const auto old = decode_history(bytes({2, 1, 0}));
  REQUIRE(old);
  for (pgn::Color c : {pgn::White, pgn::Black}) {
    CHECK(old->pawn_squares[c] == ~pgn::Bitboard(0));
    CHECK(old->rook_squares[c] == ~pgn::Bitboard(0));
  }
  // Refused: a byte short, a byte more, flag 8 without 4, an unknown flag.
  CHECK_FALSE(decode_history(twelve.substr(0, twelve.size() - 1)));
  CHECK_FALSE(decode_history(twelve + '\0'));
  CHECK_FALSE(decode_history(bytes({2, 1 | 8, 0})));
  CHECK_FALSE(decode_history(bytes({2, 1 | 32, 0})));
}

TEST_CASE("a history's rooks' ranks: kept as ranks when known, refused when damaged",
          "[material]") {
  pgn::MaterialHistory h;
  h.runs.push_back({0, pgn::MaterialBalance::start()});
  h.plies = 2;
  // White's rooks on a1 and d7, Black's on h8, e2 and e1 (the squares a game's union may hold):
  // White's ranks 1 and 7, Black's 8, 2 and 1 counted from its home rank (bits 0, 6 and 7).
  h.rook_squares = {pgn::square_bb(pgn::A1) | pgn::square_bb(pgn::D7),
                    pgn::square_bb(pgn::H8) | pgn::square_bb(pgn::E2) | pgn::square_bb(pgn::E1)};
  const std::string two = encoded(h);
  CHECK(two == bytes({2, 1 | 16, 0, 0x41, 0xC1}));
  const auto back = decode_history(two);
  REQUIRE(back);
  CHECK(back->rook_squares[pgn::White] == (pgn::rank_bb(0) | pgn::rank_bb(6)));
  CHECK(back->rook_squares[pgn::Black] == (pgn::rank_bb(7) | pgn::rank_bb(1) | pgn::rank_bb(0)));
  require_round_trip(h);
  // After the pawns' squares, when both are known.
  h.pawn_squares = {0x00FF'0000'0000'FF00ULL, 0x00FF'0000'0000'FF00ULL};
  const std::string both = encoded(h);
  CHECK(both == bytes({2, 1 | 4 | 8 | 16, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0, 0, 0xFF, 0x41, 0xC1}));
  require_round_trip(h);
  // A side's rooks that never stood anywhere (none on the board) is an empty set, kept.
  h.rook_squares = {0, pgn::square_bb(pgn::A8)};
  CHECK(encoded(h).substr(encoded(h).size() - 2) == bytes({0, 1}));
  require_round_trip(h);
  // (Histories written before schema 24 say nothing of the rooks: the test above reads them.)
  // Refused: a byte short, a byte more.
  CHECK_FALSE(decode_history(two.substr(0, two.size() - 1)));
  CHECK_FALSE(decode_history(two + '\0'));
  CHECK_FALSE(decode_history(both.substr(0, both.size() - 1)));
}
