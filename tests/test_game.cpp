// How games end (game.h, position.h): checkmate, stalemate, insufficient material, the 50- and
// 75-move rules, and three- and fivefold repetition with what makes positions differ.
#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <string_view>

#include "pgn/fen.h"
#include "pgn/game.h"
#include "pgn/game_ending.h"
#include "pgn/game_result.h"
#include "pgn/material.h"
#include "pgn/movegen.h"
#include "pgn/san.h"
#include "support.h"

namespace Catch {
template <>
struct StringMaker<pgn::Ending> {
  static std::string convert(pgn::Ending e) { return std::string(pgn::to_text(e)); }
};
}  // namespace Catch

namespace {

using namespace pgn;
using namespace pgndb::test;

// Plays SAN moves in `game`, failing the test case on a move that does not resolve.
void play(Game& game, std::initializer_list<std::string_view> moves) {
  for (std::string_view text : moves) {
    auto m = parse_san(game.position(), text);
    INFO("playing '" << text << "' in " << to_fen(game.position()));
    if (!m) FAIL(m.error().message);
    game.play(*m);
  }
}

// How the game ended by itself so far (None when it has not), and the draw the current position
// lets the player to move claim (None when there is none, or the game ended by itself).
Ending by_itself(const Game& game) {
  const Ending e = game.ending().ending;
  return ends_by_itself(e) ? e : Ending::None;
}
Ending claim(const Game& game) {
  const Ending e = game.ending().ending;
  return e == Ending::Threefold || e == Ending::Fifty ? e : Ending::None;
}

void knight_cycle(Game& game) { play(game, {"Nf3", "Nf6", "Ng1", "Ng8"}); }

bool insufficient(std::string_view f) { return pgn::insufficient_material(fen(f)); }

}  // namespace

// --- Checkmate and stalemate ---------------------------------------------------------------

TEST_CASE("Fool's mate played from the start is checkmate", "[game][checkmate]") {
  Game game;
  play(game, {"f3", "e5", "g4"});
  CHECK(by_itself(game) == Ending::None);
  CHECK_FALSE(game.position().is_checkmate());
  play(game, {"Qh4#"});
  CHECK(game.position().in_check());
  CHECK(game.position().is_checkmate());
  CHECK_FALSE(game.position().is_stalemate());
  CHECK(legal_moves(game.position()).empty());
  CHECK(by_itself(game) == Ending::Checkmate);
  CHECK(claim(game) == Ending::None);
}

TEST_CASE("Check that is not mate ends nothing", "[game][checkmate]") {
  Game game;
  play(game, {"e4", "f6", "Qh5+"});
  CHECK(game.position().in_check());
  CHECK_FALSE(game.position().is_checkmate());
  CHECK(by_itself(game) == Ending::None);
}

TEST_CASE("A known stalemate position is stalemate", "[game][stalemate]") {
  Position pos = fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  CHECK_FALSE(pos.in_check());
  CHECK(pos.is_stalemate());
  CHECK_FALSE(pos.is_checkmate());
  CHECK(by_itself(Game(pos)) == Ending::Stalemate);
  // Same men, White to move: the game goes on.
  Position white = fen("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1");
  CHECK_FALSE(white.is_stalemate());
  CHECK(by_itself(Game(white)) == Ending::None);
}

TEST_CASE("A move that stalemates ends the game as stalemate", "[game][stalemate]") {
  Game game(fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"));
  CHECK(by_itself(game) == Ending::None);
  play(game, {"Qf7"});
  CHECK(game.position().is_stalemate());
  CHECK(by_itself(game) == Ending::Stalemate);
}

// --- Insufficient material -----------------------------------------------------------------

TEST_CASE("Insufficient material: K v K, K+N v K, K+B v K", "[game][material]") {
  CHECK(insufficient("8/8/8/4k3/8/8/8/4K3 w - - 0 1"));
  CHECK(insufficient("8/8/8/4k3/8/8/8/4KN2 w - - 0 1"));
  CHECK(insufficient("8/8/8/4k3/8/8/8/4KB2 w - - 0 1"));
  CHECK(insufficient("8/8/8/4k3/8/8/8/4K1n1 b - - 0 1"));
  CHECK(insufficient("8/8/8/4k3/8/8/8/4K1b1 w - - 0 1"));
}

TEST_CASE("Insufficient material: bishops all on one colour", "[game][material]") {
  // c1 and f8 are both dark squares.
  CHECK(insufficient("5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1"));
  // Light squares: f1 and c8.
  CHECK(insufficient("2b5/8/8/4k3/8/8/8/4KB2 w - - 0 1"));
  // Two bishops of one side on the same colour (c1 and e3), and more besides.
  CHECK(insufficient("8/8/8/4k3/8/4B3/8/2B1K3 w - - 0 1"));
  CHECK(insufficient("5b2/b7/8/4k3/8/4B3/8/2B1K3 w - - 0 1"));
}

TEST_CASE("Sufficient material: opposite bishops, two knights, pawns and rooks",
          "[game][material]") {
  // c1 is dark, c8 light.
  CHECK_FALSE(insufficient("2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1"));
  CHECK_FALSE(insufficient("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1"));    // K+N+N v K
  CHECK_FALSE(insufficient("6n1/8/8/4k3/8/8/8/4KN2 w - - 0 1"));   // K+N v K+N
  CHECK_FALSE(insufficient("6n1/8/8/4k3/8/8/8/2B1K3 w - - 0 1"));  // K+B v K+N
  CHECK_FALSE(insufficient("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"));    // K+P v K
  CHECK_FALSE(insufficient("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"));     // K+R v K
  CHECK_FALSE(insufficient("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"));     // K+Q v K
  CHECK_FALSE(insufficient("8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1"));   // K+B+B (both colours) v K
  CHECK_FALSE(pgn::insufficient_material(Position()));
}

TEST_CASE("A capture leaving bare kings ends the game by insufficient material",
          "[game][material]") {
  Game game(fen("8/8/8/4k3/8/8/3p4/4K3 w - - 0 1"));
  CHECK(by_itself(game) == Ending::None);
  play(game, {"Kxd2"});
  CHECK(by_itself(game) == Ending::InsufficientMaterial);
}

// --- 50- and 75-move rules -----------------------------------------------------------------

TEST_CASE("Fifty-move claim from a halfmove clock of 100", "[game][fifty]") {
  const char* rook_ending = "8/8/8/4k3/8/8/8/R3K3 w - - %d 80";
  auto at = [&](int clock) {
    std::string f = rook_ending;
    f.replace(f.find("%d"), 2, std::to_string(clock));
    return Game(fen(f));
  };
  CHECK(claim(at(99)) == Ending::None);
  CHECK(claim(at(100)) == Ending::Fifty);
  CHECK(claim(at(120)) == Ending::Fifty);
  CHECK(by_itself(at(100)) == Ending::None);
  CHECK(by_itself(at(149)) == Ending::None);

  // Playing the hundredth reversible half-move makes the claim available.
  Game game = at(99);
  play(game, {"Ra2"});
  CHECK(game.position().halfmove_clock() == 100);
  CHECK(claim(game) == Ending::Fifty);
}

TEST_CASE("A capture or pawn move resets the fifty-move count", "[game][fifty]") {
  Game capture(fen("8/8/8/4k3/8/8/r7/R3K3 w - - 99 80"));
  play(capture, {"Rxa2"});
  CHECK(capture.position().halfmove_clock() == 0);
  CHECK(claim(capture) == Ending::None);

  Game pawn(fen("8/8/8/4k3/8/8/4P3/4K3 w - - 99 80"));
  play(pawn, {"e4"});
  CHECK(pawn.position().halfmove_clock() == 0);
  CHECK(claim(pawn) == Ending::None);
}

TEST_CASE("Seventy-five moves end the game at a halfmove clock of 150", "[game][fifty]") {
  CHECK(by_itself(Game(fen("8/8/8/4k3/8/8/8/R3K3 w - - 150 100"))) == Ending::SeventyFive);
  Game game(fen("8/8/8/4k3/8/8/8/R3K3 w - - 149 100"));
  CHECK(by_itself(game) == Ending::None);
  CHECK(claim(game) == Ending::Fifty);
  play(game, {"Ra2"});
  CHECK(game.position().halfmove_clock() == 150);
  CHECK(by_itself(game) == Ending::SeventyFive);
}

TEST_CASE("Checkmate on the 75th move is checkmate, not a draw", "[game][fifty]") {
  Game game(fen("6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 100"));
  play(game, {"Ra8#"});
  CHECK(game.position().halfmove_clock() == 150);
  CHECK(game.position().is_checkmate());
  CHECK(by_itself(game) == Ending::Checkmate);
}

// --- Repetition ----------------------------------------------------------------------------

TEST_CASE("Threefold repetition by knights shuffling", "[game][repetition]") {
  Game game;
  CHECK(game.repetitions() == 1);
  knight_cycle(game);
  CHECK(game.repetitions() == 2);
  CHECK(claim(game) == Ending::None);
  play(game, {"Nf3"});
  CHECK(game.repetitions() == 2);  // the position after 1.Nf3 stood there once before
  play(game, {"Nf6", "Ng1"});
  CHECK(claim(game) == Ending::None);
  play(game, {"Ng8"});
  CHECK(game.repetitions() == 3);
  CHECK(claim(game) == Ending::Threefold);
  CHECK(by_itself(game) == Ending::None);
  CHECK(game.position() != Position());  // the clocks differ, the position counts the same
  CHECK(game.position().key() == Position().key());
}

TEST_CASE("Fivefold repetition ends the game", "[game][repetition]") {
  Game game;
  for (int cycle = 1; cycle <= 3; ++cycle) knight_cycle(game);
  CHECK(game.repetitions() == 4);
  CHECK(by_itself(game) == Ending::None);
  CHECK(claim(game) == Ending::Threefold);
  knight_cycle(game);
  CHECK(game.repetitions() == 5);
  CHECK(by_itself(game) == Ending::Fivefold);
  CHECK(game.ending().ply == 16);
  // The game is over: no claim is left to make, though a repetition occurred on the way.
  CHECK(claim(game) == Ending::None);
  CHECK(game.ending().repetition);
}

TEST_CASE("Repetitions need not be consecutive", "[game][repetition]") {
  Game game;
  play(game, {"Nf3", "Nf6", "Nc3", "Nc6", "Nb1", "Nb8", "Ng1", "Ng8"});
  CHECK(game.repetitions() == 2);
  play(game, {"Nc3", "Nc6", "Nb1", "Nb8"});
  CHECK(game.repetitions() == 3);
  CHECK(claim(game) == Ending::Threefold);
}

TEST_CASE("A pawn move breaks the repetition count", "[game][repetition]") {
  Game game;
  play(game, {"e4", "e5"});
  knight_cycle(game);
  CHECK(game.repetitions() == 2);
  play(game, {"d3", "d6"});
  CHECK(game.repetitions() == 1);
  knight_cycle(game);
  CHECK(game.repetitions() == 2);
  knight_cycle(game);
  CHECK(game.repetitions() == 3);
  CHECK(claim(game) == Ending::Threefold);
}

TEST_CASE("A capture breaks the repetition count", "[game][repetition]") {
  Game game(fen("4k3/8/8/8/8/8/r7/R3K3 w - - 0 1"));
  play(game, {"Kd1", "Kd8", "Ke1", "Ke8"});
  CHECK(game.repetitions() == 2);
  play(game, {"Rxa2", "Kd8", "Ra1", "Ke8"});
  CHECK(game.repetitions() == 1);
  CHECK(game.position().halfmove_clock() == 3);
}

TEST_CASE("Lost castling rights make a position different", "[game][repetition]") {
  const Position start = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  Game game(start);
  play(game, {"Rh2", "Rh7", "Rh1", "Rh8"});
  // The same board with the same side to move, but neither side may castle short any more.
  for (int s = 0; s < 64; ++s)
    CHECK(game.position().piece_on(Square(s)) == start.piece_on(Square(s)));
  CHECK(game.position().castling_rights() != start.castling_rights());
  CHECK(game.position().key() != start.key());
  CHECK(game.repetitions() == 1);
  play(game, {"Rh2", "Rh7", "Rh1", "Rh8"});
  CHECK(game.repetitions() == 2);
  play(game, {"Rh2", "Rh7", "Rh1", "Rh8"});
  CHECK(game.repetitions() == 3);
  CHECK(claim(game) == Ending::Threefold);
}

TEST_CASE("A king move's lost castling rights make a position different", "[game][repetition]") {
  Game game(fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
  play(game, {"Kd1", "Kd8", "Ke1", "Ke8"});
  CHECK(game.position().castling_rights() == 0);
  CHECK(game.repetitions() == 1);
  play(game, {"Kd1", "Kd8", "Ke1", "Ke8"});
  CHECK(game.repetitions() == 2);
  // Without castling rights in the first place, the same shuffle repeats at once.
  Game no_rights(fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"));
  play(no_rights, {"Kd1", "Kd8", "Ke1", "Ke8"});
  CHECK(no_rights.repetitions() == 2);
}

TEST_CASE("An en passant right makes a position different", "[game][repetition]") {
  // After 1.e4 Black may take en passant with the d4 pawn; after the kings shuffle the same
  // board stands there without that right.
  Game game(fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"));
  play(game, {"e4"});
  REQUIRE(game.position().en_passant() == E3);
  const Position with_ep = game.position();
  play(game, {"Ke7", "Ke2", "Ke8", "Ke1"});
  CHECK(game.position().en_passant() == NoSquare);
  for (int s = 0; s < 64; ++s)
    CHECK(game.position().piece_on(Square(s)) == with_ep.piece_on(Square(s)));
  CHECK(game.position().side_to_move() == with_ep.side_to_move());
  CHECK(game.position().key() != with_ep.key());
  CHECK(game.repetitions() == 1);
  play(game, {"Ke7", "Ke2", "Ke8", "Ke1"});
  CHECK(game.repetitions() == 2);
}

TEST_CASE("A double step no pawn can take en passant leaves the position the same",
          "[game][repetition]") {
  // No black pawn beside e4: the position after 1.e4 has no en passant right and recurs.
  Game game(fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
  play(game, {"e4"});
  CHECK(game.position().en_passant() == NoSquare);
  play(game, {"Ke7", "Ke2", "Ke8", "Ke1"});
  CHECK(game.repetitions() == 2);
  play(game, {"Ke7", "Ke2", "Ke8", "Ke1"});
  CHECK(game.repetitions() == 3);
  CHECK(claim(game) == Ending::Threefold);
}

TEST_CASE("An en passant capture that is illegal leaves the position the same",
          "[game][repetition]") {
  // FIDE Law 9.2.3: positions are the same when the same moves are possible. After 1.e4 the
  // d4 pawn stands beside e4 but is pinned by the b2 bishop, so dxe3 is no move at all.
  Game game(fen("7n/8/8/4k3/3p4/8/1B2P3/4K2N w - - 0 1"));
  play(game, {"e4"});
  for (Move m : legal_moves(game.position())) CHECK(m.kind() != Move::EnPassant);
  play(game, {"Ng6", "Ng3", "Nh8", "Nh1"});
  CHECK(game.repetitions() == 2);
  play(game, {"Ng6", "Ng3", "Nh8", "Nh1"});
  CHECK(game.repetitions() == 3);
  CHECK(claim(game) == Ending::Threefold);

  // The same along a rank: bxc6 would take both pawns off the fifth rank and expose the king.
  Game rank(fen("4k2n/2p5/8/KP5r/8/8/8/7N b - - 0 1"));
  play(rank, {"c5"});
  for (Move m : legal_moves(rank.position())) CHECK(m.kind() != Move::EnPassant);
  play(rank, {"Ng3", "Ng6", "Nh1", "Nh8"});
  CHECK(rank.repetitions() == 2);
}

TEST_CASE("The side to move makes a position different", "[game][repetition]") {
  // Rook shuffles of three moves bring the board back with the other side to move.
  Game game(fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
  const Key white_to_move = game.position().key();
  play(game, {"Ra2", "Kd8", "Ra3", "Ke8", "Ra1"});
  CHECK(game.position().side_to_move() == Black);
  CHECK(game.position().key() != white_to_move);
  CHECK(game.repetitions() == 1);
}

TEST_CASE("game results: the four markers, numbered as docs/storage.md stores them") {
  using pgn::GameResult;
  const std::pair<std::string_view, unsigned> stored[] = {
      {"*", 0}, {"1-0", 1}, {"0-1", 2}, {"1/2-1/2", 3}};
  for (const auto& [text, code] : stored) {
    const auto parsed = pgn::parse_game_result(text);
    REQUIRE(parsed);
    CHECK(pgn::code_of(*parsed) == code);
    CHECK(pgn::to_text(*parsed) == text);
    CHECK(pgn::game_result_from_code(code) == parsed);
  }
  for (std::string_view other : {"", "1/2", "1-0 ", "draw", "0-0"}) {
    CHECK_FALSE(pgn::parse_game_result(other));
    CHECK(pgn::game_result_of(other) == GameResult::Unknown);
  }
  CHECK_FALSE(pgn::game_result_from_code(4));
}

// --- How a game ended (game_ending.h): the first ending by itself, else the final claim -------

namespace {

// The ending of the game of SAN `moves` from `start`.
GameEnding ending_of(std::string_view start, std::initializer_list<std::string_view> moves) {
  const Position from = fen(start);
  Game game(from);
  std::vector<Move> played;
  for (std::string_view text : moves) {
    auto m = parse_san(game.position(), text);
    INFO("playing '" << text << "' in " << to_fen(game.position()));
    REQUIRE(m);
    game.play(*m);
    played.push_back(*m);
  }
  return game_ending(from, played);
}

constexpr std::string_view start_fen_text =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

}  // namespace

TEST_CASE("a game's ending: checkmate and stalemate at its last ply", "[game][ending]") {
  auto mate = ending_of(start_fen_text, {"f3", "e5", "g4", "Qh4#"});
  CHECK(mate.ending == Ending::Checkmate);
  CHECK(mate.ply == 4);
  auto stalemate = ending_of("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", {"Qc7"});
  CHECK(stalemate.ending == Ending::Stalemate);
  CHECK(stalemate.ply == 1);
  // Dead material from the start: the game ended there, before any stalemate.
  auto dead = ending_of("k7/8/1K6/8/8/8/8/3N4 w - - 0 1", {"Nb2"});
  CHECK(dead.ending == Ending::InsufficientMaterial);
  CHECK(dead.ply == 0);
  auto none = ending_of(start_fen_text, {"e4", "e5"});
  CHECK(none.ending == Ending::None);
  CHECK_FALSE(none.repetition);
  CHECK_FALSE(none.fifty_moves);
}

TEST_CASE("a game's ending: a dead position by material, when it arose", "[game][ending]") {
  // Bxc3 leaves king and bishop against king: the game ended there, whatever followed.
  auto dead = ending_of("4k3/8/8/8/8/2r5/8/B3K3 w - - 0 1", {"Bxc3", "Kd7", "Bb4", "Kc6"});
  CHECK(dead.ending == Ending::InsufficientMaterial);
  CHECK(dead.ply == 1);
  // A rook left: not dead.
  CHECK(ending_of("4k3/8/8/8/8/2b5/8/R3K3 w - - 0 1", {"Kd1"}).ending == Ending::None);
}

TEST_CASE("a game's ending: repetitions, threefold as a claim and fivefold by itself",
          "[game][ending]") {
  // The start position stands a third time after two knight cycles: a claim at the end.
  auto three = ending_of(start_fen_text, {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"});
  CHECK(three.ending == Ending::Threefold);
  CHECK(three.ply == 8);
  CHECK(three.repetition);
  // One move more: no claim at the end, but a repetition occurred.
  auto after =
      ending_of(start_fen_text, {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "e4"});
  CHECK(after.ending == Ending::None);
  CHECK(after.repetition);
  // The fifth time ends the game by itself, at ply 16, though play went on.
  auto five =
      ending_of(start_fen_text, {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3",
                                 "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "e4", "e5"});
  CHECK(five.ending == Ending::Fivefold);
  CHECK(five.ply == 16);
}

TEST_CASE("a game's ending: fifty moves as a claim, seventy-five by itself, checkmate first",
          "[game][ending]") {
  auto fifty = ending_of("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80", {"Ra2"});
  CHECK(fifty.ending == Ending::Fifty);
  CHECK(fifty.fifty_moves);
  // A pawn move after it: no claim at the end, but the fifty moves occurred.
  auto later = ending_of("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80", {"Ra2", "Kd7", "e4"});
  CHECK(later.ending == Ending::None);
  CHECK(later.fifty_moves);
  auto seventy_five = ending_of("4k3/8/8/8/8/8/4P3/R3K3 w - - 149 100", {"Ra2", "Kd7"});
  CHECK(seventy_five.ending == Ending::SeventyFive);
  CHECK(seventy_five.ply == 1);
  // The move that reaches the 75 moves mates: the checkmate counts (Law 9.6.2).
  auto mate = ending_of("k7/8/1K6/8/8/8/8/7R w - - 149 100", {"Rh8#"});
  CHECK(mate.ending == Ending::Checkmate);
  CHECK(mate.ply == 1);
}

TEST_CASE("endings have their names, and read back", "[game][ending]") {
  for (std::size_t i = 0; i < ending_count; ++i)
    CHECK(parse_ending(to_text(Ending(i))) == Ending(i));
  CHECK_FALSE(parse_ending("mate"));
  CHECK(ends_by_itself(Ending::Fivefold));
  CHECK_FALSE(ends_by_itself(Ending::Threefold));
}
