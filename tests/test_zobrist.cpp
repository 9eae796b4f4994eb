// Polyglot Zobrist keys: the published values from Polyglot's own specification (book_format.html),
// the incremental key against the key of the same position re-read from its FEN over many random
// games (standard and Chess960), and which differences between positions change the key.
#include <catch2/catch.hpp>

#include <fstream>
#include <initializer_list>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/fen.h"
#include "pgn/movegen.h"
#include "pgn/position.h"
#include "pgn/san.h"
#include "pgn/zobrist.h"
#include "support.h"

using namespace pgn;
using namespace pgndb::test;

namespace {

Position play_line(Position pos, std::initializer_list<std::string_view> moves) {
  for (std::string_view san : moves) {
    INFO("move " << san << " in " << to_fen(pos));
    auto m = parse_san(pos, san);
    if (!m) FAIL(m.error().message);
    pos.play(*m);
  }
  return pos;
}

// The first four FEN fields: what the key covers, without the clocks.
std::string epd_of(const Position& pos) {
  std::string fen = to_fen(pos);
  for (int spaces = 0, i = 0; i < int(fen.size()); ++i)
    if (fen[i] == ' ' && ++spaces == 4) return fen.substr(0, i);
  return fen;
}

struct PublishedKey {
  const char* fen;
  Key key;
};

// From Polyglot's book_format.html.
constexpr PublishedKey published_keys[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9cULL},
    {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196ULL},
    {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0ULL},
    {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4ULL},
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78ULL},
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1ULL},
    {"rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9ULL},
    {"rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637ULL},
    {"rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560ULL},
};

// Plays `moves` from the start and checks the key after each move whose entry is non-null
// against published_keys[entry], and that the board, side, rights and en passant square match
// that FEN.
void check_line(std::initializer_list<std::pair<std::string_view, int>> moves) {
  Position pos;
  CHECK(pos.key() == published_keys[0].key);
  for (auto [san, entry] : moves) {
    pos = play_line(pos, {san});
    if (entry < 0) continue;
    const PublishedKey& published = published_keys[entry];
    INFO("after " << san << ": " << to_fen(pos) << " vs " << published.fen);
    CHECK(pos.key() == published.key);
    CHECK(epd_of(pos) == epd_of(fen(published.fen)));
  }
}

// Everything a Position compares but the Chess960 flag.
bool same_but_chess960_flag(const Position& a, const Position& b) {
  for (int s = 0; s < 64; ++s)
    if (a.piece_on(Square(s)) != b.piece_on(Square(s))) return false;
  if (a.castling_rights() != b.castling_rights()) return false;
  for (Color c : {White, Black})
    for (CastlingSide side : {KingSide, QueenSide})
      if (a.can_castle(c, side) && a.castling_rook(c, side) != b.castling_rook(c, side))
        return false;
  return a.side_to_move() == b.side_to_move() && a.en_passant() == b.en_passant() &&
         a.halfmove_clock() == b.halfmove_clock() && a.fullmove_number() == b.fullmove_number() &&
         a.checkers() == b.checkers() && a.key() == b.key();
}

struct PlayoutStats {
  long plies = 0;
  long captures = 0;
  long promotions = 0;
  long castlings = 0;
  long en_passants = 0;
  long en_passant_squares = 0;  // positions with an en passant square in the key
  long rights_lost = 0;         // moves that cost a castling right
};

// Random legal games from `start`: after every move the incrementally kept key must equal the
// key of the position re-read from its own FEN, and the positions must be equal. Special moves
// (castling, en passant, promotion) are picked half the time they are available, so every kind
// of key update is exercised.
void random_games(const Position& start, int games, int max_plies, std::mt19937& rng,
                  PlayoutStats& stats) {
  for (int game = 0; game < games; ++game) {
    Position pos = start;
    std::string line;
    for (int ply = 0; ply < max_plies; ++ply) {
      const MoveList moves = legal_moves(pos);
      if (moves.empty()) break;
      std::vector<Move> special;
      for (Move m : moves)
        if (m.kind() != Move::Normal) special.push_back(m);
      const Move m = !special.empty() && rng() % 2 == 0 ? special[rng() % special.size()]
                                                        : moves[rng() % moves.size()];
      line += to_uci(pos, m) + ' ';
      stats.captures += pos.is_capture(m);
      stats.promotions += m.kind() == Move::Promotion;
      stats.castlings += m.kind() == Move::Castling;
      stats.en_passants += m.kind() == Move::EnPassant;
      const auto rights_before = pos.castling_rights();
      pos.play(m);
      stats.rights_lost += pos.castling_rights() != rights_before;
      stats.en_passant_squares += pos.en_passant() != NoSquare;
      ++stats.plies;

      const std::string fen = to_fen(pos);
      INFO("from " << to_fen(start) << " after " << line << "-> " << fen);
      const auto back = parse_fen(fen);
      REQUIRE(back.has_value());
      REQUIRE(back->key() == pos.key());
      REQUIRE(to_fen(*back) == fen);
      if (back->is_chess960() == pos.is_chess960()) {
        REQUIRE(*back == pos);
      } else {
        // FEN has no Chess960 flag: once no castling right shows a non-standard setup, the
        // re-read position is standard. Everything else must still agree.
        REQUIRE(pos.is_chess960());
        REQUIRE(same_but_chess960_flag(*back, pos));
      }
    }
  }
}

std::vector<std::string> fischer_starts() {
  std::ifstream in(std::string(PGNDB_SHARED_DATA) + "/perft/ethereal/fischer.epd");
  REQUIRE(in);
  std::vector<std::string> fens;
  std::string text;
  while (std::getline(in, text))
    if (!text.empty() && text[0] != '#') fens.push_back(text.substr(0, text.find(';')));
  return fens;
}

}  // namespace

TEST_CASE("the Polyglot random table has the published first and last values") {
  // book_format.html lists Random64[0] and Random64[780].
  CHECK(zobrist::polyglot_random[0] == 0x9D39247E33776D41ULL);
  CHECK(zobrist::polyglot_random[780] == 0xF8D626AAAF278509ULL);
}

TEST_CASE("parsed FENs have the published Polyglot keys") {
  for (const auto& [text, key] : published_keys) {
    INFO("FEN: " << text);
    CHECK(fen(text).key() == key);
  }
  CHECK(Position::start().key() == 0x463b96181691fc9cULL);
}

TEST_CASE("playing 1.e4 d5 2.e5 f5 3.Ke2 Kf7 reaches the published Polyglot keys") {
  check_line({{"e4", 1}, {"d5", 2}, {"e5", 3}, {"f5", 4}, {"Ke2", 5}, {"Kf7", 6}});
}

TEST_CASE("playing 1.a4 b5 2.h4 b4 3.c4 bxc3 4.Ra3 reaches the published Polyglot keys") {
  check_line({{"a4", -1}, {"b5", -1}, {"h4", -1}, {"b4", -1}, {"c4", 7}, {"bxc3", -1}, {"Ra3", 8}});
}

TEST_CASE("a position reached by play equals its FEN re-read after castling rights are lost") {
  // 2.Ke2 loses both white rights; Ra3 only the queen-side one.
  for (const Position& pos :
       {play_line(Position(), {"e4", "e5", "Ke2"}), play_line(Position(), {"a4", "b5", "Ra3"}),
        play_line(Position(), {"Nf3", "Nf6", "Rg1", "Rg8", "Rh1"}),
        play_line(Position(), {"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"})}) {
    const std::string text = to_fen(pos);
    INFO(text);
    const Position back = fen(text);
    CHECK(back.key() == pos.key());
    CHECK(back == pos);
  }
}

TEST_CASE("the incremental key equals the key of the FEN re-read over random games") {
  std::mt19937 rng(20240601);
  PlayoutStats stats;
  random_games(Position(), 200, 200, rng, stats);
  INFO("plies " << stats.plies << ", captures " << stats.captures << ", promotions "
                << stats.promotions << ", castlings " << stats.castlings << ", en passant "
                << stats.en_passants << ", en passant squares " << stats.en_passant_squares);
  CHECK(stats.plies > 10000);
  CHECK(stats.captures > 1000);
  CHECK(stats.promotions > 50);
  CHECK(stats.castlings > 50);
  CHECK(stats.en_passants > 20);
  CHECK(stats.en_passant_squares > 20);
  CHECK(stats.rights_lost > 200);
}

TEST_CASE(
    "the incremental key equals the key of the FEN re-read over random games from a middlegame") {
  std::mt19937 rng(77);
  PlayoutStats stats;
  random_games(fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"), 50, 120,
               rng, stats);
  CHECK(stats.castlings > 10);
  CHECK(stats.promotions > 10);
}

TEST_CASE("the incremental key equals the key of the FEN re-read over random Chess960 games") {
  const std::vector<std::string> starts = fischer_starts();
  REQUIRE(starts.size() >= 100);
  std::mt19937 rng(960);
  PlayoutStats stats;
  int chess960_starts = 0;
  for (std::size_t i = 0; i < starts.size(); i += 40) {
    const Position start = fen(starts[i]);
    chess960_starts += start.is_chess960();
    random_games(start, 8, 120, rng, stats);
  }
  CHECK(chess960_starts >= 20);
  CHECK(stats.castlings > 20);
  CHECK(stats.rights_lost > 20);
}

TEST_CASE("positions differing only in side to move have different keys") {
  for (std::string_view board : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                                 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R"}) {
    const Position w = fen(std::string(board) + " w KQkq - 0 1");
    const Position b = fen(std::string(board) + " b KQkq - 0 1");
    CHECK(w.key() != b.key());
    CHECK((w.key() ^ b.key()) == zobrist::white_to_move());
  }
  // A null move changes only the side to move.
  Position pos = fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  const Key before = pos.key();
  pos.play_null();
  CHECK((pos.key() ^ before) == zobrist::white_to_move());
  CHECK(pos.key() == fen(to_fen(pos)).key());
}

TEST_CASE("positions differing only in castling rights have different keys") {
  const char* rights[16] = {"-", "K",  "Q",  "KQ",  "k",  "Kk",  "Qk",  "KQk",
                            "q", "Kq", "Qq", "KQq", "kq", "Kkq", "Qkq", "KQkq"};
  std::vector<Key> keys;
  for (int bits = 0; bits < 16; ++bits) {
    const Position pos = fen(std::string("r3k2r/8/8/8/8/8/8/R3K2R w ") + rights[bits] + " - 0 1");
    REQUIRE(pos.castling_rights() == bits);
    Key expected = keys.empty() ? pos.key() : keys[0];
    for (int i = 0; i < 4; ++i)
      if (bits & (1 << i)) expected ^= zobrist::castling(i);
    CHECK(pos.key() == expected);
    for (Key other : keys) CHECK(pos.key() != other);
    keys.push_back(pos.key());
  }
  // The same board reached with and without the rights: rooks out and back lose them.
  const Position direct = play_line(Position(), {"Nf3", "Nf6"});
  const Position rooks_back = play_line(direct, {"Rg1", "Rg8", "Rh1", "Rh8"});
  CHECK(epd_of(direct).substr(0, epd_of(direct).find(' ')) ==
        epd_of(rooks_back).substr(0, epd_of(rooks_back).find(' ')));
  CHECK(rooks_back.castling_rights() ==
        (castling_bit(White, QueenSide) | castling_bit(Black, QueenSide)));
  CHECK(direct.key() != rooks_back.key());
  CHECK((direct.key() ^ rooks_back.key()) == (zobrist::castling(castling_index(White, KingSide)) ^
                                              zobrist::castling(castling_index(Black, KingSide))));
}

TEST_CASE("positions differing only in en passant availability have different keys") {
  const std::string board = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq ";
  const Position f6 = fen(board + "f6 0 3");
  const Position d6 = fen(board + "d6 0 3");
  const Position none = fen(board + "- 0 3");
  CHECK(f6.key() != none.key());
  CHECK(d6.key() != none.key());
  CHECK(f6.key() != d6.key());
  CHECK((f6.key() ^ none.key()) == zobrist::en_passant_file(5));
  CHECK((d6.key() ^ none.key()) == zobrist::en_passant_file(3));

  // The same board reached by 1.e4 d5 2.e5 f5 and 1.e4 f5 2.e5 d5: the last double step
  // decides which en passant capture is possible.
  const Position via_f5 = play_line(Position(), {"e4", "d5", "e5", "f5"});
  const Position via_d5 = play_line(Position(), {"e4", "f5", "e5", "d5"});
  CHECK(via_f5.key() == f6.key());
  CHECK(via_d5.key() == d6.key());
  CHECK(via_f5.key() != via_d5.key());
  // One move later the en passant chance is gone and the keys meet.
  CHECK(play_line(via_f5, {"Nf3", "Nf6"}).key() == play_line(via_d5, {"Nf3", "Nf6"}).key());
}

TEST_CASE("an en passant square no pawn can use does not change the key") {
  // 1.e4: no black pawn beside e4 (the Polyglot rule).
  const Position with = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  const Position without = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  CHECK(with.key() == without.key());
  CHECK(play_line(Position(), {"e4"}).key() == without.key());
}

TEST_CASE("transpositions have equal keys") {
  const Position a = play_line(Position(), {"Nf3", "Nf6", "Nc3"});
  const Position b = play_line(Position(), {"Nc3", "Nf6", "Nf3"});
  CHECK(a.key() == b.key());
  CHECK(a == b);

  // Double steps that nobody can take en passant leave no trace.
  const Position c = play_line(Position(), {"e4", "e6", "d4", "d5"});
  const Position d = play_line(Position(), {"d4", "e6", "e4", "d5"});
  CHECK(c.key() == d.key());
  CHECK(c == d);

  // Returning to the start position gives the start key (the clocks differ, the key does not).
  const Position back = play_line(Position(), {"Nf3", "Nf6", "Ng1", "Ng8"});
  CHECK(back.key() == Position().key());
  CHECK_FALSE(back == Position());
}
