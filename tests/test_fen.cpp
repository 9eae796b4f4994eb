// FEN and EPD reading and writing: round trips, every error code with its message, Chess960
// castling (Shredder-FEN in, X-FEN out) and the state a parsed Position reports.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>

#include "pgn/fen.h"
#include "pgn/movegen.h"
#include "pgn/position.h"
#include "support.h"

using namespace pgn;
using namespace pgndb::test;
using Catch::Matchers::Contains;

namespace {

const std::string kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

FenErrors parse_bad(std::string_view fen) {
  INFO("FEN: " << fen);
  auto pos = parse_fen(fen);
  REQUIRE_FALSE(pos.has_value());
  return pos.error();
}

// The message of the first problem with `code` ("" when there is none).
std::string message_of(const FenErrors& errors, FenError code) {
  for (const auto& p : errors.problems)
    if (p.code == code) return p.message;
  return "";
}

// Checks that `fen` fails with exactly one problem, `code`, whose message contains `needle`.
void check_single_error(std::string_view fen, FenError code, const std::string& needle) {
  INFO("FEN: " << fen);
  const FenErrors errors = parse_bad(fen);
  INFO("errors: " << errors.message());
  CHECK(errors.has(code));
  CHECK(errors.problems.size() == 1);
  CHECK_THAT(message_of(errors, code), Contains(needle));
}

}  // namespace

// --- Round trips ---

TEST_CASE("parse_fen then to_fen gives back the same text") {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/3P1N1P/PPP1NPP1/R4RK1 w - - 0 10",
      // En passant squares where a pawn of the side to move can capture.
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
      "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
      "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 40",
      // Partial castling rights, black to move, large clocks.
      "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 5 40",
      "8/P7/8/8/8/8/7p/K6k w - - 0 60",
      "4k3/8/8/8/8/8/8/4K3 w - - 100 200",
      "8/8/8/8/8/8/8/K6k b - - 65535 65535",
      // Chess960 with the outermost rooks (written KQkq).
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
  };
  for (std::string_view text : fens) {
    INFO("FEN: " << text);
    CHECK(to_fen(fen(text)) == text);
  }
}

TEST_CASE("start_fen parses to the start position") {
  CHECK(fen(start_fen) == Position::start());
  CHECK(to_fen(Position::start()) == start_fen);
}

TEST_CASE("an en passant square nobody can capture on is accepted but not kept") {
  // 1.e4: no black pawn stands beside e4.
  const Position pos = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  CHECK(pos.en_passant() == NoSquare);
  CHECK(to_fen(pos) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");

  // 1.e4 d5: d6 is a legal en passant target, but White's pawn on e4 is not beside d5.
  const Position pos2 = fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
  CHECK(pos2.en_passant() == NoSquare);
  CHECK(to_fen(pos2) == "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
}

TEST_CASE("an en passant square a pawn can capture on is kept") {
  const Position pos = fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  CHECK(pos.en_passant() == F6);
  int ep_moves = 0;
  for (Move m : legal_moves(pos))
    if (m.kind() == Move::EnPassant) {
      ++ep_moves;
      CHECK(m.from() == E5);
      CHECK(m.to() == F6);
    }
  CHECK(ep_moves == 1);
}

TEST_CASE("EPD (4 fields) gets halfmove clock 0 and fullmove number 1") {
  const Position pos = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
  CHECK(pos.halfmove_clock() == 0);
  CHECK(pos.fullmove_number() == 1);
  CHECK(pos == Position::start());
  CHECK(to_fen(pos) == start_fen);

  const Position kiwi = fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq -");
  CHECK(kiwi.side_to_move() == Black);
  CHECK(to_fen(kiwi) == "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1");
}

TEST_CASE("5 fields give the halfmove clock and fullmove number 1") {
  const Position pos = fen("4k3/8/8/8/8/8/8/4K3 w - - 17");
  CHECK(pos.halfmove_clock() == 17);
  CHECK(pos.fullmove_number() == 1);
}

TEST_CASE("fields may be separated by several spaces or tabs") {
  const Position pos = fen("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR \t w  KQkq   -  0   1  ");
  CHECK(pos == Position::start());
}

TEST_CASE("fullmove number 0 is read as 1") {
  CHECK(fen("4k3/8/8/8/8/8/8/4K3 w - - 0 0").fullmove_number() == 1);
}

// --- One test per error code ---

TEST_CASE("WrongFieldCount: fewer than 4 or more than 6 fields") {
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
                     FenError::WrongFieldCount, "found 3");
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
                     FenError::WrongFieldCount, "found 7");
  const FenErrors empty = parse_bad("");
  CHECK(empty.has(FenError::WrongFieldCount));
  CHECK_THAT(message_of(empty, FenError::WrongFieldCount), Contains("found 0"));
  CHECK(parse_bad("   ").has(FenError::WrongFieldCount));
}

TEST_CASE("BadPlacement: too many ranks") {
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     FenError::BadPlacement, "more than 8 ranks");
}

TEST_CASE("BadPlacement: too few ranks") {
  check_single_error("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     FenError::BadPlacement, "7 ranks");
}

TEST_CASE("BadPlacement: a rank with 9 squares") {
  check_single_error("rnbqkbnr/pppppppp/8/8/4P4/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
                     FenError::BadPlacement, "rank 4 has more than 8 squares");
  check_single_error("rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     FenError::BadPlacement, "rank 8 has more than 8 squares");
  check_single_error("rnbqkbnr/pppppppp/6p2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     FenError::BadPlacement, "rank 6 has more than 8 squares");
  // Digits count 1 to 8 empty squares; 9 is no digit FEN knows.
  check_single_error("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     FenError::BadPlacement, "'9'");
}

TEST_CASE("BadPlacement: a rank with 7 squares") {
  check_single_error("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     FenError::BadPlacement, "rank 6 has 7 squares");
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
                     FenError::BadPlacement, "rank 1 has 7 squares");
}

TEST_CASE("BadPlacement: a letter that is no piece") {
  check_single_error("rnbqkbnr/pppppppp/8/8/4X3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     FenError::BadPlacement, "'X'");
  check_single_error("rnbqkbnr/pppppppp/8/8/0/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     FenError::BadPlacement, "'0'");
}

TEST_CASE("BadSideToMove: not w or b") {
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                     FenError::BadSideToMove, "'x'");
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1",
                     FenError::BadSideToMove, "'white'");
}

TEST_CASE("BadCastling: a letter that is no castling right") {
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
                     FenError::BadCastling, "'x'");
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ-q - 0 1",
                     FenError::BadCastling, "'-'");
}

TEST_CASE("BadCastling: a right given twice") {
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1",
                     FenError::BadCastling, "twice");
  // The same right written in X-FEN and Shredder-FEN.
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqa - 0 1",
                     FenError::BadCastling, "KQkqa");
}

TEST_CASE("BadEnPassant: not a square") {
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                     FenError::BadEnPassant, "e9");
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z3 0 1",
                     FenError::BadEnPassant, "z3");
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e36 0 1",
                     FenError::BadEnPassant, "e36");
}

TEST_CASE("BadHalfmoveClock: not a number from 0 to 65535") {
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                     FenError::BadHalfmoveClock, "'x'");
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
                     FenError::BadHalfmoveClock, "'-1'");
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65536 1",
                     FenError::BadHalfmoveClock, "'65536'");
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3x 1",
                     FenError::BadHalfmoveClock, "'3x'");
}

TEST_CASE("BadFullmoveNumber: not a number from 1 to 65535") {
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one",
                     FenError::BadFullmoveNumber, "'one'");
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 65536",
                     FenError::BadFullmoveNumber, "'65536'");
}

TEST_CASE("MissingKing: a side without a king") {
  check_single_error("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", FenError::MissingKing,
                     "Black");
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1", FenError::MissingKing,
                     "White");
}

TEST_CASE("TooManyKings: a side with two kings") {
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1",
                     FenError::TooManyKings, "White has 2 kings");
}

TEST_CASE("more pieces than a game can reach is accepted (move-generator test positions)") {
  auto pos = parse_fen("kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1");
  REQUIRE(pos);
  CHECK(popcount(pos->pieces(White)) == 28);  // 1 king, 2 bishops, 1 rook, 24 queens
  CHECK(to_fen(*pos) == "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1");
}

TEST_CASE("PawnOnBackRank: a pawn on rank 1 or 8") {
  check_single_error("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", FenError::PawnOnBackRank, "a8");
  check_single_error("4k3/8/8/8/8/8/8/4K2p w - - 0 1", FenError::PawnOnBackRank, "h1");
}

TEST_CASE("OpponentInCheck: the side not to move is in check") {
  check_single_error("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", FenError::OpponentInCheck,
                     "Black is in check");
  check_single_error("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", FenError::OpponentInCheck,
                     "White is in check");
  // The same boards with the checked side to move are fine.
  CHECK(parse_fen("4k3/4R3/8/8/8/8/8/4K3 b - - 0 1").has_value());
  CHECK(parse_fen("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1").has_value());
}

TEST_CASE("CastlingWithoutRook: a right whose rook is missing") {
  check_single_error("r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", FenError::CastlingWithoutRook, "'K'");
  // Shredder-FEN naming a file with no rook on it.
  check_single_error("r3k2r/8/8/8/8/8/8/R3K2R w KQkg - 0 1", FenError::CastlingWithoutRook, "'g'");
}

TEST_CASE("CastlingWithoutRook: a right whose king is off its back rank") {
  const FenErrors errors = parse_bad("r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1");
  CHECK(errors.has(FenError::CastlingWithoutRook));
  CHECK(errors.problems.size() == 2);  // both of White's rights
  CHECK_THAT(errors.message(), Contains("'K'") && Contains("'Q'"));
}

TEST_CASE("ImpossibleEnPassant: en passant square on the wrong rank for the side to move") {
  check_single_error("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
                     FenError::ImpossibleEnPassant, "e3");
  check_single_error("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
                     FenError::ImpossibleEnPassant, "e4");
}

TEST_CASE("ImpossibleEnPassant: no pawn in front of the en passant square") {
  check_single_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
                     FenError::ImpossibleEnPassant, "e3");
  // A piece other than a pawn there.
  check_single_error("rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/R1BQKBNR b KQkq e3 0 1",
                     FenError::ImpossibleEnPassant, "e3");
  // A pawn of the side to move there.
  check_single_error("rnbqkbnr/pppp1ppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
                     FenError::ImpossibleEnPassant, "e6");
}

TEST_CASE("ImpossibleEnPassant: the square the pawn came from or passed is occupied") {
  // A bishop on e2, where the pawn came from.
  check_single_error("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1",
                     FenError::ImpossibleEnPassant, "e3");
  // A knight on e3, the square the pawn passed.
  check_single_error("rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1",
                     FenError::ImpossibleEnPassant, "e3");
}

TEST_CASE("a FEN with several problems reports all of them") {
  const FenErrors errors = parse_bad("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - - y 1");
  CHECK(errors.has(FenError::MissingKing));
  CHECK(errors.has(FenError::BadSideToMove));
  CHECK(errors.has(FenError::BadHalfmoveClock));
  CHECK(errors.problems.size() == 3);
  const std::string message = errors.message();
  CHECK_THAT(message, Contains("Black has no king") && Contains("'x'") && Contains("'y'"));
  CHECK(std::count(message.begin(), message.end(), ';') == 2);

  const FenErrors more = parse_bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQzq e9 -3 0x");
  CHECK(more.has(FenError::BadCastling));
  CHECK(more.has(FenError::BadEnPassant));
  CHECK(more.has(FenError::BadHalfmoveClock));
  CHECK(more.has(FenError::BadFullmoveNumber));
  CHECK(more.problems.size() == 4);
}

TEST_CASE("FenErrors::has is false for codes that did not occur") {
  const FenErrors errors = parse_bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1");
  CHECK(errors.has(FenError::BadSideToMove));
  CHECK_FALSE(errors.has(FenError::BadPlacement));
  CHECK_FALSE(errors.has(FenError::MissingKing));
  CHECK(errors.message() == message_of(errors, FenError::BadSideToMove));
}

// --- Chess960 ---

TEST_CASE("Shredder-FEN HFhf selects the rooks on the h- and f-files") {
  // White: bishop a1, queen b1, bishop d1, knight e1, rooks f1 and h1 around the king on g1.
  const Position pos = fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
  CHECK(pos.is_chess960());
  CHECK(pos.king_square(White) == G1);
  CHECK(pos.king_square(Black) == G8);
  CHECK(pos.castling_rights() == 0xF);
  CHECK(pos.castling_rook(White, KingSide) == H1);
  CHECK(pos.castling_rook(White, QueenSide) == F1);
  CHECK(pos.castling_rook(Black, KingSide) == H8);
  CHECK(pos.castling_rook(Black, QueenSide) == F8);
  // Each rook is the only one on its side of the king, so X-FEN writes KQkq.
  CHECK(to_fen(pos) == "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
  // And reading that X-FEN gives the same position back.
  CHECK(fen(to_fen(pos)) == pos);
}

TEST_CASE("X-FEN KQkq selects the outermost rooks") {
  const Position pos = fen("1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1");
  CHECK(pos.is_chess960());
  CHECK(pos.castling_rook(White, KingSide) == G1);
  CHECK(pos.castling_rook(White, QueenSide) == B1);
  CHECK(pos.castling_rook(Black, KingSide) == G8);
  CHECK(pos.castling_rook(Black, QueenSide) == B8);
  CHECK(to_fen(pos) == "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1");

  // Two rooks on each side of the king: K and Q take the outer ones.
  const Position two = fen("rr1k1rr1/8/8/8/8/8/8/RR1K1RR1 w KQkq - 0 1");
  CHECK(two.castling_rook(White, KingSide) == G1);
  CHECK(two.castling_rook(White, QueenSide) == A1);
  CHECK(two.castling_rook(Black, KingSide) == G8);
  CHECK(two.castling_rook(Black, QueenSide) == A8);
  CHECK(to_fen(two) == "rr1k1rr1/8/8/8/8/8/8/RR1K1RR1 w KQkq - 0 1");
}

TEST_CASE("to_fen writes the file letter for a castling rook that is not the outermost") {
  // Inner rooks b and f: both need their file letter.
  const Position inner = fen("rr1k1rr1/8/8/8/8/8/8/RR1K1RR1 w BFbf - 0 1");
  CHECK(inner.castling_rook(White, KingSide) == F1);
  CHECK(inner.castling_rook(White, QueenSide) == B1);
  CHECK(inner.castling_rook(Black, KingSide) == F8);
  CHECK(inner.castling_rook(Black, QueenSide) == B8);
  CHECK(to_fen(inner) == "rr1k1rr1/8/8/8/8/8/8/RR1K1RR1 w FBfb - 0 1");
  CHECK(fen(to_fen(inner)) == inner);

  // Outer king-side rook (K), inner queen-side rook (B).
  const Position mixed = fen("rr1k1rr1/8/8/8/8/8/8/RR1K1RR1 w GBgb - 0 1");
  CHECK(mixed.castling_rook(White, KingSide) == G1);
  CHECK(mixed.castling_rook(White, QueenSide) == B1);
  CHECK(to_fen(mixed) == "rr1k1rr1/8/8/8/8/8/8/RR1K1RR1 w KBkb - 0 1");
  CHECK(fen(to_fen(mixed)) == mixed);
}

TEST_CASE("Shredder-FEN for the standard setup is the standard position") {
  const Position pos = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
  CHECK_FALSE(pos.is_chess960());
  CHECK(pos == Position::start());
  CHECK(to_fen(pos) == start_fen);
}

TEST_CASE("standard FENs are not Chess960") {
  CHECK_FALSE(Position::start().is_chess960());
  CHECK_FALSE(fen(start_fen).is_chess960());
  CHECK_FALSE(fen(kiwipete).is_chess960());
  CHECK_FALSE(fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_chess960());
  CHECK_FALSE(fen("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 5 40").is_chess960());
}

TEST_CASE("castling rights with the king off the e-file make the position Chess960") {
  const Position pos = fen("r2k3r/8/8/8/8/8/8/R2K3R w KQkq - 0 1");
  CHECK(pos.is_chess960());
  CHECK(pos.castling_rook(White, KingSide) == H1);
  CHECK(pos.castling_rook(White, QueenSide) == A1);
}

// --- State ---

TEST_CASE("a parsed position reports its side, clocks and pieces") {
  const Position pos = fen(kiwipete);
  CHECK(pos.side_to_move() == White);
  CHECK(pos.halfmove_clock() == 0);
  CHECK(pos.fullmove_number() == 1);
  CHECK(pos.en_passant() == NoSquare);
  CHECK(pos.castling_rights() == 0xF);
  CHECK(pos.castling_rook(White, KingSide) == H1);
  CHECK(pos.castling_rook(White, QueenSide) == A1);
  CHECK(pos.castling_rook(Black, KingSide) == H8);
  CHECK(pos.castling_rook(Black, QueenSide) == A8);
  CHECK(pos.piece_on(E1) == WhiteKing);
  CHECK(pos.piece_on(E8) == BlackKing);
  CHECK(pos.piece_on(A8) == BlackRook);
  CHECK(pos.piece_on(E7) == BlackQueen);
  CHECK(pos.piece_on(G7) == BlackBishop);
  CHECK(pos.piece_on(A6) == BlackBishop);
  CHECK(pos.piece_on(B6) == BlackKnight);
  CHECK(pos.piece_on(H3) == BlackPawn);
  CHECK(pos.piece_on(D5) == WhitePawn);
  CHECK(pos.piece_on(E5) == WhiteKnight);
  CHECK(pos.piece_on(F3) == WhiteQueen);
  CHECK(pos.piece_on(D2) == WhiteBishop);
  CHECK(pos.piece_on(A1) == WhiteRook);
  CHECK(pos.piece_on(B1) == NoPiece);
  CHECK(pos.piece_on(E4) == WhitePawn);
  CHECK(pos.piece_on(B4) == BlackPawn);
  CHECK(popcount(pos.occupied()) == 32);
  CHECK(popcount(pos.pieces(White)) == 16);
  CHECK(popcount(pos.pieces(Black, Pawn)) == 8);
  CHECK_FALSE(pos.in_check());
  CHECK(pos.checkers() == 0);
  CHECK(legal_moves(pos).size() == 48);

  const Position black = fen("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 5 40");
  CHECK(black.side_to_move() == Black);
  CHECK(black.halfmove_clock() == 5);
  CHECK(black.fullmove_number() == 40);
  CHECK(black.can_castle(White, KingSide));
  CHECK_FALSE(black.can_castle(White, QueenSide));
  CHECK_FALSE(black.can_castle(Black, KingSide));
  CHECK(black.can_castle(Black, QueenSide));
}

TEST_CASE("a parsed position reports check and its checkers") {
  // Fool's mate.
  const Position mate = fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  CHECK(mate.in_check());
  CHECK(mate.checkers() == square_bb(H4));
  CHECK(mate.is_checkmate());

  // Double check by a rook and a knight, Black to move.
  const Position double_check = fen("R3k3/8/3N4/8/8/8/8/4K3 b - - 0 1");
  CHECK(double_check.in_check());
  CHECK(double_check.checkers() == (square_bb(A8) | square_bb(D6)));

  // A single check by a rook next to the king.
  const Position rook_check = fen("4k3/4R3/8/8/8/8/8/4K3 b - - 0 1");
  CHECK(rook_check.in_check());
  CHECK(rook_check.checkers() == square_bb(E7));
  CHECK_FALSE(rook_check.is_checkmate());
  CHECK_FALSE(fen(start_fen).in_check());
}
