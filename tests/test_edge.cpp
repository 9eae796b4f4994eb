// Edge cases from other parsers' test suites (shared/data/edge/, one TEST_CASE per folder): what
// the reader and the replay make of them: game counts, tags, main-line plies, final positions,
// NAGs, comments and variations, and every error and warning with its line and column.
//
// Final positions are pgn-extract's (`-F --nofauxep`), taken independently of pgndb; where
// pgn-extract cannot read a game as it stands (no result marker, Z0), from pgn-extract on the
// game with a marker added or `--` for Z0, or from the other parser's own test. Where the file
// has PlyCount tags they are checked against the plies replayed.
// Each file is also read a second time without a GameRecord and in 7-byte chunks: the problems,
// plies and final positions must not change.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pgn/fen.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgn/san.h"
#include "pgn/writer.h"
#include "support.h"

namespace {

using namespace pgn;
using namespace pgndb::test;

std::string edge_path(std::string_view file) {
  return std::string(PGNDB_SHARED_DATA) + "/edge/" + std::string(file);
}

std::string describe(const GameProblem& p) {
  return std::to_string(p.location.line) + ":" + std::to_string(p.location.column) +
         (p.severity == GameProblem::Severity::Error ? " error: " : " warning: ") + p.message;
}

// One game as read and replayed.
struct GameRead {
  GameRecord record;
  std::vector<GameProblem> problems;
  bool replayed = true;
  int plies = 0;
  Position end;
  std::string fen;
  Location begin;

  std::string tag(std::string_view name) const {
    const std::string* v = record.tag(name);
    return v ? *v : std::string("<none>");
  }
  int errors() const {
    return int(std::count_if(problems.begin(), problems.end(), [](const GameProblem& p) {
      return p.severity == GameProblem::Severity::Error;
    }));
  }
};

class Collector : public ReplayVisitor {
 public:
  explicit Collector(bool keep_record) : ReplayVisitor({.keep_record = keep_record}) {}
  std::vector<GameRead> games;

  Control begin_game(Location at) override {
    begin_ = at;
    return ReplayVisitor::begin_game(at);
  }
  void end_game(std::string_view text) override {
    ReplayVisitor::end_game(text);  // the last problems (result against the board) come here
    games.push_back({record(), problems(), replayed(), main_line_plies(), final_position(),
                     to_fen(final_position()), begin_});
  }

 private:
  Location begin_;
};

std::vector<GameRead> read_games(const std::string& path, bool keep_record,
                                 std::size_t chunk_size) {
  auto source = FileSource::open(path);
  REQUIRE(source.has_value());
  ReaderOptions options;
  options.chunk_size = chunk_size;
  Reader reader(**source, options);
  Collector visitor(keep_record);
  for (;;) {
    auto more = reader.read_game(visitor);
    REQUIRE(more.has_value());
    if (!*more) break;
  }
  return std::move(visitor.games);
}

// Reads `file` (relative to edge/), and checks that a lean read (no record, tiny chunks) finds
// the same problems, plies and final positions.
std::vector<GameRead> load(std::string_view file) {
  INFO("file " << file);
  const std::string path = edge_path(file);
  std::vector<GameRead> games = read_games(path, true, std::size_t(1) << 20);
  std::vector<GameRead> lean = read_games(path, false, 7);
  CHECK(lean.size() == games.size());
  for (std::size_t i = 0; i < std::min(games.size(), lean.size()); ++i) {
    INFO("game " << i << " (line " << games[i].begin.line << "), read without a record");
    std::vector<std::string> a, b;
    for (const auto& p : games[i].problems) a.push_back(describe(p));
    for (const auto& p : lean[i].problems) b.push_back(describe(p));
    CHECK(b == a);
    CHECK(lean[i].plies == games[i].plies);
    CHECK(lean[i].fen == games[i].fen);
    CHECK(lean[i].replayed == games[i].replayed);
    CHECK(lean[i].begin.line == games[i].begin.line);
  }
  return games;
}

// Every problem of a file, in order, must start with the expected text ("LINE:COL kind: ...").
void check_problems(const std::vector<GameRead>& games, const std::vector<std::string>& expected) {
  std::vector<std::string> actual;
  for (const auto& g : games)
    for (const auto& p : g.problems) actual.push_back(describe(p));
  std::string all;
  for (const auto& a : actual) all += "\n  " + a;
  INFO("problems found:" << all);
  CHECK(actual.size() == expected.size());
  for (std::size_t i = 0; i < std::min(actual.size(), expected.size()); ++i) {
    INFO("problem " << i);
    CHECK(actual[i].substr(0, expected[i].size()) == expected[i]);
  }
}

void check_no_problems(const std::vector<GameRead>& games) { check_problems(games, {}); }

struct Counts {
  int nodes = 0, nags = 0, comments = 0, variations = 0;
};
void count_line(const Line& line, Counts& c) {
  for (const MoveNode& n : line) {
    ++c.nodes;
    c.nags += int(n.nags.size());
    c.comments += int(n.comments_before.size() + n.comments_after.size() +
                      n.comments_after_variations.size());
    c.variations += int(n.variations.size());
    for (const Line& v : n.variations) count_line(v, c);
  }
}
// Moves, NAGs, comments and variations in the whole tree (comments before the first move and
// after the last one's variations too).
Counts counts(const GameRead& g) {
  Counts c;
  c.comments = int(g.record.leading_comments.size());
  count_line(g.record.moves, c);
  return c;
}

// The main line in canonical SAN.
std::vector<std::string> sans(const GameRecord& r) {
  std::vector<std::string> out;
  Position pos = r.start;
  for (const MoveNode& n : r.moves) {
    out.push_back(to_san(pos, n.move));
    if (n.move.is_null())
      pos.play_null();
    else
      pos.play(n.move);
  }
  return out;
}

// The position before main-line ply `ply` (0-based).
Position position_before(const GameRecord& r, std::size_t ply) {
  Position pos = r.start;
  for (std::size_t i = 0; i < ply && i < r.moves.size(); ++i) {
    if (r.moves[i].move.is_null())
      pos.play_null();
    else
      pos.play(r.moves[i].move);
  }
  return pos;
}

// Games whose PlyCount tag disagrees with the plies replayed, as "index:PlyCount:plies".
std::vector<std::string> plycount_mismatches(const std::vector<GameRead>& games) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < games.size(); ++i) {
    const std::string* pc = games[i].record.tag("PlyCount");
    if (pc && *pc != std::to_string(games[i].plies))
      out.push_back(std::to_string(i) + ":" + *pc + ":" + std::to_string(games[i].plies));
  }
  return out;
}

void collect_comments(const Line& line, std::vector<std::string>& out) {
  for (const MoveNode& n : line) {
    for (const auto& c : n.comments_before) out.push_back(squeeze(c));
    for (const auto& c : n.comments_after) out.push_back(squeeze(c));
    for (const Line& v : n.variations) collect_comments(v, out);
    for (const auto& c : n.comments_after_variations) out.push_back(squeeze(c));
  }
}
std::vector<std::string> all_comments(const GameRecord& r) {
  std::vector<std::string> out;
  for (const auto& c : r.leading_comments) out.push_back(squeeze(c));
  collect_comments(r.moves, out);
  return out;
}

constexpr std::string_view kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

}  // namespace

// --- Disservin/chess-library: quirks of tag pairs, games without moves or results ---------

TEST_CASE("edge: disservin-chess-library", "[edge]") {
  const std::string dir = "disservin-chess-library/";

  SECTION("backslash_header.pgn: [Event \"Tournament \\\"] ends in an escaped quote") {
    auto games = load(dir + "backslash_header.pgn");
    REQUIRE(games.size() == 1);
    // The value never closes by the escape rule: it is read to the end of the line, warned.
    CHECK(games[0].tag("Event") == "Tournament \\");
    CHECK(games[0].tag("Site") == "Madrid ESP");
    CHECK(games[0].tag("ECO") == "D87g");
    CHECK(games[0].plies == 95);
    CHECK(games[0].fen == "1r6/8/3Rk1p1/2K2p2/5P1P/2P3P1/8/8 b - - 4 48");
    CHECK(games[0].record.result == "1-0");
    check_problems(games, {"1:1 warning: tag Event is not of the form"});
  }

  SECTION("basic.pgn: a fastchess game with an engine comment on every move") {
    auto games = load(dir + "basic.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].plies == 130);
    CHECK(counts(games[0]).comments == 130);
    CHECK(games[0].fen == "8/8/8/8/1K6/7k/8/8 w - - 0 66");
    CHECK(games[0].record.result == "1/2-1/2");
    check_no_problems(games);
  }

  SECTION("black2move.pgn: 1...0-0-0 is illegal there (the queen stands on d8)") {
    // Disservin's parser counts tokens without replaying them; pgn-extract refuses 1...O-O-O too.
    auto games = load(dir + "black2move.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].tag("Event") == "*");
    CHECK_FALSE(games[0].replayed);
    CHECK(games[0].plies == 0);
    CHECK(games[0].fen == "r2qk2r/1bpp2pp/n3pn2/p2P1p2/1bP5/2N1BNP1/1PQ1PPBP/R3K2R b KQkq - 0 1");
    check_problems(games, {"4:5 error: illegal move '0-0-0'"});
  }

  SECTION("book.pgn") {
    auto games = load(dir + "book.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].tag("Annotator") == "depth=18 eval=+101");
    CHECK(games[0].plies == 16);
    CHECK(games[0].fen == "r1bqkb1r/ppp2pp1/5n1p/3P4/2P1p3/5N2/PPP2PPP/RNBQK2R w KQkq - 0 9");
    CHECK(plycount_mismatches(games).empty());
    check_no_problems(games);
  }

  SECTION("castling.pgn and newline.pgn: 0-0 castling, no termination marker") {
    for (const char* file : {"castling.pgn", "newline.pgn"}) {
      INFO(file);
      auto games = load(dir + file);
      REQUIRE(games.size() == 1);
      CHECK(games[0].plies == 6);  // the PlyCount tag says 130: the file was cut
      CHECK(sans(games[0].record) ==
            std::vector<std::string>{"Bg2", "O-O", "O-O", "a5", "Nd4", "Na6"});
      CHECK(games[0].fen == "r2q1rk1/1bpp2pp/n3pn2/p2P1p2/1bPN4/2N3P1/1P2PPBP/R1BQ1RK1 w - - 2 4");
      CHECK(games[0].record.result == "1/2-1/2");  // from the Result tag
      check_no_problems(games);
    }
  }

  SECTION("comment_before_moves.pgn: a comment before 1. e4, [%eval] comments, NAGs") {
    auto games = load(dir + "comment_before_moves.pgn");
    REQUIRE(games.size() == 1);
    const GameRead& g = games[0];
    CHECK(g.tag("Site") == "\u00f8");
    CHECK(g.tag("Event") == "FB1 2324 SK Schw\u00e4bisch Hall - SG Soling");
    REQUIRE(g.record.leading_comments.size() == 1);
    CHECK(squeeze(g.record.leading_comments[0]) ==
          "The original result of the game (1-0) was overturned by an arbiter decision.");
    CHECK(g.plies == 139);
    Counts c = counts(g);
    CHECK(c.nags == 9);
    CHECK(c.comments == 150);
    CHECK(g.fen == "8/8/k1K5/p6B/P1N5/8/8/4b3 b - - 28 70");
    CHECK(g.record.result == "0-1");
    check_no_problems(games);
  }

  SECTION("corrupted.pgn: the file stops in the middle of 63. Kx") {
    auto games = load(dir + "corrupted.pgn");
    REQUIRE(games.size() == 1);
    CHECK_FALSE(games[0].replayed);
    CHECK(games[0].plies == 124);  // what Disservin's test counts too
    CHECK(games[0].fen == "8/8/7k/7P/8/2K4P/1p6/8 w - - 0 63");
    check_problems(games, {"57:25 error: unreadable move 'Kx'"});
  }

  SECTION("empty_body.pgn: tags, a line of spaces, then the next game") {
    auto games = load(dir + "empty_body.pgn");
    REQUIRE(games.size() == 2);
    CHECK(games[0].tag("Event") == "Batch 2690: probTTsv1 vs master");
    CHECK(games[0].tag("Result") == "?");
    CHECK(games[0].plies == 0);
    CHECK(games[0].record.result == "*");
    CHECK(games[1].begin.line == 10);
    CHECK(games[1].tag("Event") == "Batch 269: probTTsv1 vs master");
    CHECK(games[1].plies == 252);
    CHECK(games[1].fen == "8/8/8/8/8/1K2R3/2r5/1k1r4 b - - 5 134");
    CHECK(games[1].record.result == "0-1");
    check_no_problems(games);
  }

  SECTION("fishtest-fastchess.pgn") {
    auto games = load(dir + "fishtest-fastchess.pgn");
    REQUIRE(games.size() == 4);
    CHECK(games[0].plies == 61);
    CHECK(games[1].plies == 73);
    CHECK(games[2].plies == 82);
    CHECK(games[3].plies == 91);
    CHECK(games[0].fen == "2k5/R7/2Pp1p1p/5rp1/P7/8/4r1PP/2R3K1 w - - 10 39");
    CHECK(games[3].fen == "5q2/7p/5K1k/4Q3/5P2/8/8/8 w - - 15 54");
    for (const auto& g : games) CHECK(counts(g).comments == g.plies);
    CHECK(plycount_mismatches(games).empty());
    check_no_problems(games);
  }

  SECTION("magnus-grischuk.pgn: lichess analysis with variations") {
    auto games = load(dir + "magnus-grischuk.pgn");
    REQUIRE(games.size() == 1);
    Counts c = counts(games[0]);
    CHECK(games[0].plies == 89);
    CHECK(c.nodes == 121);
    CHECK(c.nags == 2);
    CHECK(c.comments == 93);
    CHECK(c.variations == 2);
    CHECK(games[0].fen == "7k/3b2p1/3P2Bp/7P/8/6K1/8/8 b - - 2 45");
    check_no_problems(games);
  }

  SECTION("multiple.pgn") {
    auto games = load(dir + "multiple.pgn");
    REQUIRE(games.size() == 4);
    CHECK(games[1].begin.line == 61);
    CHECK(games[0].plies == 130);
    CHECK(games[1].plies == 84);
    CHECK(games[2].plies == 176);
    CHECK(games[3].plies == 142);
    CHECK(games[2].fen == "2r5/8/8/3N4/2K5/7R/2k5/8 w - - 63 89");
    CHECK(games[3].fen == "5K2/8/8/8/8/8/8/2k5 w - - 0 72");
    check_no_problems(games);
  }

  SECTION("no_moves.pgn: tags only") {
    auto games = load(dir + "no_moves.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].plies == 0);
    CHECK(games[0].fen == "rn1qk2r/pbpp2pp/4pn2/3P1p2/1bP5/2N2NP1/1P2PP1P/R1BQKB1R w KQkq - 0 1");
    CHECK(games[0].record.result == "1/2-1/2");
    check_no_problems(games);
  }

  SECTION("no_moves_but_comment_followed_by_termination_marker.pgn") {
    auto games = load(dir + "no_moves_but_comment_followed_by_termination_marker.pgn");
    REQUIRE(games.size() == 2);
    for (const auto& g : games) {
      CHECK(g.plies == 0);
      CHECK(g.tag("Termination") == "stalled connection");
      CHECK(g.record.leading_comments == std::vector<std::string>{"White's connection stalls"});
      CHECK(g.record.result == "0-1");
    }
    CHECK(games[1].begin.line == 8);
    check_no_problems(games);
  }

  SECTION("no_moves_but_game_termination*.pgn: a result marker and nothing else") {
    auto one = load(dir + "no_moves_but_game_termination.pgn");
    REQUIRE(one.size() == 1);
    CHECK(one[0].plies == 0);
    CHECK(one[0].record.result == "0-1");
    check_no_problems(one);

    auto two = load(dir + "no_moves_but_game_termination_2.pgn");
    REQUIRE(two.size() == 1);
    CHECK(two[0].record.result == "1/2-1/2");
    check_problems(two, {"9:2 warning: the result 1/2-1/2 contradicts the Result tag \"0-1\""});

    auto three = load(dir + "no_moves_but_game_termination_3.pgn");
    REQUIRE(three.size() == 1);
    CHECK(three[0].record.result == "0-1");  // `*` says nothing: the tag stands
    check_problems(three, {"9:2 warning: the result * contradicts the Result tag \"0-1\""});

    auto multiple = load(dir + "no_moves_but_game_termination_multiple.pgn");
    REQUIRE(multiple.size() == 2);
    CHECK(multiple[0].plies == 0);
    CHECK(multiple[1].begin.line == 11);
    CHECK(multiple[1].tag("Site") == "https://lichess.org/r8UlPxeR");
    CHECK(multiple[1].plies == 126);
    CHECK(multiple[1].fen == "8/8/8/2p3p1/4k1P1/1r6/3R1K2/8 w - - 12 64");
    check_no_problems(multiple);

    auto fens = load(dir + "no_moves_but_game_termination_multiple_2.pgn");
    REQUIRE(fens.size() == 3);
    CHECK(fens[0].fen == "5k2/3r1p2/1p3pp1/p2n3p/P6P/1PPR1PP1/3KN3/6b1 w - - 0 34");
    CHECK(fens[1].fen == "5k2/5p2/4B2p/r5pn/4P3/5PPP/2NR2K1/8 b - - 0 59");
    CHECK(fens[2].fen == "8/p3kp1p/1p4p1/2r2b2/2BR3P/1P3P2/P4PK1/8 b - - 0 28");
    for (const auto& g : fens) CHECK(g.record.result == "1/2-1/2");
    check_no_problems(fens);
  }

  SECTION("no_moves_two_games.pgn and no_result.pgn") {
    auto two = load(dir + "no_moves_two_games.pgn");
    REQUIRE(two.size() == 2);
    for (const auto& g : two) {
      CHECK(g.plies == 0);
      CHECK(g.tag("Termination") == "unterminated");
      CHECK(g.fen == "rnbq1rk1/pp3ppp/4pb2/2pp4/P4P2/1PP1PN2/3P2PP/RN1QKB1R b KQ - 0 8");
      CHECK(g.record.result == "*");
    }
    CHECK(two[0].tag("Event") == "Batch 897: test618 vs master");
    CHECK(two[1].tag("Event") == "Batch 898: test618 vs master");
    check_no_problems(two);

    auto none = load(dir + "no_result.pgn");
    REQUIRE(none.size() == 1);
    CHECK(none[0].record.leading_comments == std::vector<std::string>{"No result"});
    CHECK(none[0].record.result == "*");
    check_no_problems(none);
  }

  SECTION("non_ascii.pgn: UTF-8 tag values") {
    auto games = load(dir + "non_ascii.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].tag("Event") == "Tournoi Fran\u00e7ois");
    CHECK(games[0].tag("Site") == "Caf\u00e9");
    CHECK(games[0].tag("White") == "Jos\u00e9 Mar\u00eda");
    CHECK(games[0].tag("Black") ==
          "\u0412\u043b\u0430\u0434\u0438\u043c\u0438\u0440 "
          "\u041f\u0435\u0442\u0440\u043e\u0432");
    CHECK(games[0].plies == 20);
    CHECK(games[0].fen == "r1bq1rk1/2pnbppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1 w - - 1 11");
    check_no_problems(games);
  }

  SECTION("skip.pgn: the first game's Result tag is * but its movetext ends in 1/2-1/2") {
    auto games = load(dir + "skip.pgn");
    REQUIRE(games.size() == 2);
    CHECK(games[0].plies == 130);
    CHECK(games[1].plies == 130);
    CHECK(games[1].begin.line == 61);
    CHECK(games[0].record.result == "1/2-1/2");
    check_problems(games, {"59:61 warning: the result 1/2-1/2 contradicts the Result tag \"*\""});
  }

  SECTION("square_bracket_in_header.pgn: ] and escaped quotes inside tag values") {
    auto games = load(dir + "square_bracket_in_header.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].tag("Event") == "Batch 10: s20red4c4_t3 vs master[!important]");
    CHECK(games[0].tag("Variation") == "closing ] opening");
    CHECK(games[0].tag("White") == "New-cfe8\"dsadsa\"ce842c");
    CHECK(games[0].tag("Black") == "Base-c4a644922d");
    CHECK(games[0].plies == 130);
    check_problems(games, {"60:61 warning: the result 1/2-1/2 contradicts the Result tag \"*\""});
  }

  SECTION("threefold_repetition.pgn: [Variant \"From Position\"], no result") {
    auto games = load(dir + "threefold_repetition.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].replayed);
    CHECK(games[0].plies == 9);
    CHECK(games[0].fen == "6k1/1p2p1r1/rP1pR3/2pP1pPp/p1P2P1P/R5K1/8/8 w - - 8 6");
    check_no_problems(games);
  }

  SECTION("unescaped_quote_header.pgn: raw quotes inside tag values") {
    auto games = load(dir + "unescaped_quote_header.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].tag("Event") == "Tournament \"Championship\" Finals");
    CHECK(games[0].tag("Site") == "Club \"Victory\"");
    CHECK(games[0].tag("White") == "Smith, John \"The King\"");
    CHECK(games[0].tag("Black") == "Jones, \"Lightning\" Mike");
    CHECK(games[0].tag("Date") == "2024.04.20");
    CHECK(games[0].plies == 20);
    CHECK(games[0].fen == "r1bq1rk1/pppnn1bp/3p2p1/3Ppp2/2P1P3/2NN4/PP2BPPP/R1BQ1RK1 w - - 0 11");
    // Repaired quietly today; a warning on those tag lines would be fair too.
    for (const auto& g : games) {
      CHECK(g.errors() == 0);
      for (const auto& p : g.problems) CHECK((p.location.line <= 6 && p.location.column == 1));
    }
  }

  SECTION("variations.pgn: nested and stacked variations") {
    auto games = load(dir + "variations.pgn");
    REQUIRE(games.size() == 1);
    Counts c = counts(games[0]);
    CHECK(games[0].plies == 108);  // Disservin's test counts 108 main-line moves
    CHECK(c.nodes == 212);
    CHECK(c.nags == 21);
    CHECK(c.variations == 26);
    CHECK(games[0].fen == "8/6k1/3R3p/4K3/6P1/8/8/1b6 w - - 3 55");
    check_no_problems(games);
  }
}

// --- python-chess: Z0, UCI movetext, BOM, Chess960, other variants, a blank line in tags ----

TEST_CASE("edge: python-chess", "[edge]") {
  const std::string dir = "python-chess/";

  SECTION("anastasian-lewis.pgn: 41... Z0 is a null move") {
    auto games = load(dir + "anastasian-lewis.pgn");
    REQUIRE(games.size() == 1);
    const GameRead& g = games[0];
    CHECK(g.replayed);
    CHECK(g.plies == 84);
    REQUIRE(g.record.moves.size() == 84);
    CHECK(g.record.moves[81].move.is_null());
    CHECK(sans(g.record)[81] == "--");
    // python-chess's own test; pgn-extract (with `--` for Z0) agrees but for the halfmove clock,
    // which it does not advance on a null move.
    CHECK(g.fen == "5rk1/2p1R2p/p5pb/2PPR3/8/2Q2B2/5P2/4K2q w - - 3 43");
    CHECK(plycount_mismatches(games).empty());
    check_no_problems(games);
  }

  SECTION("antichess-programfox.pgn: an unsupported variant, not illegal moves") {
    auto games = load(dir + "antichess-programfox.pgn");
    REQUIRE(games.size() == 2);
    for (const auto& g : games) {
      CHECK(g.tag("Variant") == "Antichess");
      CHECK_FALSE(g.replayed);
      CHECK(g.plies == 0);
    }
    CHECK(games[1].begin.line == 5);
    check_problems(games, {"1:1 error: unsupported variant 'Antichess'",
                           "5:1 error: unsupported variant 'Antichess'"});
  }

  SECTION("crazyhouse games: an unsupported variant, not illegal drops") {
    for (const char* file :
         {"knightvuillaume-jannlee-zh-lichess.pgn", "saturs-jannlee-zh-lichess.pgn"}) {
      INFO(file);
      auto games = load(dir + file);
      REQUIRE(games.size() == 1);
      CHECK(games[0].tag("Variant") == "Crazyhouse");
      CHECK(games[0].tag("Black") == "JannLee");
      CHECK_FALSE(games[0].replayed);
      CHECK(games[0].record.result == "0-1");
      check_problems(games, {"10:1 error: unsupported variant 'Crazyhouse'"});
    }
  }

  SECTION("chessbase-empty-line.pgn: a blank line between [Event] and [Date]") {
    auto games = load(dir + "chessbase-empty-line.pgn");
    REQUIRE(games.size() == 1);
    const GameRead& g = games[0];
    CHECK(g.tag("Event") == "AlphaZero vs. Stockfish");
    CHECK(g.tag("Date") == "2017.12.04");
    CHECK(g.tag("Round") == "1");
    CHECK(g.tag("White") == "Stockfish 8");
    CHECK(g.tag("Black") == "AlphaZero");
    CHECK(g.tag("BlackFideId") == "deepmind");
    CHECK(g.record.tags.size() == 11);
    CHECK(g.plies == 134);
    CHECK(sans(g.record).front() == "e4");
    CHECK(g.fen == "8/8/R2bk3/6p1/1Pr3P1/8/5K2/8 w - - 12 68");
    check_no_problems(games);
  }

  SECTION("cutechess-fischerrandom.pgn: Chess960 with X-FEN castling rights") {
    auto games = load(dir + "cutechess-fischerrandom.pgn");
    REQUIRE(games.size() == 4);
    for (const auto& g : games) {
      CHECK(g.tag("Variant") == "fischerandom");
      CHECK(g.record.start.is_chess960());
      CHECK(g.replayed);
      CHECK(counts(g).comments == g.plies);
    }
    CHECK(to_fen(games[0].record.start) ==
          "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1");
    CHECK(games[0].plies == 120);
    CHECK(games[1].plies == 99);
    CHECK(games[2].plies == 70);
    CHECK(games[3].plies == 107);
    CHECK(plycount_mismatches(games).empty());
    // Castling in Chess960: king g8/c1 and rook f8/d1 (game 1), king g1 and rook f1 (game 4).
    auto first = sans(games[0].record);
    CHECK(first[17] == "O-O");
    CHECK(first[40] == "O-O-O");
    auto last = sans(games[3].record);
    CHECK(last[29] == "O-O");
    CHECK(last[30] == "O-O");
    CHECK(games[0].fen == "8/p7/P7/7K/4bk2/8/7r/8 w - - 14 61");
    CHECK(games[1].fen == "8/2Q5/2k5/pN3R2/1p6/1PP5/PK6/8 b - - 6 50");
    CHECK(games[2].fen == "1k5r/pr6/8/4qbpK/8/P3bR1P/6P1/8 w - - 1 36");
    CHECK(games[3].fen == "2R3k1/4Q3/7p/8/5Pp1/6P1/7P/7K b - - 2 54");
    check_no_problems(games);
  }

  SECTION("kasparov-deep-blue-1997.pgn: moves as 1.Nf3, no space after the number") {
    auto games = load(dir + "kasparov-deep-blue-1997.pgn");
    REQUIRE(games.size() == 6);
    const int plies[] = {89, 89, 95, 111, 98, 37};
    for (int i = 0; i < 6; ++i) CHECK(games[i].plies == plies[i]);
    CHECK(games[0].tag("White") == "Garry Kasparov");
    CHECK(games[0].fen == "4r3/6P1/2p2P1k/1p6/pP2p1R1/P1B5/2P2K2/3r4 b - - 0 45");
    CHECK(games[5].tag("White") == "Deep Blue (Computer)");
    CHECK(games[5].fen == "r1k4r/p2nb1p1/2b4p/1p1n1p2/2PP4/3Q1NB1/1P3PPP/R5K1 b - - 0 19");
    CHECK(plycount_mismatches(games).empty());
    check_no_problems(games);
  }

  SECTION("molinari-bordais-1979.pgn: ends in 5...Nd3#, result 0-1") {
    auto games = load(dir + "molinari-bordais-1979.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].plies == 10);
    CHECK(games[0].end.is_checkmate());
    CHECK(games[0].fen == "r1bqkb1r/pp1ppppp/5n2/2p5/2P1P3/2Nn2P1/PP1PNP1P/R1BQKB1R w KQkq - 1 6");
    check_no_problems(games);  // the result agrees with the mate
  }

  SECTION("nepomniachtchi-liren-game1.pgn and stockfish-learning.pgn") {
    auto nepo = load(dir + "nepomniachtchi-liren-game1.pgn");
    REQUIRE(nepo.size() == 1);
    CHECK(nepo[0].tag("TimeControl") == "40/7200:20/3600:900+30");
    CHECK(nepo[0].plies == 97);
    CHECK(nepo[0].fen == "8/3b1kp1/5p2/1p5p/1BpN1P1P/P1P1K1P1/8/2n5 b - - 2 49");
    check_no_problems(nepo);

    auto learning = load(dir + "stockfish-learning.pgn");
    REQUIRE(learning.size() == 1);
    CHECK(learning[0].plies == 154);
    CHECK(counts(learning[0]).comments == 154);
    CHECK(learning[0].fen == "8/2p2k2/1pR3p1/1P1P4/p1P2P2/P4K2/8/5r2 w - - 7 78");
    check_no_problems(learning);
  }

  SECTION("uci-moves.pgn: the movetext is UCI (e1c1 castles)") {
    auto games = load(dir + "uci-moves.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].plies == 113);
    auto s = sans(games[0].record);
    CHECK(std::vector<std::string>(s.begin(), s.begin() + 4) ==
          std::vector<std::string>{"Nf3", "c5", "e4", "d6"});
    CHECK(std::find(s.begin(), s.end(), "O-O-O") != s.end());
    // python-chess's own test; pgn-extract agrees.
    CHECK(games[0].fen == "8/8/2B5/4k3/4Pp2/1b6/1P3K2/8 b - - 0 57");
    check_no_problems(games);
  }

  SECTION("utf8-bom.pgn: a byte order mark before the first tag") {
    auto games = load(dir + "utf8-bom.pgn");
    REQUIRE(games.size() == 2);
    CHECK(games[0].record.tags.front().first == "Event");
    CHECK(games[0].tag("Event") == "A");
    CHECK(games[1].tag("Event") == "B");
    for (const auto& g : games) {
      CHECK(g.record.tags.size() == 10);
      CHECK(g.tag("White") == "White vs 1...c5");
      CHECK(g.plies == 0);
      CHECK(g.record.result == "*");
    }
    CHECK(games[1].begin.line == 14);
    check_no_problems(games);
  }
}

// --- scid: a Latin-1 game, its expected UTF-8 conversion, a UTF-8 game --------------------

TEST_CASE("edge: scid", "[edge]") {
  auto latin1 = load("scid/res_gameLatin1.pgn");
  auto expected = load("scid/res_gameLatin1expected.pgn");
  auto utf8 = load("scid/res_gameUTF8.pgn");
  REQUIRE(latin1.size() == 1);
  REQUIRE(expected.size() == 1);
  REQUIRE(utf8.size() == 1);

  // One warning for the whole game, where the first non-UTF-8 byte stands (the Site tag).
  check_problems(latin1, {"2:1 warning: text is not valid UTF-8; read as Windows-1252"});
  check_no_problems(expected);
  check_no_problems(utf8);

  const GameRead& g = latin1[0];
  CHECK(g.tag("Site") == "Elista R\u00dcS");
  CHECK(g.tag("White") == "Kr\u00e0mn\u00eck, Vl\u00e3\u00dadimir");
  CHECK(g.tag("Black") == "Top\u00e4lov, V\u00e8s\u00e9lin");
  // Scid's expected conversion: the same tags and, but for line breaks, the same comments.
  CHECK(g.record.tags == expected[0].record.tags);
  CHECK(all_comments(g.record) == all_comments(expected[0].record));
  bool has_umlauts = false;
  for (const auto& c : all_comments(g.record))
    has_umlauts |= c.find("German: \u00c4 \u00e4 \u00dc \u00fc \u00df") != std::string::npos;
  CHECK(has_umlauts);

  CHECK(utf8[0].tag("Site") == "Elista RUS (\u042d\u043b\u0438\u0441\u0442\u0430)");
  CHECK(utf8[0].tag("White").starts_with("Kramnik, Vladimir (\u0412\u043b\u0430\u0434\u0438"));

  // The three files hold the same moves and annotations.
  for (const auto* games : {&latin1, &expected, &utf8}) {
    const GameRead& x = (*games)[0];
    CHECK(x.plies == 149);
    CHECK(x.tag("PlyCount") == "149");
    Counts c = counts(x);
    CHECK(c.nodes == 479);
    CHECK(c.nags == 36);
    CHECK(c.comments == 54);
    CHECK(c.variations == 48);
    CHECK(x.fen == "8/8/5k2/3R1p1P/8/4PK2/1r2NP2/3n4 b - - 6 75");
    CHECK(x.record.result == "1-0");
  }
}

// --- chess.js: a file with HTML line breaks, `1. ... Ba5`, lichess exports ------------------

TEST_CASE("edge: chess.js", "[edge]") {
  SECTION("0.pgn: the whole game on one line, `<br />` for line breaks") {
    // Not PGN (chess.js reads it with newline_char '<br />'); pgn-extract reads the first tag,
    // then reports `<`, `br` and `/` and finds no move. Asserted: one game, and a problem on
    // line 1 (nothing lost silently).
    auto games = load("chess.js/0.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].tag("Event").starts_with("?"));
    REQUIRE_FALSE(games[0].problems.empty());
    CHECK(games[0].problems[0].location.line == 1);
  }

  SECTION("1.pgn: Fischer - Spassky, game 6") {
    auto games = load("chess.js/1.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].tag("White") == "Robert James Fischer");
    CHECK(games[0].plies == 81);
    CHECK(games[0].fen == "4q2k/2r1r3/4PR1p/p1p5/P1Bp1Q1P/1P6/6P1/6K1 b - - 4 41");
    CHECK(plycount_mismatches(games).empty());
    check_no_problems(games);
  }

  SECTION("2.pgn: fool's mate, result on its own line") {
    auto games = load("chess.js/2.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].plies == 4);
    CHECK(games[0].end.is_checkmate());
    CHECK(games[0].fen == "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    CHECK(games[0].record.result == "0-1");
    check_no_problems(games);
  }

  SECTION("3.pgn: a FEN start with black to move, written `1. ... Ba5`") {
    auto games = load("chess.js/3.pgn");
    REQUIRE(games.size() == 1);
    CHECK(to_fen(games[0].record.start) ==
          "r1bqk1nr/pppp1ppp/2n5/4p3/1bB1P3/2P2N2/P2P1PPP/RNBQK2R b KQkq - 0 1");
    CHECK(sans(games[0].record) == std::vector<std::string>{"Ba5", "O-O", "d6", "d4"});
    CHECK(games[0].fen == "r1bqk1nr/ppp2ppp/2np4/b3p3/2BPP3/2P2N2/P4PPP/RNBQ1RK1 b kq - 0 3");
    check_no_problems(games);
  }

  SECTION("benchmark.pgn: 100 lichess games") {
    auto games = load("chess.js/benchmark.pgn");
    REQUIRE(games.size() == 100);
    for (const auto& g : games) CHECK(g.replayed);
    CHECK(games[0].tag("Site") == "https://lichess.org/j1dkb5dw");
    CHECK(games[0].plies == 25);
    CHECK(games[0].fen == "r2kQb1r/pbpp3p/1pn1p3/7B/3PP2q/P1N5/1PP2PPP/R3K2R b KQ - 2 13");
    CHECK(games[1].begin.line == 22);
    CHECK(games[1].plies == 35);
    CHECK(games[1].fen == "7B/pppk1p2/3bp1p1/8/3nN3/3B4/PPPK1PP1/R7 b - - 0 18");
    CHECK(games[99].begin.line == 2423);
    CHECK(games[99].plies == 55);
    CHECK(games[99].fen == "8/6kp/p4bp1/2p5/2Q4P/1P3N2/P4PPK/3q4 b - - 1 28");
    check_no_problems(games);
  }
}

// --- cm-pgn: FEN starts, one with black to move, blank lines around games ------------------

TEST_CASE("edge: cm-pgn", "[edge]") {
  auto games = load("cm-pgn/test_pgn_list.pgn");
  REQUIRE(games.size() == 5);
  CHECK(games[0].begin.line == 3);  // two blank lines open the file
  CHECK(games[0].tag("White") == "Morozevich, Alexander");
  CHECK(games[0].plies == 6);
  CHECK(games[0].fen == "5rk1/Q4ppp/2p1r3/6q1/8/3Pp3/PP3P1N/4RR1K w - - 0 27");
  CHECK(to_fen(games[1].record.start) ==
        "r3r1k1/pp1qppb1/2p3p1/7p/3PpP2/BPP1P1Pb/P3Q1BP/3R1RK1 b - - 4 17");
  CHECK(sans(games[1].record) == std::vector<std::string>{"Bg4", "Qc2", "Bxd1", "Rxd1"});
  CHECK(games[1].fen == "r3r1k1/pp1qppb1/2p3p1/7p/3PpP2/BPP1P1P1/P1Q3BP/3R2K1 b - - 0 19");
  CHECK(games[2].fen == "r3r1k1/pp3p2/3p2pQ/1P1P3p/P2Pp1n1/8/3N1P2/2K3R1 w - - 0 25");
  CHECK(games[3].fen == "r1bQr3/1pp2ppk/5n2/8/2p5/pP2P3/P3NPPP/R4RK1 w - - 1 18");
  CHECK(games[4].tag("Event") == "F/S Return Match");
  CHECK(games[4].plies == 85);
  CHECK(counts(games[4]).comments == 1);
  CHECK(games[4].record.moves[5].comments_after ==
        std::vector<std::string>{"This opening is called the Ruy Lopez."});
  CHECK(games[4].fen == "8/8/4R1p1/2k3p1/1p4P1/1P1b1P2/3K1n2/8 b - - 2 43");
  const char* results[] = {"1-0", "0-1", "1-0", "1-0", "1/2-1/2"};
  for (int i = 0; i < 5; ++i) CHECK(games[i].record.result == results[i]);
  check_no_problems(games);
}

// --- mliebelt/pgn-parser: TWIC and lichess exports, a German move that must fail ------------

TEST_CASE("edge: mliebelt-pgn-parser", "[edge]") {
  const std::string dir = "mliebelt-pgn-parser/";

  SECTION("game counts, and every game replays") {
    const std::pair<const char*, std::size_t> files[] = {
        {"32games.pgn", 32},   {"benko.pgn", 2},       {"lichess_mliebelt_2024-01-03.pgn", 8},
        {"sampleGame.pgn", 1}, {"sampleGames.pgn", 9}, {"twic-01-232games.pgn", 232},
    };
    for (const auto& [file, n] : files) {
      INFO(file);
      auto games = load(dir + file);
      CHECK(games.size() == n);
      for (const auto& g : games) CHECK(g.replayed);
      CHECK(plycount_mismatches(games).empty());
      check_no_problems(games);
    }
  }

  SECTION("sampleGame.pgn and sampleGames.pgn") {
    auto one = load(dir + "sampleGame.pgn");
    REQUIRE(one.size() == 1);
    CHECK(one[0].tag("Black") == "Carlsen,Magnus");
    CHECK(one[0].tag("BlackElo") == "0");
    CHECK(one[0].plies == 46);
    CHECK(one[0].fen == "8/p3kppp/2p2n2/1p6/2P5/4PP2/PN3KPP/8 w - - 3 24");
    auto nine = load(dir + "sampleGames.pgn");
    REQUIRE(nine.size() == 9);
    CHECK(nine[0].fen == one[0].fen);
    CHECK(nine[8].begin.line == 135);
    CHECK(nine[8].plies == 58);
    CHECK(nine[8].fen == "8/p4p2/8/1p1p1k1p/2pP1Pp1/2P1KP2/PP5P/8 w - - 0 30");
  }

  SECTION("benko.pgn: empty Elo tags") {
    auto games = load(dir + "benko.pgn");
    REQUIRE(games.size() == 2);
    CHECK(games[0].tag("WhiteElo") == "");
    CHECK(games[0].plies == 67);
    CHECK(games[0].fen == "4rnk1/p7/6p1/2pQR3/1pr2P2/2B5/PP6/K7 b - - 1 34");
    CHECK(games[1].plies == 83);
    CHECK(games[1].fen == "5k2/8/1p1p2p1/1r1P1p1p/1P1bPP1P/2pK4/4R1P1/1R6 b - - 1 42");
  }

  SECTION("lichess_mliebelt_2024-01-03.pgn: an abandoned game of one move") {
    auto games = load(dir + "lichess_mliebelt_2024-01-03.pgn");
    REQUIRE(games.size() == 8);
    CHECK(games[0].plies == 58);
    CHECK(games[0].fen == "1rr4k/p4ppp/8/3P4/4p3/1Pp1BbP1/1qK2Q1P/3BRR2 w - - 4 30");
    CHECK(games[7].tag("Termination") == "Abandoned");
    CHECK(games[7].plies == 1);
    CHECK(games[7].record.result == "1-0");
  }

  SECTION("twic-01-232games.pgn") {
    auto games = load(dir + "twic-01-232games.pgn");
    REQUIRE(games.size() == 232);
    CHECK(games[0].tag("Event") == "Lindores Abbey Prelim");
    CHECK(games[0].plies == 91);
    CHECK(games[0].fen == "2b5/7R/4k1p1/8/3QP1q1/Pp6/1P6/1K6 b - - 0 46");
    CHECK(games[231].begin.line == 5813);
    CHECK(games[231].plies == 152);
    CHECK(games[231].fen == "8/8/6k1/6n1/6K1/8/8/8 w - - 0 77");
  }

  SECTION("sampleGameThrow.pgn: a ; comment, then 2. Sf3 (German) after 1...Nf6 (English)") {
    auto games = load(dir + "sampleGameThrow.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].record.tags.empty());
    REQUIRE(games[0].record.leading_comments.size() == 1);
    CHECK(games[0].record.leading_comments[0].starts_with(
        " Demonstrates that the pgn parser may throw a syntax error."));
    // English N and German S in one game: no language's letters read every move (a German game
    // has no N), so the replay stops at Sf3, as mliebelt's parser does.
    CHECK_FALSE(games[0].replayed);
    CHECK(games[0].plies == 2);
    check_problems(games, {"2:13 error: unreadable move 'Sf3'"});
  }
}

// --- notnil/chess: movetext without tags, lichess annotations, nested variations -----------

TEST_CASE("edge: notnil-chess", "[edge]") {
  const std::string dir = "notnil-chess/";
  std::vector<std::vector<GameRead>> all;
  for (int i = 1; i <= 15; ++i) {
    std::string name = std::to_string(i);
    all.push_back(load(dir + std::string(4 - name.size(), '0') + name + ".pgn"));
  }
  auto file = [&](int i) -> const std::vector<GameRead>& { return all[i - 1]; };
  const std::size_t sizes[] = {1, 1, 1, 1, 1, 5, 5, 1, 1, 1, 1, 1, 3, 5, 1};
  for (int i = 1; i <= 15; ++i) {
    INFO("file " << i);
    CHECK(file(i).size() == sizes[i - 1]);
    for (const auto& g : file(i)) CHECK(g.replayed);
    check_no_problems(file(i));
  }
  REQUIRE(file(1).size() == 1);

  // 0001 and 0002: the same game, plain and with lichess's analysis.
  CHECK(file(1)[0].plies == 89);
  CHECK(file(1)[0].fen == "4r3/6P1/2p2P1k/1p6/pP2p1R1/P1B5/2P2K2/3r4 b - - 0 45");
  CHECK(file(2)[0].fen == file(1)[0].fen);
  CHECK(file(2)[0].tag("White") == "Kasparov (2795)");
  Counts c2 = counts(file(2)[0]);
  CHECK(c2.nodes == 149);
  CHECK(c2.nags == 3);
  CHECK(c2.comments == 5);
  CHECK(c2.variations == 3);

  // 0003: a FEN start and a variation on the first black move.
  const GameRead& g3 = file(3)[0];
  CHECK(g3.plies == 5);
  REQUIRE(g3.record.moves.size() == 5);
  REQUIRE(g3.record.moves[1].variations.size() == 1);
  CHECK(g3.record.moves[1].variations[0].size() == 3);
  CHECK(g3.fen == "2r2rk1/pp1bBpp1/2np4/2pp2p1/1bP5/1P4P1/P1QPPPBP/3R1RK1 b - - 0 3");

  // 0004 and 0005: [%eval] [%clk] comments, `?`, `?!` and `??` suffixes as NAGs.
  Counts c4 = counts(file(4)[0]);
  CHECK(file(4)[0].plies == 26);
  CHECK(c4.nags == 7);
  CHECK(c4.comments == 26);
  CHECK(file(4)[0].fen == "r3kb1r/2qp1pp1/b1n1p2p/pp2P3/5n1B/1PPQ1N2/P1BN1PPP/R3K2R w KQkq - 1 14");
  Counts c5 = counts(file(5)[0]);
  CHECK(file(5)[0].plies == 41);
  CHECK(c5.nodes == 153);
  CHECK(c5.nags == 15);
  CHECK(c5.comments == 58);
  CHECK(c5.variations == 15);
  CHECK(file(5)[0].record.moves[7].nags == std::vector<std::uint8_t>{6});  // 4... Bg7?!
  CHECK(file(5)[0].fen == "5bnr/7p/4ppp1/1r2Pk2/R5P1/5N2/PPP2P1P/R1B3K1 b - - 0 21");

  CHECK(file(6)[0].plies == 76);
  CHECK(file(6)[4].fen == "8/8/8/8/5kq1/1K6/8/8 w - - 16 65");
  CHECK(file(7)[0].fen == "6k1/6p1/2p5/7N/2P2K2/1P1R4/3p1P2/3r1n2 w - - 2 42");
  CHECK(file(7)[4].fen == "6k1/1p3pp1/2b4p/2R5/1P6/2P3PP/5BPK/2r5 b - - 8 39");

  // 0008-0010: movetext only, no result; 0010 has no space before its comment.
  CHECK(file(8)[0].record.tags.empty());
  CHECK(file(8)[0].fen == "rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3");
  for (int i : {9, 10}) {
    INFO("file " << i);
    CHECK(file(i)[0].plies == 6);
    CHECK(file(i)[0].record.moves[5].comments_after ==
          std::vector<std::string>{"This opening is called the Ruy Lopez."});
    CHECK(file(i)[0].fen == "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4");
    CHECK(file(i)[0].record.result == "*");
  }
  CHECK(file(11)[0].fen == "8/8/6p1/4R3/6kQ/r2P1pP1/5P2/6K1 b - - 3 42");

  // 0012: tags and `*`, no move.
  CHECK(file(12)[0].plies == 0);
  CHECK(file(12)[0].fen == kStart);
  CHECK(file(12)[0].tag("White") == "DrNykterstein");

  // 0013: parentheses inside comments are text; nested variations.
  const auto& f13 = file(13);
  CHECK(f13[0].plies == 15);
  CHECK(f13[1].plies == 15);
  CHECK(counts(f13[1]).variations == 1);
  CHECK(f13[1].record.moves[11].comments_after ==
        std::vector<std::string>{" chapter 2 main line move comment with parens ( test ) "});
  CHECK(f13[2].plies == 22);
  Counts c13 = counts(f13[2]);
  CHECK(c13.nodes == 41);
  CHECK(c13.comments == 5);
  CHECK(c13.variations == 6);
  CHECK(f13[2].fen == "r1b1k2r/1pq1ppbp/p1n2np1/4p3/5B2/N1PB1N2/PP2QPPP/R2R2K1 w kq - 0 12");

  // 0014: FEN starts with black to move; a UTF-8 opening name.
  CHECK(file(14)[0].tag("Opening") == "Caro-Kann Defense: Mar\u00f3czy Variation");
  CHECK(file(14)[1].plies == 10);
  CHECK(file(14)[1].fen == "r2qkb1r/pp1n1ppp/2p2n2/4p3/2BPP1b1/2P2N2/PP4PP/RNBQ1RK1 b kq - 0 8");
  CHECK(file(14)[4].fen == "rnb1kbnr/pp3ppp/1qp5/8/3NP3/2N5/PPP3PP/R1BQKB1R b KQkq - 0 7");

  // 0015: UCI moves.
  CHECK(sans(file(15)[0].record) == std::vector<std::string>{"Nf3", "e5"});
  CHECK(file(15)[0].fen == "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2");
}

// --- scalachess: broadcast exports with tags and no moves -----------------------------------

TEST_CASE("edge: scalachess", "[edge]") {
  auto fwwrc = load("scalachess/FWWRC.pgn");
  REQUIRE(fwwrc.size() == 605);
  int wins = 0, losses = 0, draws = 0;
  for (const auto& g : fwwrc) {
    CHECK(g.plies == 0);
    CHECK(g.record.moves.empty());
    CHECK(g.tag("Event") == "FIDE Women\u2019s World Rapid Championships 2024");
    CHECK(g.record.result == g.tag("Result"));  // no marker: the Result tag stands
    wins += g.record.result == "1-0";
    losses += g.record.result == "0-1";
    draws += g.record.result == "1/2-1/2";
  }
  CHECK(wins == 244);
  CHECK(losses == 197);
  CHECK(draws == 164);
  CHECK(fwwrc[0].tag("White") == "Charkhalashvili, Inga");
  CHECK(fwwrc[0].tag("Round") == "1.1");
  CHECK(fwwrc[0].record.tags.size() == 19);
  CHECK(fwwrc[1].begin.line == 21);
  CHECK(fwwrc[604].tag("White") == "Berezovska , Svetlana");
  CHECK(fwwrc[604].tag("Round") == "11.28");
  check_no_problems(fwwrc);

  // Only the first game has an Event tag: a repeated Round tag starts the next game.
  auto uz = load("scalachess/uzchesscup.pgn");
  REQUIRE(uz.size() == 45);
  CHECK(uz[0].tag("Event") == "Round 1: Aravindh, Chithambaram VR. - Praggnanandhaa R");
  CHECK(uz[1].tag("Event") == "<none>");
  CHECK(uz[1].begin.line == 20);
  CHECK(uz[1].tag("Round") == "1.2");
  CHECK(uz[1].tag("White") == "Yakubboev, Nodirbek");
  int uz_wins = 0, uz_losses = 0, uz_draws = 0;
  for (const auto& g : uz) {
    CHECK(g.plies == 0);
    uz_wins += g.record.result == "1-0";
    uz_losses += g.record.result == "0-1";
    uz_draws += g.record.result == "1/2-1/2";
  }
  CHECK(uz_wins == 12);
  CHECK(uz_losses == 9);
  CHECK(uz_draws == 24);
  check_no_problems(uz);
}

// --- pgn-extract: RAV, NAGs, null moves, nested comments, contradicting results, notations -

TEST_CASE("edge: pgn-extract", "[edge]") {
  const std::string dir = "pgn-extract/";

  SECTION("every file: game counts as pgn-extract counts them, problems only where expected") {
    const std::pair<const char*, std::size_t> files[] = {
        {"barnes-horton.pgn", 1},
        {"fischer.pgn", 34},
        {"fools-mate.pgn", 1},
        {"najdorf.pgn", 8},
        {"petrosian.pgn", 35},
        {"test-7.pgn", 1},
        {"test-C.pgn", 1},
        {"test-F-text.pgn", 1},
        {"test-F.pgn", 1},
        {"test-L1.pgn", 1},
        {"test-L2.pgn", 1},
        {"test-N.pgn", 1},
        {"test-P.pgn", 11},
        {"test-R.pgn", 1},
        {"test-Ta.pgn", 1},
        {"test-V.pgn", 1},
        {"test-addhashcode.pgn", 1},
        {"test-allownullmoves.pgn", 2},
        {"test-checkmate.pgn", 2},
        {"test-e.pgn", 6},
        {"test-evaluation.pgn", 1},
        {"test-f1.pgn", 1},
        {"test-f2.pgn", 1},
        {"test-fencomments.pgn", 1},
        {"test-fifty.pgn", 2},
        {"test-fuzzydepth.pgn", 4},
        {"test-hash.pgn", 35},
        {"test-long-line.pgn", 1},
        {"test-matchplylimit.pgn", 1},
        {"test-nagcomments.pgn", 1},
        {"test-nochecks.pgn", 2},
        {"test-nomovenumbers.pgn", 1},
        {"test-noresults.pgn", 1},
        {"test-notags.pgn", 1},
        {"test-plycount.pgn", 1},
        {"test-plylimit.pgn", 1},
        {"test-repetition.pgn", 12},
        {"test-s.pgn", 3},
        {"test-selectonly.pgn", 34},
        {"test-setup-in.pgn", 2},
        {"test-splitvariants.pgn", 1},
        {"test-stalemate.pgn", 3},
        {"test-stopafter.pgn", 34},
        {"test-t.pgn", 6},
        {"test-ucE.pgn", 6},
        {"test-ucS.pgn", 3},
        {"test-ucW.pgn", 1},
        {"test-w.pgn", 1},
    };
    for (const auto& [file, n] : files) {
      INFO(file);
      auto games = load(dir + file);
      CHECK(games.size() == n);
      for (const auto& g : games) CHECK(g.replayed);
      check_no_problems(games);
      // test-7.pgn's PlyCount says 166 for a game that ends with White's 83rd move.
      CHECK(plycount_mismatches(games) == (file == std::string_view("test-7.pgn")
                                               ? std::vector<std::string>{"0:166:165"}
                                               : std::vector<std::string>{}));
    }
  }

  SECTION("barnes-horton.pgn: a comment before the moves, a NAG, a variation with a comment") {
    auto games = load(dir + "barnes-horton.pgn");
    REQUIRE(games.size() == 1);
    const GameRead& g = games[0];
    CHECK(g.tag("Round") == "");
    CHECK(g.tag("Black") == "Horton, Mark");
    CHECK(g.record.leading_comments ==
          std::vector<std::string>{
              " Game played inaccurately by White under extreme time pressure. "});
    CHECK(g.plies == 72);
    REQUIRE(g.record.moves.size() == 72);
    const MoveNode& bb8 = g.record.moves[54];  // 28. Bb8 $2 (28. Bd6+ { wins })
    CHECK(sans(g.record)[54] == "Bb8");
    CHECK(bb8.nags == std::vector<std::uint8_t>{2});
    REQUIRE(bb8.variations.size() == 1);
    REQUIRE(bb8.variations[0].size() == 1);
    CHECK(to_san(position_before(g.record, 54), bb8.variations[0][0].move) == "Bd6+");
    CHECK(bb8.variations[0][0].comments_after == std::vector<std::string>{" wins "});
    Counts c = counts(g);
    CHECK(c.comments == 4);
    CHECK(c.nags == 1);
    CHECK(c.variations == 1);
    CHECK(g.fen == "8/3k3p/p3b1p1/1p3p2/2pB4/1PK2P2/P1P3PP/8 w - - 0 37");
    check_no_problems(games);
  }

  SECTION("eco.pgn: the file's opening comment is not a game of its own") {
    // pgn-extract reads 2014 games (one per ECO line) and drops the file's opening comment;
    // before cb7009e pgndb made a 2015th game of it (no tag, no move, no marker).
    auto games = load(dir + "eco.pgn");
    CHECK(games.size() == 2014);
    REQUIRE(!games.empty());
    const GameRead& first = games.front();
    // The comment may be dropped or kept as the first game's leading comment.
    CHECK(first.record.leading_comments.size() <= 1);
    CHECK(first.tag("ECO") == "A00");
    CHECK(first.tag("Opening") == "Polish (Sokolsky) opening");
    CHECK(sans(first.record) == std::vector<std::string>{"b4"});
    for (const auto& g : games) CHECK(g.replayed);
    // Two ECO lines end in mate but carry `*`.
    check_problems(games, {"6593:36 warning: the game ends in checkmate (1-0) but its result is",
                           "7053:6 warning: the game ends in checkmate (0-1) but its result is"});
  }

  SECTION("nested-comment.pgn: braces do not nest in PGN") {
    // pgn-extract too reads `which` as a move unless given --nestedcomments.
    auto games = load(dir + "nested-comment.pgn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].record.tags.empty());
    CHECK(games[0].plies == 1);
    CHECK(games[0].record.moves[0].comments_after ==
          std::vector<std::string>{" This game contains { a nested comment "});
    CHECK_FALSE(games[0].replayed);
    // The rest of the game is skipped, and so are its problems (the stray `}` of line 2).
    check_problems(games, {"1:46 error: unreadable move 'which'"});
  }

  SECTION("test-allownullmoves.pgn: `--` in the main line and before variations") {
    auto games = load(dir + "test-allownullmoves.pgn");
    REQUIRE(games.size() == 2);
    CHECK(sans(games[0].record) == std::vector<std::string>{"Rh3", "--", "Qxh7+", "Rxh7", "Rxh7#"});
    CHECK(games[0].end.is_checkmate());
    CHECK(games[0].fen == "1r5k/q4p1R/p4Np1/P1N1p3/8/3B4/1PP3PP/7K b - - 0 33");
    const GameRead& g = games[1];
    CHECK(sans(g.record) == std::vector<std::string>{"Qxb5", "--"});
    REQUIRE(g.record.moves.size() == 2);
    REQUIRE(g.record.moves[1].variations.size() == 2);  // alternatives to Black's null move
    CHECK(g.record.moves[1].variations[0].size() == 6);
    CHECK(g.record.moves[1].variations[1].size() == 2);
    // pgn-extract: "... w - - 0 2"; the halfmove clock after a null move is a convention
    // (python-chess counts the null move, as pgndb does).
    CHECK(g.fen.starts_with("4r1k1/2p2p2/5np1/1Q4q1/2p3P1/2B2P2/PP6/K6R w - - "));
    CHECK(g.fen.ends_with(" 2"));
    check_no_problems(games);
  }

  SECTION("test-fixresulttags-in.pgn: results that contradict mate or stalemate") {
    auto games = load(dir + "test-fixresulttags-in.pgn");
    REQUIRE(games.size() == 5);
    CHECK(games[0].end.is_checkmate());  // 30... Qh5#, tagged 1-0
    CHECK(games[1].end.is_stalemate());  // tagged 0-1
    CHECK(games[2].end.is_checkmate());  // 40. Ng5#, tagged 1/2-1/2
    CHECK(games[3].end.is_checkmate());  // 33. Rh8#, tagged 0-1
    CHECK(games[4].end.is_checkmate());  // 37. Qxg7#, tagged 1/2-1/2, no marker
    CHECK(games[1].fen == "8/8/8/8/8/5k2/5p2/5K2 w - - 2 71");
    CHECK(games[4].fen == "6k1/1p4Q1/p3p3/4PN2/3p1P2/2rq3P/P5bK/6R1 b - - 0 37");
    // pgn-extract --fixresulttags writes 0-1, 1/2-1/2, 1-0, 1-0, 1-0. Each warning stands at
    // the Result tag.
    check_problems(
        games, {"7:1 warning: the game ends in checkmate (0-1) but its result is \"1-0\"",
                "21:1 warning: the game ends in stalemate but its result is \"0-1\"",
                "42:1 warning: the game ends in checkmate (1-0) but its result is \"1/2-1/2\"",
                "58:1 warning: the game ends in checkmate (1-0) but its result is \"0-1\"",
                "73:1 warning: the game ends in checkmate (1-0) but its result is \"1/2-1/2\""});
  }

  SECTION("test-nobadresults.pgn: a tag and the movetext on one line") {
    // `[Result "1-0"] e4 *`: pgn-extract reads the tag, 1. e4 and the marker. Before cb7009e
    // pgndb took the rest of the line for the tag's value and lost the move.
    auto games = load(dir + "test-nobadresults.pgn");
    REQUIRE(games.size() == 9);
    const char* tags[] = {"1-0", "0-1", "1/2-1/2", "1-0", "0-1", "1/2-1/2", "*", "*", "*"};
    for (int i = 0; i < 9; ++i) {
      INFO("game " << i);
      CHECK(games[i].tag("Result") == tags[i]);
      CHECK(games[i].plies == 1);
      CHECK(games[i].fen == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    }
    // Each marker differs from its tag. pgn-extract calls six of them inconsistent: it lets a
    // `*` marker pass under a decided Result tag, where pgndb warns (as for
    // no_moves_but_game_termination_3.pgn).
    const std::vector<std::string> expected = {
        "1:19 warning: the result * contradicts the Result tag \"1-0\"",
        "2:19 warning: the result * contradicts the Result tag \"0-1\"",
        "3:23 warning: the result * contradicts the Result tag \"1/2-1/2\"",
        "4:19 warning: the result 0-1 contradicts the Result tag \"1-0\"",
        "5:19 warning: the result 1/2-1/2 contradicts the Result tag \"0-1\"",
        "6:23 warning: the result 1-0 contradicts the Result tag \"1/2-1/2\"",
        "7:17 warning: the result 1-0 contradicts the Result tag \"*\"",
        "8:17 warning: the result 0-1 contradicts the Result tag \"*\"",
        "9:17 warning: the result 1/2-1/2 contradicts the Result tag \"*\"",
    };
    check_problems(games, expected);
  }

  SECTION("test-promotion-in.pgn: results judged the same with or without a record") {
    // UCI promotions, upper and lower case. No Result tag: the marker is the result, and 1-0
    // agrees with the mates. Before cb7009e, read without a GameRecord (as `pgndb check`
    // reads), the replay compared the mates with "*" and warned at 4:7, 19:7, 24:7 and 39:7;
    // load() checks that both reads agree.
    auto games = load(dir + "test-promotion-in.pgn");
    REQUIRE(games.size() == 8);
    const char* placements[] = {"3R3k", "3N3k", "3B3k", "3Q3k"};
    for (int i = 0; i < 8; ++i) {
      INFO("game " << i);
      CHECK(games[i].plies == 1);
      CHECK(games[i].fen == std::string(placements[i % 4]) + "/8/7K/8/8/8/8/8 b - - 0 55");
      CHECK(games[i].end.is_checkmate() == (i % 4 == 0 || i % 4 == 3));
      CHECK(games[i].record.result == (i % 4 == 0 || i % 4 == 3 ? "1-0" : "*"));
    }
    check_no_problems(games);
  }

  SECTION("test-nagcomments.pgn, test-splitvariants.pgn: comments around NAGs and variations") {
    auto nags = load(dir + "test-nagcomments.pgn");
    REQUIRE(nags.size() == 1);
    REQUIRE(nags[0].record.moves.size() == 1);
    CHECK(nags[0].record.moves[0].nags == std::vector<std::uint8_t>{1, 2});
    CHECK(nags[0].record.moves[0].comments_after.size() == 3);
    check_no_problems(nags);

    auto split = load(dir + "test-splitvariants.pgn");
    REQUIRE(split.size() == 1);
    const GameRecord& r = split[0].record;
    CHECK(sans(r) == std::vector<std::string>{"e4", "e5", "Nf3"});
    CHECK(r.moves[0].comments_after == std::vector<std::string>{" comment1 "});
    CHECK(r.moves[1].comments_after == std::vector<std::string>{" comment2 "});
    REQUIRE(r.moves[1].variations.size() == 1);
    const Line& e6 = r.moves[1].variations[0];
    REQUIRE(e6.size() == 2);  // 1... e6 (1... d6) 2. d4 (2. Nf3)
    CHECK(e6[0].comments_before == std::vector<std::string>{" comment3 "});
    CHECK(e6[0].variations.size() == 1);
    CHECK(e6[1].variations.size() == 1);
    CHECK(r.moves[2].comments_before == std::vector<std::string>{" comment5 "});
    Counts c = counts(split[0]);
    CHECK(c.comments == 5);
    CHECK(c.variations == 3);
    check_no_problems(split);
  }

  SECTION("test-splitvariants.pgn: a comment after a variation's last sub-variation") {
    // `2. d4 (2. Nf3){ comment4 } )`: comment4 follows the sub-variation (2. Nf3) and ends the
    // line. pgn-extract writes it back there. pgndb keeps it as a comment after 2. d4, so the
    // export moved it before the sub-variation: `2. d4 {comment4} (2. Nf3))`. It is now kept
    // after the variations (MoveNode::comments_after_variations).
    auto split = load(dir + "test-splitvariants.pgn");
    REQUIRE(split.size() == 1);
    std::string out;
    write_game(split[0].record, out);
    const std::string movetext = squeeze(out.substr(out.find("\n\n") + 2));
    CHECK(movetext ==
          "1. e4 {comment1} 1... e5 {comment2} ({comment3} 1... e6 (1... d6) 2. d4 (2. Nf3) "
          "{comment4}) {comment5} 2. Nf3 *");
  }

  SECTION("test-fuzzydepth.pgn: four games of bare SAN, one per line") {
    auto games = load(dir + "test-fuzzydepth.pgn");
    REQUIRE(games.size() == 4);
    for (int i = 0; i < 4; ++i) {
      CHECK(games[i].begin.line == std::uint64_t(i + 1));
      CHECK(games[i].plies == 5);
      CHECK(games[i].record.tags.empty());
    }
    CHECK(games[0].fen == "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3");
  }

  SECTION("test-long-line.pgn, test-fifty.pgn, test-stalemate.pgn") {
    auto long_line = load(dir + "test-long-line.pgn");
    REQUIRE(long_line.size() == 1);
    REQUIRE(long_line[0].record.moves.size() == 4);
    CHECK(squeeze(long_line[0].record.moves[2].comments_after.at(0)) ==
          "only-a-fool-would-play-this-move-and-only-someone-wanting-to-test-how-the-program-copes-"
          "with-very-long-lines-would-type-a-comment-like-this");
    CHECK(long_line[0].end.is_checkmate());

    auto fifty = load(dir + "test-fifty.pgn");
    REQUIRE(fifty.size() == 2);
    CHECK(fifty[0].fen == "7k/4NK2/5r2/5BN1/8/8/8/8 w - - 103 115");
    CHECK(fifty[1].fen == "7k/5q2/5Q1P/6P1/8/6K1/8/8 b - - 112 142");

    auto stalemate = load(dir + "test-stalemate.pgn");
    REQUIRE(stalemate.size() == 3);
    CHECK(stalemate[0].end.is_checkmate());
    CHECK(stalemate[2].end.is_stalemate());
    CHECK(stalemate[2].record.result == "1/2-1/2");
    CHECK(stalemate[2].fen == "8/8/8/5kpn/8/7K/5r2/8 w - - 0 52");
  }

  SECTION("outfiles/: pgn-extract's output in other notations reads back the same game") {
    const std::string barnes = "8/3k3p/p3b1p1/1p3p2/2pB4/1PK2P2/P1P3PP/8 w - - 0 37";
    // LAN, hyphenated, with x, with piece letters, UCI (castling e8g8, e1c1).
    for (const char* file :
         {"test-Welalg-out.pgn", "test-Whalg-out.pgn", "test-Wlalg-out.pgn", "test-WWelalg-out.pgn",
          "test-WWhalg-out.pgn", "test-WWlalg-out.pgn", "test-WWuci-out.pgn",
          "test-WWxlalg-out.pgn", "test-nomovenumbers-out.pgn", "test-notags-out.pgn"}) {
      INFO(file);
      auto games = load(dir + "outfiles/" + file);
      REQUIRE(games.size() == 1);
      CHECK(games[0].plies == 72);
      CHECK(games[0].fen == barnes);
      check_no_problems(games);
    }
    // German piece letters are not PGN's (mliebelt's parser rejects them): found, and read with
    // a warning.
    for (const char* file : {"test-Wdeutsch-out.pgn", "test-WWdeutsch-out.pgn"}) {
      INFO(file);
      auto games = load(dir + "outfiles/" + file);
      REQUIRE(games.size() == 1);
      CHECK(games[0].plies == 72);
      CHECK(games[0].fen == barnes);
      check_problems(games,
                     {"1:1 warning: the moves are written with the piece letters of "
                      "Norwegian, Danish, Swedish or German (SLTDK for N B R Q K): read so"});
    }
    // An EPD file is not PGN either: errors, from its first line.
    auto epd = load(dir + "outfiles/test-WWepd-out.pgn");
    REQUIRE(!epd.empty());
    REQUIRE(!epd[0].problems.empty());
    CHECK(describe(epd[0].problems[0]).starts_with("1:1 error: unreadable move"));
    // A game cut short with `*` while its Result tag keeps the old result.
    auto cut = load(dir + "outfiles/test-plylimit-out.pgn");
    check_problems(cut, {"11:54 warning: the result * contradicts the Result tag \"1/2-1/2\""});
  }
}

// --- pychess: lichess studies (deep variations, [%csl]/[%cal]), 914 mate puzzles ------------

TEST_CASE("edge: pychess", "[edge]") {
  const std::string dir = "pychess/";

  SECTION("every file: games, errors, and results against the board") {
    // Study chapters carry `*`: a chapter that ends in mate or stalemate is warned about.
    struct Expect {
      const char* file;
      std::size_t games;
      int errors, mates, stalemates;
    };
    const Expect files[] = {
        {"lessons__lichess_study_2nd-part-game-puzzles-with-interactive-lessons_by_Francesco_Super_"
         "2018.01.03.pgn",
         16, 0, 2, 0},
        {"lessons__lichess_study_beautiful-checkmate-puzzles_by_thijscom_2018.04.16.pgn", 27, 0, 27,
         0},
        {"lessons__lichess_study_beautiful-chess-studies-1_by_thijscom_2018.03.05.pgn", 64, 0, 14,
         18},
        {"lessons__lichess_study_beautiful-chess-studies-2_by_thijscom_2018.04.17.pgn", 39, 0, 13,
         10},
        {"lessons__lichess_study_beta-lichess-practice-7th-rank-rook-pawn-with-a-passive-rook_by_"
         "arex_2018.04.04.pgn",
         9, 0, 0, 0},
        {"lessons__lichess_study_beta-lichess-practice-checkmating-with-a-knight-and-bishop_by_"
         "arex_"
         "2017.08.02.pgn",
         13, 0, 2, 0},
        {"lessons__lichess_study_beta-lichess-practice-queen-vs-7th-rank-pawn_by_arex_2018.04.02."
         "pgn",
         18, 0, 7, 0},
        {"lessons__lichess_study_charles-xii-at-bender_by_gbtami_2016.08.15.pgn", 4, 0, 4, 0},
        {"lessons__lichess_study_game-puzzles-with-interactive-lessons_by_Francesco_Super_2017.08."
         "27.pgn",
         19, 0, 5, 0},
        {"puzzles__lichess_study_lichess-practice-checkmate-patterns-i_by_arex_2017.01.22.pgn", 17,
         0, 0, 0},
        {"puzzles__lichess_study_lichess-practice-checkmate-patterns-ii_by_arex_2017.01.25.pgn", 24,
         0, 0, 0},
        {"puzzles__lichess_study_lichess-practice-checkmate-patterns-iii_by_arex_2017.01.27.pgn",
         18, 0, 1, 0},
        {"puzzles__lichess_study_lichess-practice-checkmate-patterns-iv_by_arex_2017.01.25.pgn", 16,
         0, 2, 0},
        {"puzzles__lichess_study_lichess-practice-discovered-attacks_by_arex_2017.01.30.pgn", 10, 0,
         0, 0},
        {"puzzles__lichess_study_lichess-practice-double-check_by_arex_2017.02.12.pgn", 6, 0, 3, 0},
        {"puzzles__lichess_study_lichess-practice-greek-gift_by_arex_2017.02.11.pgn", 6, 1, 1, 0},
        {"puzzles__lichess_study_lichess-practice-interference_by_arex_2017.02.11.pgn", 7, 0, 1, 0},
        {"puzzles__lichess_study_lichess-practice-key-squares_by_arex_2017.01.21.pgn", 11, 0, 0, 0},
        {"puzzles__lichess_study_lichess-practice-opposition_by_arex_2017.01.22.pgn", 8, 0, 0, 0},
        {"puzzles__lichess_study_lichess-practice-overloaded-pieces_by_arex_2017.01.31.pgn", 11, 0,
         0, 0},
        {"puzzles__lichess_study_lichess-practice-piece-checkmates-i_by_arex_2017.01.25.pgn", 6, 0,
         3, 0},
        {"puzzles__lichess_study_lichess-practice-piece-checkmates-ii_by_arex_2017.01.25.pgn", 7, 0,
         2, 0},
        {"puzzles__lichess_study_lichess-practice-rook-endgames_by_TonyRo_2017.02.01.pgn", 5, 0, 0,
         0},
        {"puzzles__lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn", 18, 3, 0, 0},
        {"puzzles__lichess_study_lichess-practice-the-pin_by_arex_2017.01.22.pgn", 8, 0, 0, 0},
        {"puzzles__lichess_study_lichess-practice-the-skewer_by_arex_2017.01.29.pgn", 9, 0, 0, 0},
        {"puzzles__lichess_study_lichess-practice-zugzwang_by_arex_2017.02.01.pgn", 4, 0, 0, 0},
        {"puzzles__lichess_study_lichess-practice-zwischenzug_by_arex_2017.02.02.pgn", 5, 0, 0, 0},
    };
    for (const Expect& e : files) {
      INFO(e.file);
      auto games = load(dir + e.file);
      CHECK(games.size() == e.games);
      int errors = 0, mates = 0, stalemates = 0, others = 0;
      for (const auto& g : games) {
        for (const auto& p : g.problems) {
          if (p.severity == GameProblem::Severity::Error)
            ++errors;
          else if (p.message.starts_with("the game ends in checkmate"))
            ++mates;
          else if (p.message.starts_with("the game ends in stalemate"))
            ++stalemates;
          else if (p.message.find("impossible in standard chess") != std::string::npos)
            continue;  // not an other problem: asserted in the sections on those games
          else
            ++others;
        }
        // Each such warning is true of the board, and there is one per game that ends so.
        CHECK(g.end.is_checkmate() + g.end.is_stalemate() ==
              int(std::count_if(g.problems.begin(), g.problems.end(), [](const GameProblem& p) {
                return p.message.starts_with("the game ends in");
              })));
      }
      CHECK(errors == e.errors);
      CHECK(mates == e.mates);
      CHECK(stalemates == e.stalemates);
      CHECK(others == 0);
    }
  }

  SECTION("mate puzzles: every solution replays and mates in N") {
    const std::pair<const char*, std::size_t> files[] = {{"puzzles__mate_in_2.pgn", 166},
                                                         {"puzzles__mate_in_3.pgn", 375},
                                                         {"puzzles__mate_in_4.pgn", 373}};
    int n = 2;
    for (const auto& [file, count] : files) {
      INFO(file);
      auto games = load(dir + file);
      CHECK(games.size() == count);
      int mate_warnings = 0, other_problems = 0;
      for (const auto& g : games) {
        INFO("game at line " << g.begin.line);
        CHECK(g.replayed);
        CHECK(g.plies == 2 * n - 1);
        CHECK(g.end.is_checkmate());
        CHECK(g.tag("Termination") == "mate in " + std::to_string(n));
        CHECK(g.record.result == "*");
        for (const auto& p : g.problems) {
          if (p.message == "the game ends in checkmate (1-0) but its result is \"*\"" ||
              p.message == "the game ends in checkmate (0-1) but its result is \"*\"")
            ++mate_warnings;
          else
            ++other_problems;
        }
      }
      CHECK(mate_warnings == int(count));
      CHECK(other_problems == (n == 2 ? 1 : 0));
      if (n == 2) {
        // FEN tags end in "1 0": a fullmove number of 0 is read as 1.
        CHECK(to_fen(games[0].record.start) ==
              "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
        CHECK(sans(games[0].record) == std::vector<std::string>{"Nf6+", "gxf6", "Bxf7#"});
        CHECK(games[0].fen == "r2qkb1r/pp2nB1p/3p1p2/2p1N1B1/3nP3/3P4/PPP2PPP/R2bK2R b KQkq - 0 2");
        // One Latin-1 byte in the file: 0xE1 in "Polgar".
        const GameRead& polgar = games[95];
        CHECK(polgar.begin.line == 1331);
        CHECK(polgar.tag("White") == "Judit Polg\u00e1r");
        check_problems({polgar},
                       {"1335:1 warning: text is not valid UTF-8; read as Windows-1252",
                        "1337:1 warning: the game ends in checkmate (1-0) but its result is"});
      }
      if (n == 3) {
        // `[White ""Socrates Expert""]`: the raw quotes stay in the value.
        const GameRead& g = games[204];
        CHECK(g.begin.line == 2857);
        CHECK(g.tag("White") == "\"Socrates Expert\"");
        CHECK(g.tag("Black") == "Alexander Ivanov");
      }
      ++n;
    }
  }

  SECTION("charles-xii-at-bender: Loyd's problems, with variations and long comments") {
    auto games =
        load(dir + "lessons__lichess_study_charles-xii-at-bender_by_gbtami_2016.08.15.pgn");
    REQUIRE(games.size() == 4);
    CHECK(games[3].tag("Event") == "Charles XII at Bender: Benk\u0151 P\u00e1l mate in #2");
    const int plies[] = {5, 7, 9, 3};
    const char* fens[] = {"8/8/7p/5K1k/6P1/5N2/7b/8 b - - 0 3", "8/8/7p/5K1k/6Pb/8/6P1/8 b - - 0 4",
                          "8/8/7p/5K1k/6Pb/8/7p/8 b - - 0 5",
                          "8/7R/8/5Kpk/8/6p1/5bPP/4N3 b - - 1 2"};
    for (int i = 0; i < 4; ++i) {
      INFO("game " << i);
      CHECK(games[i].plies == plies[i]);
      CHECK(games[i].fen == fens[i]);
      CHECK(games[i].end.is_checkmate());
      CHECK(games[i].record.leading_comments.size() == 1);
    }
    Counts c = counts(games[0]);
    CHECK(c.nodes == 10);
    CHECK(c.comments == 4);
    CHECK(c.variations == 2);
    check_problems(games,
                   {"8:1 warning: the game ends in checkmate (1-0) but its result is \"*\"",
                    "23:1 warning: the game ends in checkmate (1-0) but its result is \"*\"",
                    "38:1 warning: the game ends in checkmate (1-0) but its result is \"*\"",
                    "53:1 warning: the game ends in checkmate (1-0) but its result is \"*\""});
  }

  SECTION("2nd-part-game-puzzles: an X-FEN castling right for a rook on b8") {
    auto games = load(dir +
                      "lessons__lichess_study_2nd-part-game-puzzles-with-interactive-lessons_by_"
                      "Francesco_Super_2018.01.03.pgn");
    REQUIRE(games.size() == 16);
    const GameRead& g = games[14];
    CHECK(g.tag("FEN") == "1rr3k1/p3ppbp/3pbnp1/7P/qP1BP1P1/5P2/1PPQ4/1NKR1B1R b Kq - 0 1");
    CHECK(g.plies == 3);
    // The game is declared standard chess, where kings on c1 and g8 cannot castle: the rights
    // are dropped with a warning. (pgn-extract keeps them, in Shredder-FEN: "w Kb - 0 3".)
    CHECK(g.fen == "1rr3k1/p3pp1p/3pbnp1/7P/qP1BP1P1/3B1P2/1PPb4/1NKR3R w - - 0 3");
    CHECK(std::count_if(g.problems.begin(), g.problems.end(), [](const GameProblem& p) {
            return p.message.find("impossible in standard chess") != std::string::npos;
          }) == 1);
  }

  SECTION("an illegal move in a variation costs the rest of that variation only") {
    // 1. Bxh7+ Kxh7 (20... Kf8) 2. Ng5+ Kg8 3. Qh5 Qxg5 4. Bxg5: the king cannot go to f8, where
    // its rook stands (pgn-extract rejects the move too). The replay skips the rest of the bad
    // variation and goes on with the main line, as python-chess does. Expected final
    // positions: pgn-extract's, with the bad variation taken out.
    auto gift =
        load(dir + "puzzles__lichess_study_lichess-practice-greek-gift_by_arex_2017.02.11.pgn");
    REQUIRE(gift.size() == 6);
    CHECK(gift[0].errors() == 1);
    // (problems[0] is the castling warning of the section below)
    CHECK(describe(gift[0].problems.at(1)).starts_with("17:137 error: illegal move 'Kf8'"));
    CHECK(gift[0].plies == 7);
    CHECK(gift[0].fen == "rnb2rk1/pppn1pp1/4p3/3pP1BQ/1b1P4/2N5/PPP2PPP/R3K2R b KQ - 0 4");

    // Moves for the wrong side, in the main line (game 1) or in variations (games 17, 18).
    auto fork =
        load(dir + "puzzles__lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn");
    REQUIRE(fork.size() == 18);
    std::vector<std::string> errors;
    for (const auto& g : fork)
      for (const auto& p : g.problems)
        if (p.severity == GameProblem::Severity::Error)
          errors.push_back(describe(p).substr(0, describe(p).find(" in ")));
    CHECK(errors == std::vector<std::string>{"15:6 error: illegal move 'Nxg5'",
                                             "270:15 error: illegal move 'Bxc6+'",
                                             "286:16 error: illegal move 'Nxg5'"});
    CHECK(fork[0].plies == 0);
    // 1... Nxg5 (1. Bxc6+) (1. Nxc6) 2. Bxg5 f6
    CHECK(fork[16].plies == 3);
    CHECK(fork[16].fen == "4r1k1/1pp1n1bp/p2q1pp1/3pN1B1/3P4/2P1N1Q1/PP3P1P/R6K w - - 0 3");
    // 1. Bxc6+ (1... Nxg5) 1... Kd8 2. Nxf7+ Kc7 3. Bxa8 Bh5 (3... Bxc2 4. Nxh8) 4. Nxh8
    CHECK(fork[17].plies == 7);
    CHECK(fork[17].fen == "B4bnN/p1k1p1pp/3p4/q6b/4P3/2N5/PPP2PPP/R1B1K2R b KQ - 0 4");
  }

  SECTION("a [Variant \"Standard\"] game whose FEN has a right only Chess960 allows") {
    // [FEN "rnbq1rk1/pppn1ppp/4p3/3pP3/1b1P4/2NB1N2/PPP2PPP/R1BQK2R w KQq - 0 1"]: Black's king
    // stands on g8, so `q` is no castling right in standard chess. As pgn-extract ("Queenside
    // castling is forbidden to Black") and python-chess do, the right is dropped: standard
    // chess, rights KQ, and a warning at the FEN tag (line 11).
    auto gift =
        load(dir + "puzzles__lichess_study_lichess-practice-greek-gift_by_arex_2017.02.11.pgn");
    REQUIRE(!gift.empty());
    const GameRead& g = gift[0];
    CHECK(g.tag("Variant") == "Standard");
    CHECK_FALSE(g.record.start.is_chess960());
    CHECK(to_fen(g.record.start) ==
          "rnbq1rk1/pppn1ppp/4p3/3pP3/1b1P4/2NB1N2/PPP2PPP/R1BQK2R w KQ - 0 1");
    CHECK(std::any_of(g.problems.begin(), g.problems.end(), [](const GameProblem& p) {
      return p.severity == GameProblem::Severity::Warning && p.location.line == 11;
    }));
  }
}
