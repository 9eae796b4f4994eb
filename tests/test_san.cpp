// SAN and UCI in and out (san.h): every lenient form parse_san promises, its three error kinds,
// the canonical SAN to_san writes, and the round trip SAN -> Move -> SAN over many positions,
// with a differential check of to_san against pgn-extract.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/fen.h"
#include "pgn/movegen.h"
#include "pgn/piece_letters.h"
#include "pgn/san.h"
#include "support.h"

namespace Catch {
template <>
struct StringMaker<pgn::Move> {
  static std::string convert(pgn::Move m) {
    if (m.is_null()) return "null";
    if (m.is_none()) return "none";
    auto sq = [](pgn::Square s) {
      return std::string{char('a' + pgn::file_of(s)), char('1' + pgn::rank_of(s))};
    };
    static constexpr const char* kinds[] = {"", " promotion", " en-passant", " castling"};
    std::string out = sq(m.from()) + sq(m.to()) + kinds[m.kind() >> 14];
    if (m.kind() == pgn::Move::Promotion) out += "nbrq"[m.promotion() - pgn::Knight];
    return out;
  }
};
}  // namespace Catch

namespace {

using namespace pgn;
using namespace pgndb::test;

// The move `text` resolves to; fails the test case with the parser's message when it does not.
Move san(const Position& pos, std::string_view text) {
  auto m = parse_san(pos, text);
  INFO("parsing '" << text << "' in " << to_fen(pos));
  if (!m) FAIL(m.error().message);
  return *m;
}

SanError san_error(const Position& pos, std::string_view text) {
  auto m = parse_san(pos, text);
  INFO("parsing '" << text << "' in " << to_fen(pos));
  REQUIRE_FALSE(m.has_value());
  return m.error();
}

// Plays SAN moves from `pos`.
Position play(Position pos, std::initializer_list<std::string_view> moves) {
  for (std::string_view text : moves) pos.play(san(pos, text));
  return pos;
}

constexpr std::string_view castling_fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
constexpr std::string_view promotion_fen = "5n2/4P3/8/8/8/8/k7/4K3 w - - 0 1";
constexpr std::string_view en_passant_fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
// Knights on b1 and f3 can both go to d2.
constexpr std::string_view two_knights_fen = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";

std::string shared_data(const std::string& relative) {
  return std::string(PGNDB_SHARED_DATA) + "/" + relative;
}

// The `epd` lines of a shakmaty .perft file.
std::vector<std::string> perft_fens(const std::string& relative) {
  std::ifstream in(shared_data(relative));
  INFO(shared_data(relative));
  REQUIRE(in);
  std::vector<std::string> fens;
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("epd ")) fens.push_back(line.substr(4));
  return fens;
}

// The positions of a shakmaty .perft file that parse_fen accepts (the files also hold a few
// that no game can reach, such as a board of 29 queens).
std::vector<Position> perft_positions(const std::string& relative) {
  std::vector<Position> positions;
  for (const auto& f : perft_fens(relative))
    if (auto pos = parse_fen(f)) positions.push_back(*pos);
  return positions;
}

}  // namespace

// --- Lenient reading -----------------------------------------------------------------------

TEST_CASE("parse_san reads castling as O-O, 0-0, O-O-O and 0-0-0", "[san][parse]") {
  Position pos = fen(castling_fen);
  const Move white_short(E1, H1, Move::Castling), white_long(E1, A1, Move::Castling);
  for (auto text : {"O-O", "0-0", "O-O+", "0-0!"}) CHECK(san(pos, text) == white_short);
  for (auto text : {"O-O-O", "0-0-0", "O-O-O#", "0-0-0?!"}) CHECK(san(pos, text) == white_long);

  Position black = fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  CHECK(san(black, "O-O") == Move(E8, H8, Move::Castling));
  CHECK(san(black, "0-0-0") == Move(E8, A8, Move::Castling));
}

TEST_CASE("parse_san rejects castling without the right as illegal", "[san][parse]") {
  Position pos = fen("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
  CHECK(san_error(pos, "O-O").kind == SanErrorKind::Illegal);
  CHECK(san_error(pos, "0-0").kind == SanErrorKind::Illegal);
  CHECK(san(pos, "O-O-O") == Move(E1, A1, Move::Castling));
}

TEST_CASE("parse_san reads promotions as e8Q, e8=Q, e8(Q) and e8/Q", "[san][parse]") {
  Position pos = fen(promotion_fen);
  const std::pair<char, PieceType> pieces[] = {
      {'Q', Queen}, {'R', Rook}, {'B', Bishop}, {'N', Knight}};
  for (auto [letter, type] : pieces) {
    const Move expected(E7, E8, Move::Promotion, type);
    for (std::string form : {"e8?", "e8=?", "e8(?)", "e8/?", "e8=?+"}) {
      form[form.find('?')] = letter;
      INFO(form);
      Move m = san(pos, form);
      CHECK(m == expected);
      CHECK(m.kind() == Move::Promotion);
      CHECK(m.promotion() == type);
    }
  }
}

TEST_CASE("parse_san reads capture-promotions such as exf8=N", "[san][parse]") {
  Position pos = fen(promotion_fen);
  const Move expected(E7, F8, Move::Promotion, Knight);
  for (auto text : {"exf8=N", "exf8N", "exf8(N)", "exf8/N", "ef8=N", "exf8=N+"})
    CHECK(san(pos, text) == expected);
  CHECK(san(pos, "exf8=Q") == Move(E7, F8, Move::Promotion, Queen));
  // The push beside it stays a push.
  CHECK(san(pos, "e8=N") == Move(E7, E8, Move::Promotion, Knight));
}

TEST_CASE("parse_san reads en passant with and without e.p.", "[san][parse]") {
  Position pos = fen(en_passant_fen);
  REQUIRE(pos.en_passant() == D6);
  const Move expected(E5, D6, Move::EnPassant);
  for (auto text : {"exd6", "exd6e.p.", "ed6", "exd6e.p.+", "e5d6"}) {
    Move m = san(pos, text);
    CHECK(m == expected);
    CHECK(m.kind() == Move::EnPassant);
  }
  // The push beside it is a different move.
  CHECK(san(pos, "e6") == Move(E5, E6));
}

TEST_CASE("parse_san reads over-disambiguated moves", "[san][parse]") {
  Position pos;
  const Move expected(G1, F3);
  for (auto text : {"Nf3", "Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "Ng1xf3"})
    CHECK(san(pos, text) == expected);
  // Disambiguation that names the wrong piece is not the move.
  CHECK(san_error(pos, "Nbf3").kind == SanErrorKind::Illegal);
  CHECK(san_error(pos, "Ng2f3").kind == SanErrorKind::Illegal);

  Position knights = fen(two_knights_fen);
  CHECK(san(knights, "Nb1d2") == Move(B1, D2));
  CHECK(san(knights, "Nf3-d2") == Move(F3, D2));
  CHECK(san(knights, "N3d2") == Move(F3, D2));
}

TEST_CASE("parse_san reads a capture written without x", "[san][parse]") {
  Position pos = fen("4k3/8/8/3p4/4P3/5p2/8/4K1N1 w - - 0 1");
  CHECK(san(pos, "Nxf3") == Move(G1, F3));
  CHECK(san(pos, "Nf3") == Move(G1, F3));
  CHECK(san(pos, "exd5") == Move(E4, D5));
  CHECK(san(pos, "ed5") == Move(E4, D5));
  CHECK(to_san(pos, Move(G1, F3)) == "Nxf3");
}

TEST_CASE("parse_san reads a non-capture written with x", "[san][parse]") {
  Position pos;
  CHECK(san(pos, "Nxf3") == Move(G1, F3));
  CHECK(san(pos, "Nxc3") == Move(B1, C3));
  CHECK(san(pos, "e2xe4") == Move(E2, E4));
}

TEST_CASE("parse_san ignores missing or wrong check and mate signs", "[san][parse]") {
  Position fools = play(Position(), {"f3", "e5", "g4"});
  const Move mate(D8, H4);
  for (auto text : {"Qh4#", "Qh4", "Qh4+", "Qh4++"}) CHECK(san(fools, text) == mate);

  Position start;
  CHECK(san(start, "Nf3+") == Move(G1, F3));
  CHECK(san(start, "Nf3#") == Move(G1, F3));
  CHECK(san(start, "e4+") == Move(E2, E4));
}

TEST_CASE("parse_san ignores trailing annotation glyphs", "[san][parse]") {
  Position pos;
  for (auto text : {"Nf3!", "Nf3?", "Nf3!!", "Nf3??", "Nf3!?", "Nf3?!", "Nf3+!", "Nf3#?!"})
    CHECK(san(pos, text) == Move(G1, F3));
  Position castle = fen(castling_fen);
  CHECK(san(castle, "O-O-O!!") == Move(E1, A1, Move::Castling));
  Position promo = fen(promotion_fen);
  CHECK(san(promo, "exf8=N+!?") == Move(E7, F8, Move::Promotion, Knight));
}

TEST_CASE("parse_san reads the null moves --, Z0 and 0000", "[san][parse][null]") {
  Position pos;
  for (auto text : {"--", "Z0", "0000"}) {
    Move m = san(pos, text);
    CHECK(m == Move::null());
    CHECK(m.is_null());
  }
  Position black = play(pos, {"e4"});
  CHECK(san(black, "--") == Move::null());
}

TEST_CASE("parse_san rejects a null move while in check as illegal", "[san][parse][null]") {
  Position pos = fen("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
  REQUIRE(pos.in_check());
  for (auto text : {"--", "Z0", "0000"}) {
    SanError e = san_error(pos, text);
    CHECK(e.kind == SanErrorKind::Illegal);
    CHECK_THAT(e.message, Catch::Contains(text));
    CHECK_THAT(e.message, Catch::Contains(to_fen(pos)));
  }
}

TEST_CASE("parse_san reads UCI moves", "[san][parse][uci]") {
  Position start;
  CHECK(san(start, "g1f3") == Move(G1, F3));
  CHECK(san(start, "e2e4") == Move(E2, E4));
  CHECK(san(start, "b1c3") == Move(B1, C3));

  Position promo = fen(promotion_fen);
  for (auto [text, type] :
       {std::pair{"e7e8q", Queen}, {"e7e8r", Rook}, {"e7e8b", Bishop}, {"e7e8n", Knight}}) {
    Move m = san(promo, text);
    CHECK(m == Move(E7, E8, Move::Promotion, type));
  }
  CHECK(san(promo, "e7f8n") == Move(E7, F8, Move::Promotion, Knight));

  CHECK(san(fen(en_passant_fen), "e5d6") == Move(E5, D6, Move::EnPassant));
}

TEST_CASE("parse_san reads UCI castling as the king's step or king-takes-rook",
          "[san][parse][uci]") {
  Position pos = fen(castling_fen);
  CHECK(san(pos, "e1g1") == Move(E1, H1, Move::Castling));
  CHECK(san(pos, "e1h1") == Move(E1, H1, Move::Castling));
  CHECK(san(pos, "e1c1") == Move(E1, A1, Move::Castling));
  CHECK(san(pos, "e1a1") == Move(E1, A1, Move::Castling));
  // The king's ordinary one-square steps are not castling.
  CHECK(san(pos, "e1f1") == Move(E1, F1));
  CHECK(san(pos, "e1d1") == Move(E1, D1));

  Position black = fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  CHECK(san(black, "e8g8") == Move(E8, H8, Move::Castling));
  CHECK(san(black, "e8a8") == Move(E8, A8, Move::Castling));

  // Without the right the king's two-square step is illegal.
  Position no_rights = fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
  CHECK(san_error(no_rights, "e1g1").kind == SanErrorKind::Illegal);
  CHECK(san_error(no_rights, "e1h1").kind == SanErrorKind::Illegal);
}

// --- Errors --------------------------------------------------------------------------------

TEST_CASE("parse_san error kinds are distinct", "[san][error]") {
  CHECK(SanErrorKind::Syntax != SanErrorKind::Illegal);
  CHECK(SanErrorKind::Syntax != SanErrorKind::Ambiguous);
  CHECK(SanErrorKind::Illegal != SanErrorKind::Ambiguous);
  Position knights = fen(two_knights_fen);
  CHECK(san_error(knights, "hello").kind == SanErrorKind::Syntax);
  CHECK(san_error(knights, "Nd5").kind == SanErrorKind::Illegal);
  CHECK(san_error(knights, "Nd2").kind == SanErrorKind::Ambiguous);
}

TEST_CASE("parse_san reports text that is no move as a syntax error", "[san][error]") {
  Position pos;
  for (auto text :
       {"hello", "Nz9", "", "e9", "i4", "N", "Nf", "+", "!!", "Qd1d2d3", "e8=K", "Nf3=Q", "xyz"}) {
    INFO("'" << text << "'");
    SanError e = san_error(pos, text);
    CHECK(e.kind == SanErrorKind::Syntax);
    CHECK_THAT(e.message, Catch::Contains(to_fen(pos)));
  }
}

TEST_CASE("parse_san reports a well-formed impossible move as illegal", "[san][error]") {
  Position pos;
  for (auto text : {"e5", "Nf6", "Ke2", "Qh5", "O-O", "O-O-O", "exd3", "Bb5", "e2e5", "Rxa7"}) {
    SanError e = san_error(pos, text);
    CHECK(e.kind == SanErrorKind::Illegal);
    CHECK_THAT(e.message, Catch::Contains(std::string("'") + text + "'"));
    CHECK_THAT(e.message, Catch::Contains(to_fen(pos)));
  }
  // A pinned piece may not move off the pin line.
  Position pinned = fen("4k3/8/8/8/4b3/5N2/6K1/1N6 w - - 0 1");
  CHECK(san_error(pinned, "Ne5").kind == SanErrorKind::Illegal);
  CHECK(san_error(pinned, "Nfd2").kind == SanErrorKind::Illegal);
}

TEST_CASE("parse_san reports an ambiguous move and lists the candidates", "[san][error]") {
  Position pos = fen(two_knights_fen);
  SanError e = san_error(pos, "Nd2");
  CHECK(e.kind == SanErrorKind::Ambiguous);
  CHECK_THAT(e.message, Catch::Contains("'Nd2'"));
  CHECK_THAT(e.message, Catch::Contains("Nbd2, Nfd2"));
  CHECK_THAT(e.message, Catch::Contains(to_fen(pos)));
  CHECK(san(pos, "Nbd2") == Move(B1, D2));
  CHECK(san(pos, "Nfd2") == Move(F3, D2));
  CHECK(san_error(pos, "Nxd2+").kind == SanErrorKind::Ambiguous);

  // Two rooks on one file: the rank decides.
  Position rooks = fen("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
  CHECK(san_error(rooks, "Ra3").kind == SanErrorKind::Ambiguous);
  CHECK(san(rooks, "R1a3") == Move(A1, A3));
  CHECK(san(rooks, "R5a3") == Move(A5, A3));
}

TEST_CASE("parse_san reports a pawn move to the last rank without a piece as illegal",
          "[san][error]") {
  Position pos = fen(promotion_fen);
  for (auto text : {"e8", "exf8", "e7e8", "e8+"}) {
    SanError e = san_error(pos, text);
    CHECK(e.kind == SanErrorKind::Illegal);
    CHECK_THAT(e.message, Catch::Contains(to_fen(pos)));
  }
  Position black = fen("4k3/8/8/8/8/8/K2p4/8 b - - 0 1");
  CHECK(san_error(black, "d1").kind == SanErrorKind::Illegal);
  CHECK(san(black, "d1=Q") == Move(D2, D1, Move::Promotion, Queen));
}

// Found by fuzz_reader: the square such a capture would come from is off the board, and was read.
TEST_CASE("parse_san reports a pawn capture onto its own first rank as illegal", "[san][error]") {
  CHECK(san_error(fen("R3k3/8/8/8/8/8/8/4K3 b - - 0 1"), "bxa8").kind == SanErrorKind::Illegal);
  CHECK(san_error(fen("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"), "bxa1").kind == SanErrorKind::Illegal);
}

// --- Canonical writing ---------------------------------------------------------------------

TEST_CASE("to_san writes plain moves", "[san][write]") {
  Position pos;
  CHECK(to_san(pos, Move(E2, E4)) == "e4");
  CHECK(to_san(pos, Move(G1, F3)) == "Nf3");
  CHECK(to_san(pos, Move::null()) == "--");
  Position after = play(pos, {"e4", "e5"});
  CHECK(to_san(after, Move(F1, C4)) == "Bc4");
  CHECK(to_san(after, Move(D1, H5)) == "Qh5");
  CHECK(to_san(after, Move(E1, E2)) == "Ke2");
}

TEST_CASE("to_san disambiguates by file when the files differ", "[san][write]") {
  Position pos = fen(two_knights_fen);
  CHECK(to_san(pos, Move(B1, D2)) == "Nbd2");
  CHECK(to_san(pos, Move(F3, D2)) == "Nfd2");
  // Moves only one of them can make need nothing.
  CHECK(to_san(pos, Move(F3, E5)) == "Ne5");
  CHECK(to_san(pos, Move(B1, C3)) == "Nc3");
  // Rooks on one rank also use the file.
  Position rooks = fen("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
  CHECK(to_san(rooks, Move(A1, D1)) == "Rd1");
  CHECK(to_san(rooks, Move(H1, F1)) == "Rf1");  // the king on e1 stands between the rooks
  Position rooks1 = fen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
  CHECK(to_san(rooks1, Move(A1, D1)) == "Rad1");
  CHECK(to_san(rooks1, Move(F1, D1)) == "Rfd1");
  CHECK(to_san(rooks1, Move(F1, F7)) == "Rf7");
  Position rooks2 = fen("4k3/8/8/8/8/8/R6R/4K3 w - - 0 1");
  CHECK(to_san(rooks2, Move(A2, D2)) == "Rad2");
  CHECK(to_san(rooks2, Move(H2, D2)) == "Rhd2");
}

TEST_CASE("to_san disambiguates by rank when the files are the same", "[san][write]") {
  Position pos = fen("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
  CHECK(to_san(pos, Move(A1, A3)) == "R1a3");
  CHECK(to_san(pos, Move(A5, A3)) == "R5a3");
  CHECK(to_san(pos, Move(A5, B5)) == "Rb5");
  // Capture on the shared file.
  Position capture = fen("4k3/8/8/R7/8/n7/8/R3K3 w - - 0 1");
  CHECK(to_san(capture, Move(A1, A3)) == "R1xa3");
  CHECK(to_san(capture, Move(A5, A3)) == "R5xa3");
}

TEST_CASE("to_san disambiguates by file and rank with three queens", "[san][write]") {
  // Queens on a1, a3 and c1 all reach b2.
  Position pos = fen("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1");
  CHECK(to_san(pos, Move(A1, B2)) == "Qa1b2");
  CHECK(to_san(pos, Move(A3, B2)) == "Q3b2");
  CHECK(to_san(pos, Move(C1, B2)) == "Qcb2");
  for (Move m : {Move(A1, B2), Move(A3, B2), Move(C1, B2)}) CHECK(san(pos, to_san(pos, m)) == m);
  CHECK(san_error(pos, "Qb2").kind == SanErrorKind::Ambiguous);
  CHECK(san_error(pos, "Qab2").kind == SanErrorKind::Ambiguous);
  CHECK(san_error(pos, "Q1b2").kind == SanErrorKind::Ambiguous);
}

TEST_CASE("to_san does not disambiguate against a pinned piece", "[san][write]") {
  // The knight on f3 is pinned by the bishop on e4 against the king on g2.
  Position pos = fen("4k3/8/8/8/4b3/5N2/6K1/1N6 w - - 0 1");
  CHECK(to_san(pos, Move(B1, D2)) == "Nd2");
  CHECK(san(pos, "Nd2") == Move(B1, D2));
  // A rook pinned along a file.
  Position rooks = fen("4r1k1/8/8/8/8/8/4R3/R3K3 w - - 0 1");
  CHECK(to_san(rooks, Move(A1, A2)) == "Ra2");
  CHECK(to_san(rooks, Move(E2, E8)) == "Rxe8+");
}

TEST_CASE("to_san writes x for captures, en passant included", "[san][write]") {
  Position pos = fen("4k3/8/8/3p4/4P3/5p2/8/4K1N1 w - - 0 1");
  CHECK(to_san(pos, Move(G1, F3)) == "Nxf3");
  CHECK(to_san(pos, Move(E4, D5)) == "exd5");
  CHECK(to_san(pos, Move(E4, E5)) == "e5");
  Position ep = fen(en_passant_fen);
  CHECK(to_san(ep, Move(E5, D6, Move::EnPassant)) == "exd6");
  CHECK(to_san(ep, Move(E5, E6)) == "e6");
  Position black_ep = play(fen("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1"), {"e4"});
  REQUIRE(black_ep.en_passant() == E3);
  CHECK(to_san(black_ep, Move(F4, E3, Move::EnPassant)) == "fxe3");
}

TEST_CASE("to_san writes promotions and underpromotions with =", "[san][write]") {
  Position pos = fen(promotion_fen);
  CHECK(to_san(pos, Move(E7, E8, Move::Promotion, Queen)) == "e8=Q");
  CHECK(to_san(pos, Move(E7, E8, Move::Promotion, Rook)) == "e8=R");
  CHECK(to_san(pos, Move(E7, E8, Move::Promotion, Bishop)) == "e8=B");
  CHECK(to_san(pos, Move(E7, E8, Move::Promotion, Knight)) == "e8=N");
  CHECK(to_san(pos, Move(E7, F8, Move::Promotion, Knight)) == "exf8=N");
  CHECK(to_san(pos, Move(E7, F8, Move::Promotion, Queen)) == "exf8=Q");
  // With the black king on c8, the new queen or rook gives check along the eighth rank.
  Position check = fen("2k5/4P3/8/8/8/8/8/4K3 w - - 0 1");
  CHECK(to_san(check, Move(E7, E8, Move::Promotion, Queen)) == "e8=Q+");
  CHECK(to_san(check, Move(E7, E8, Move::Promotion, Rook)) == "e8=R+");
  CHECK(to_san(check, Move(E7, E8, Move::Promotion, Bishop)) == "e8=B");
  CHECK(to_san(check, Move(E7, E8, Move::Promotion, Knight)) == "e8=N");
}

TEST_CASE("to_san writes O-O and O-O-O", "[san][write]") {
  Position pos = fen(castling_fen);
  CHECK(to_san(pos, Move(E1, H1, Move::Castling)) == "O-O");
  CHECK(to_san(pos, Move(E1, A1, Move::Castling)) == "O-O-O");
  CHECK(to_uci(pos, Move(E1, H1, Move::Castling)) == "e1g1");
  CHECK(to_uci(pos, Move(E1, A1, Move::Castling)) == "e1c1");
  Position black = fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  CHECK(to_san(black, Move(E8, H8, Move::Castling)) == "O-O");
  CHECK(to_san(black, Move(E8, A8, Move::Castling)) == "O-O-O");
  CHECK(to_uci(black, Move(E8, A8, Move::Castling)) == "e8c8");
  // Castling that gives check.
  Position check = fen("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
  CHECK(to_san(check, Move(E1, H1, Move::Castling)) == "O-O+");
}

TEST_CASE("to_san writes Chess960 castling as O-O and O-O-O", "[san][write][chess960]") {
  // King on b1 between rooks on a1 and h1: O-O-O moves the king only one square, O-O five.
  Position pos = fen("1k5r/8/8/8/8/8/8/RK5R w HA - 0 1");
  REQUIRE(pos.is_chess960());
  const Move short_castle(B1, H1, Move::Castling), long_castle(B1, A1, Move::Castling);
  const MoveList moves = legal_moves(pos);
  CHECK(moves.contains(short_castle));
  CHECK(moves.contains(long_castle));
  CHECK(to_san(pos, short_castle) == "O-O");
  CHECK(to_san(pos, long_castle) == "O-O-O");
  CHECK(to_uci(pos, short_castle) == "b1h1");
  CHECK(to_uci(pos, long_castle) == "b1a1");
  CHECK(san(pos, "O-O") == short_castle);
  CHECK(san(pos, "0-0-0") == long_castle);
  CHECK(san(pos, "b1h1") == short_castle);
  CHECK(san(pos, "b1a1") == long_castle);
  // c1 is also an ordinary king step: Kc1 and b1c1 name that, not castling.
  CHECK(san(pos, "Kc1") == Move(B1, C1));
  CHECK(san(pos, "b1c1") == Move(B1, C1));
  CHECK(to_san(pos, Move(B1, C1)) == "Kc1");

  Position after = pos;
  after.play(short_castle);
  CHECK(after.piece_on(G1) == WhiteKing);
  CHECK(after.piece_on(F1) == WhiteRook);
  CHECK(after.piece_on(A1) == WhiteRook);
  Position long_after = pos;
  long_after.play(long_castle);
  CHECK(long_after.piece_on(C1) == WhiteKing);
  CHECK(long_after.piece_on(D1) == WhiteRook);
}

TEST_CASE("to_san writes Chess960 castling from a Fischer start after the path is cleared",
          "[san][write][chess960]") {
  Position pos = fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
  REQUIRE(pos.is_chess960());
  // The f1 rook stands where the h1 rook must go: no castling yet.
  for (Move m : legal_moves(pos)) CHECK(m.kind() != Move::Castling);
  CHECK(san_error(pos, "O-O").kind == SanErrorKind::Illegal);
  // Rf2 clears f1 (and loses the f-rook's right); the king on g1 then castles without moving.
  pos = play(pos, {"Rf2", "a6"});
  CHECK_FALSE(pos.can_castle(White, QueenSide));
  REQUIRE(pos.can_castle(White, KingSide));
  const Move castle(G1, H1, Move::Castling);
  REQUIRE(legal_moves(pos).contains(castle));
  CHECK(to_san(pos, castle) == "O-O");
  CHECK(to_uci(pos, castle) == "g1h1");
  CHECK(san(pos, "O-O") == castle);
  CHECK(san(pos, "g1h1") == castle);
  pos.play(castle);
  CHECK(pos.piece_on(G1) == WhiteKing);
  CHECK(pos.piece_on(F1) == WhiteRook);
  CHECK(pos.piece_on(H1) == NoPiece);
  CHECK_FALSE(pos.can_castle(White, KingSide));
}

TEST_CASE("to_san writes + for check and # for mate", "[san][write]") {
  Position pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
  CHECK(to_san(pos, Move(A1, A8)) == "Ra8+");
  CHECK(to_san(pos, Move(A1, A7)) == "Ra7");
  Position back_rank = fen("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1");
  CHECK(to_san(back_rank, Move(A1, A8)) == "Ra8#");
  Position fools = play(Position(), {"f3", "e5", "g4"});
  CHECK(to_san(fools, Move(D8, H4)) == "Qh4#");
  // Discovered check.
  Position discovered = fen("4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1");
  CHECK(to_san(discovered, Move(E2, C3)) == "Nc3+");
  // Smothered mate.
  Position smothered = fen("6rk/6pp/7N/8/8/8/8/6K1 w - - 0 1");
  CHECK(to_san(smothered, Move(H6, F7)) == "Nf7#");
}

TEST_CASE("to_uci writes coordinates and promotions in lower case", "[san][write][uci]") {
  Position pos;
  CHECK(to_uci(pos, Move(G1, F3)) == "g1f3");
  CHECK(to_uci(pos, Move::null()) == "0000");
  Position promo = fen(promotion_fen);
  CHECK(to_uci(promo, Move(E7, E8, Move::Promotion, Queen)) == "e7e8q");
  CHECK(to_uci(promo, Move(E7, F8, Move::Promotion, Knight)) == "e7f8n");
  CHECK(to_uci(fen(en_passant_fen), Move(E5, D6, Move::EnPassant)) == "e5d6");
}

// --- Round trip ----------------------------------------------------------------------------

namespace {

struct RoundTrip {
  std::size_t positions = 0, moves = 0;
  std::size_t castling = 0, promotions = 0, en_passant = 0, checks = 0;
  std::vector<std::string> failures;

  void fail(const Position& pos, Move m, const std::string& what) {
    if (failures.size() < 20)
      failures.push_back(to_fen(pos) + " move " + Catch::StringMaker<Move>::convert(m) + ": " +
                         what);
  }

  // Every legal move of `pos`: SAN and UCI read back to the move, and SANs are distinct.
  void check(const Position& pos) {
    ++positions;
    std::set<std::string> sans;
    const MoveList moves_here = legal_moves(pos);
    for (Move m : moves_here) {
      ++moves;
      castling += m.kind() == Move::Castling;
      promotions += m.kind() == Move::Promotion;
      en_passant += m.kind() == Move::EnPassant;
      const std::string s = to_san(pos, m);
      checks += s.ends_with('+') || s.ends_with('#');
      if (!sans.insert(s).second) fail(pos, m, "duplicate SAN " + s);
      auto back = parse_san(pos, s);
      if (!back)
        fail(pos, m, "SAN " + s + " does not parse: " + back.error().message);
      else if (*back != m)
        fail(pos, m, "SAN " + s + " reads as " + Catch::StringMaker<Move>::convert(*back));
      const std::string u = to_uci(pos, m);
      auto back_uci = parse_san(pos, u);
      if (!back_uci)
        fail(pos, m, "UCI " + u + " does not parse: " + back_uci.error().message);
      else if (*back_uci != m)
        fail(pos, m, "UCI " + u + " reads as " + Catch::StringMaker<Move>::convert(*back_uci));
    }
    if (sans.size() != moves_here.size()) fail(pos, Move::none(), "SANs not distinct");
  }

  // A deterministic random playout of up to `plies` plies from `pos`, checking each position.
  void playout(Position pos, int plies, std::mt19937_64& rng) {
    for (int ply = 0; ply <= plies; ++ply) {
      check(pos);
      const MoveList moves_here = legal_moves(pos);
      if (moves_here.empty()) return;
      pos.play(moves_here[rng() % moves_here.size()]);
    }
  }

  void report() const {
    INFO(positions << " positions, " << moves << " moves (" << castling << " castling, "
                   << promotions << " promotions, " << en_passant << " en passant, " << checks
                   << " checks)");
    for (const auto& f : failures) UNSCOPED_INFO(f);
    CHECK(failures.empty());
  }
};

}  // namespace

TEST_CASE("SAN and UCI round trip over random playouts from the start position",
          "[san][roundtrip]") {
  RoundTrip rt;
  std::mt19937_64 rng(20240601);
  for (int game = 0; game < 300; ++game) rt.playout(Position(), 300, rng);
  rt.report();
  CHECK(rt.positions > 20000);
  CHECK(rt.castling > 100);
  CHECK(rt.promotions > 100);
  CHECK(rt.en_passant > 10);
}

TEST_CASE("SAN and UCI round trip over the tricky perft positions", "[san][roundtrip]") {
  const auto positions = perft_positions("perft/shakmaty/tricky.perft");
  REQUIRE(positions.size() > 20);
  RoundTrip rt;
  std::mt19937_64 rng(7);
  for (const auto& pos : positions)
    for (int i = 0; i < 20; ++i) rt.playout(pos, 40, rng);
  rt.report();
  CHECK(rt.promotions > 0);
  CHECK(rt.en_passant > 0);
  CHECK(rt.castling > 0);
}

TEST_CASE("SAN and UCI round trip over the random perft positions", "[san][roundtrip]") {
  const auto fens = perft_fens("perft/shakmaty/random.perft");
  REQUIRE(fens.size() > 1000);
  RoundTrip rt;
  std::mt19937_64 rng(11);
  for (const auto& f : fens) {
    auto pos = parse_fen(f);
    INFO(f);
    REQUIRE(pos.has_value());
    rt.playout(*pos, 4, rng);
  }
  rt.report();
}

TEST_CASE("SAN and UCI round trip over Chess960 starts", "[san][roundtrip][chess960]") {
  const auto fens = perft_fens("perft/shakmaty/chess960.perft");
  REQUIRE(fens.size() >= 960);
  RoundTrip rt;
  std::mt19937_64 rng(960);
  for (const auto& f : fens) {
    auto pos = parse_fen(f);
    INFO(f);
    REQUIRE(pos.has_value());
    rt.playout(*pos, 60, rng);
  }
  rt.report();
  CHECK(rt.castling > 100);
}

// --- Differential check against pgn-extract -----------------------------------------------

namespace {

// Random games written with to_san, as PGN with move numbers.
struct WrittenGame {
  std::string start_fen;  // empty for the standard start
  std::vector<std::string> sans;
};

std::string pgn_text(const std::vector<WrittenGame>& games, const std::vector<Position>& starts) {
  std::ostringstream out;
  for (std::size_t g = 0; g < games.size(); ++g) {
    out << "[Event \"g" << g << "\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
        << "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n";
    if (!games[g].start_fen.empty())
      out << "[SetUp \"1\"]\n[FEN \"" << games[g].start_fen << "\"]\n";
    out << "\n";
    Position pos = starts[g];
    int n = 0;
    for (const auto& s : games[g].sans) {
      if (pos.side_to_move() == White)
        out << pos.fullmove_number() << ". ";
      else if (n == 0)
        out << pos.fullmove_number() << "... ";
      out << s << (++n % 8 == 0 ? "\n" : " ");
      pos.play(*parse_san(pos, s));
    }
    out << "*\n\n";
  }
  return out.str();
}

}  // namespace

TEST_CASE("to_san agrees with pgn-extract on random games", "[san][pgn-extract]") {
  const char* tool = "/usr/games/pgn-extract";
  if (!std::filesystem::exists(tool)) {
    WARN("pgn-extract not installed; differential check skipped");
    return;
  }
  std::vector<WrittenGame> games;
  std::vector<Position> starts;
  std::mt19937_64 rng(4242);
  std::vector<std::string> start_fens(60, "");
  for (const auto& p : perft_positions("perft/shakmaty/tricky.perft"))
    if (!p.is_chess960()) start_fens.push_back(to_fen(p));
  for (const auto& f : start_fens) {
    Position pos = f.empty() ? Position() : fen(f);
    starts.push_back(pos);
    WrittenGame g{f, {}};
    for (int ply = 0; ply < 250; ++ply) {
      const MoveList moves = legal_moves(pos);
      if (moves.empty()) break;
      Move m = moves[rng() % moves.size()];
      g.sans.push_back(to_san(pos, m));
      pos.play(m);
    }
    games.push_back(std::move(g));
  }

  const TempDir dir;
  const auto in_path = dir / "games.pgn";
  const auto out_path = dir / "games.out";
  write_file(in_path, pgn_text(games, starts));
  const std::string command = std::string(tool) + " -s -Wsan --nomovenumbers --notags -w 75 -o " +
                              out_path.string() + " " + in_path.string() + " 2>/dev/null";
  const int status = std::system(command.c_str());
  std::ifstream out(out_path);
  std::vector<std::vector<std::string>> theirs(1);
  std::string token;
  while (out >> token) {
    if (token == "*" || token == "1-0" || token == "0-1" || token == "1/2-1/2")
      theirs.emplace_back();
    else
      theirs.back().push_back(token);
  }
  theirs.pop_back();
  REQUIRE(status == 0);
  REQUIRE(theirs.size() == games.size());
  std::size_t compared = 0, differences = 0;
  for (std::size_t g = 0; g < games.size(); ++g) {
    INFO("game " << g << " from " << (games[g].start_fen.empty() ? "start" : games[g].start_fen));
    REQUIRE(theirs[g].size() == games[g].sans.size());
    for (std::size_t i = 0; i < games[g].sans.size(); ++i) {
      ++compared;
      if (theirs[g][i] != games[g].sans[i] && ++differences <= 10)
        FAIL_CHECK("ply " << i << ": ours " << games[g].sans[i] << ", pgn-extract "
                          << theirs[g][i]);
    }
  }
  CHECK(differences == 0);
  CHECK(compared > 10000);
}

// --- Piece letters of other languages, and figurines (piece_letters.h) ---

TEST_CASE("moves in other languages' piece letters and in figurines read as English SAN") {
  using pgn::piece_letters;
  const auto cs = *piece_letters("cs"), de = *piece_letters("de"), hu = *piece_letters("hu"),
             fr = *piece_letters("fr"), en = *piece_letters("en");
  // S is a bishop in Czech and a knight in German; B a bishop in English and a rook in Hungarian.
  CHECK(pgn::english_san("Sb5+", cs) == "Bb5+");
  CHECK(pgn::english_san("Sf3", de) == "Nf3");
  CHECK(pgn::english_san("Bxa8", hu) == "Rxa8");
  CHECK(pgn::english_san("Bxa8", en) == "Bxa8");
  // French: R is the king, D the queen; promotion letters too; castling stays O-O.
  CHECK(pgn::english_san("Rxe2", fr) == "Kxe2");
  CHECK(pgn::english_san("e8=D#", fr) == "e8=Q#");
  CHECK(pgn::english_san("O-O-O", fr) == "O-O-O");
  // Figurines, of either colour for either side, in any language; a pawn's is dropped.
  CHECK(pgn::english_san("\u2658f3", en) == "Nf3");    // ♘f3
  CHECK(pgn::english_san("\u265exe4", cs) == "Nxe4");  // ♞xe4
  CHECK(pgn::english_san("e8=\u2655", de) == "e8=Q");  // e8=♕
  CHECK(pgn::english_san("\u2659e4", en) == "e4");     // ♙e4
  CHECK(pgn::english_san("\u2654\u2655\u2656\u2657", en) == "KQRB");
  CHECK(pgn::has_figurine("\u265ac6"));
  CHECK_FALSE(pgn::has_figurine("Nc6"));

  const pgn::Position start;
  auto knight = pgn::parse_san(start, "Jf3", cs);
  REQUIRE(knight);
  CHECK(pgn::to_san(start, *knight) == "Nf3");
  auto figurine = pgn::parse_san(start, "\u2658c3", en);
  REQUIRE(figurine);
  CHECK(pgn::to_san(start, *figurine) == "Nc3");
  // A capital the language does not use is not read as English: B is no Czech piece.
  const auto open_game =
      pgn::parse_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  REQUIRE(open_game);
  REQUIRE(pgn::parse_san(*open_game, "Bb5", en));
  auto english_letter = pgn::parse_san(*open_game, "Bb5", cs);
  REQUIRE_FALSE(english_letter);
  CHECK(english_letter.error().kind == pgn::SanErrorKind::Syntax);
  CHECK(pgn::parse_san(*open_game, "Sb5", cs));
  CHECK(pgn::parse_san(start, "O-O", cs).error().kind == pgn::SanErrorKind::Illegal);
  // An error names the move as written.
  auto wrong = pgn::parse_san(start, "Jf4", cs);
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().message.find("'Jf4'") != std::string::npos);
  // Every language has five different letters, and one of them for each piece.
  for (const auto& l : pgn::piece_letter_languages()) {
    INFO(l.name);
    CHECK(l.language.size() == 2);
    std::string letters(l.letters.begin(), l.letters.end());
    std::sort(letters.begin(), letters.end());
    CHECK(std::adjacent_find(letters.begin(), letters.end()) == letters.end());
    CHECK(pgn::piece_letters(l.language)->name == l.name);
  }
  CHECK_FALSE(pgn::piece_letters("xx"));
}
