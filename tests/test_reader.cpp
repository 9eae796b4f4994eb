// The streaming PGN reader (reader.h): tags (also broken real-world ones), movetext tokens,
// comments and escapes, variations, results, input forms (BOM, line ends, NUL bytes), locations,
// encodings, chunk independence, the game's original text, visitor control, size limits; the
// typed comment commands (comment_commands.h); and the replay visitor's record with its export
// (replay.h, writer.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/comment_commands.h"
#include "pgn/game_record.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgn/san.h"
#include "pgn/writer.h"
#include "support.h"

namespace {

using namespace pgn;
using namespace pgndb::test;
using Log = std::vector<std::string>;
using namespace std::string_literals;

const std::string data_dir = PGNDB_SHARED_DATA;

std::string at(Location l) { return "@" + std::to_string(l.line) + ":" + std::to_string(l.column); }

// Logs every callback as a line of text, e.g. `tag Event=Foo @1:1` or `move e4 nag0 @3:4`.
// Every callback returns Continue (begin_variation too, so variations are delivered) unless
// `decide` says otherwise; it sees each event as logged.
class Recorder : public Visitor {
 public:
  explicit Recorder(bool locations = true) : locations_(locations) {}

  Log log;
  std::vector<std::string> texts;  // end_game texts, one per game
  std::function<Control(const std::string&)> decide;

  Control begin_game(Location l) override { return add("begin_game", l); }
  Control tag(std::string_view name, std::string_view value, Location l) override {
    return add("tag " + std::string(name) + "=" + std::string(value), l);
  }
  Control begin_movetext() override { return add("begin_movetext"); }
  Control move(const MoveToken& m) override {
    return add("move " + std::string(m.san) + " nag" + std::to_string(m.suffix_nag), m.location);
  }
  Control nag(int n, Location l) override { return add("nag " + std::to_string(n), l); }
  Control comment(std::string_view text, Location l) override {
    return add("comment \"" + std::string(text) + "\"", l);
  }
  Control begin_variation(Location l) override { return add("begin_variation", l); }
  Control end_variation(Location l) override { return add("end_variation", l); }
  Control result(std::string_view r, Location l) override {
    return add("result " + std::string(r), l);
  }
  void syntax_problem(const SyntaxProblem& p) override {
    std::string s =
        p.severity == SyntaxProblem::Severity::Error ? "problem error " : "problem warning ";
    if (locations_)
      s += std::to_string(p.location.line) + ":" + std::to_string(p.location.column) + " ";
    log.push_back(s + p.message);
  }
  void end_game(std::string_view text) override {
    log.push_back("end_game");
    texts.emplace_back(text);
  }

 private:
  Control add(std::string event, Location l) {
    if (locations_) event += " " + at(l);
    return add(std::move(event));
  }
  Control add(std::string event) {
    log.push_back(std::move(event));
    return decide ? decide(log.back()) : Control::Continue;
  }
  bool locations_;
};

// Reads every game of `text` into `v`; returns the number of games read.
int read_all(std::string_view text, Visitor& v, ReaderOptions options = {}) {
  StringSource source(text);
  Reader reader(source, options);
  int games = 0;
  for (;;) {
    auto more = reader.read_game(v);
    REQUIRE(more.has_value());
    if (!*more) break;
    ++games;
    REQUIRE(games < 1'000'000);
  }
  return games;
}

Log events(std::string_view text, bool locations = true, ReaderOptions options = {}) {
  Recorder r(locations);
  read_all(text, r, options);
  return r.log;
}

// Compares two long logs and names the first difference, rather than printing both whole.
void check_same_log(const Log& actual, const Log& expected) {
  const std::size_t n = std::min(actual.size(), expected.size());
  std::size_t i = 0;
  while (i < n && actual[i] == expected[i]) ++i;
  if (i < n) {
    INFO("first difference at event " << i);
    CHECK(actual[i] == expected[i]);
  }
  CHECK(actual.size() == expected.size());
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  std::size_t at = 0;
  while ((at = s.find(from, at)) != std::string::npos) {
    s.replace(at, from.size(), to);
    at += to.size();
  }
  return s;
}

// --- Tags ---

TEST_CASE("reader: plain tags, escapes resolved, locations", "[reader][tags]") {
  const std::string text =
      "[Event \"Foo\"]\n"
      "[Site \"Say \\\"hi\\\" \\\\ bye\"]\n"
      "[Annotator \"C:\\dir\"]\n"
      "\n"
      "1. e4 *\n";
  Recorder r;
  CHECK(read_all(text, r) == 1);
  CHECK(r.log == Log{"begin_game @1:1", "tag Event=Foo @1:1", "tag Site=Say \"hi\" \\ bye @2:1",
                     "tag Annotator=C:\\dir @3:1", "begin_movetext", "move e4 nag0 @5:4",
                     "result * @5:7", "end_game"});
  REQUIRE(r.texts.size() == 1);
  CHECK(r.texts[0] == text.substr(0, text.size() - 1));
}

TEST_CASE("reader: broken real-world tags", "[reader][tags]") {
  const std::string text =
      "[Event \"The \"Big\" Open\"]\n"
      "[Site \"a]b\"]\n"
      "[White \"A\"] [Black \"B\"]\n"
      "[Round \"3\"\n"
      "[Date \"2024.01.01\"]\n"
      "[ECO C44]\n"
      "\n"
      "1. d4 1-0\n";
  CHECK(events(text) ==
        Log{"begin_game @1:1", "tag Event=The \"Big\" Open @1:1", "tag Site=a]b @2:1",
            "tag White=A @3:1", "tag Black=B @3:13",
            "problem warning 4:1 tag Round is not of the form [Name \"value\"]; read its value as "
            "\"3\"",
            "tag Round=3 @4:1", "tag Date=2024.01.01 @5:1",
            "problem warning 6:1 tag ECO is not of the form [Name \"value\"]; read its value as "
            "\"C44\"",
            "tag ECO=C44 @6:1", "begin_movetext", "move d4 nag0 @8:4", "result 1-0 @8:7",
            "end_game"});
}

TEST_CASE("reader: broken tags in disservin's files", "[reader][tags]") {
  const std::string dir = data_dir + "/edge/disservin-chess-library/";
  auto tags = [](const std::string& text) {
    Log out;
    for (const auto& e : events(text, false))
      if (e.starts_with("tag ")) out.push_back(e);
    return out;
  };
  CHECK(tags(read_file(dir + "unescaped_quote_header.pgn")) ==
        Log{"tag Event=Tournament \"Championship\" Finals", "tag Site=Club \"Victory\"",
            "tag Date=2024.04.20", "tag Round=5", "tag White=Smith, John \"The King\"",
            "tag Black=Jones, \"Lightning\" Mike", "tag Result=*"});
  const Log brackets = tags(read_file(dir + "square_bracket_in_header.pgn"));
  REQUIRE(brackets.size() >= 6);
  CHECK(brackets[0] == "tag Event=Batch 10: s20red4c4_t3 vs master[!important]");
  CHECK(brackets[1] == "tag Variation=closing ] opening");
  CHECK(brackets[5] == "tag White=New-cfe8\"dsadsa\"ce842c");
  // `[Event "Tournament \"]`: the backslash stands for itself before the closing quote.
  const Log backslash = tags(read_file(dir + "backslash_header.pgn"));
  REQUIRE(!backslash.empty());
  CHECK(backslash[0] == "tag Event=Tournament \\");
}

TEST_CASE("reader: a blank line among tags does not end them", "[reader][tags]") {
  const std::string text =
      "[Event \"A\"]\n"
      "\n"
      "[Site \"B\"]\n"
      "\n"
      "1. e4 *\n";
  CHECK(events(text) == Log{"begin_game @1:1", "tag Event=A @1:1", "tag Site=B @3:1",
                            "begin_movetext", "move e4 nag0 @5:4", "result * @5:7", "end_game"});

  // python-chess's ChessBase export, with the blank line after its first tag.
  const std::string file = read_file(data_dir + "/edge/python-chess/chessbase-empty-line.pgn");
  Recorder r(false);
  CHECK(read_all(file, r) == 1);
  REQUIRE(r.log.size() > 4);
  CHECK(r.log[1] == "tag Event=AlphaZero vs. Stockfish");
  CHECK(r.log[2] == "tag Date=2017.12.04");
  CHECK(std::count(r.log.begin(), r.log.end(), "begin_movetext") == 1);
  CHECK(r.log[r.log.size() - 2] == "result 0-1");
}

TEST_CASE("reader: a repeated tag name starts a new game", "[reader][tags]") {
  const std::string text =
      "[Event \"A\"]\n"
      "[Site \"X\"]\n"
      "[Event \"B\"]\n"
      "[Site \"Y\"]\n"
      "\n"
      "1. e4 1-0\n";
  Recorder r;
  CHECK(read_all(text, r) == 2);
  CHECK(r.log == Log{"begin_game @1:1", "tag Event=A @1:1", "tag Site=X @2:1", "end_game",
                     "begin_game @3:1", "tag Event=B @3:1", "tag Site=Y @4:1", "begin_movetext",
                     "move e4 nag0 @6:4", "result 1-0 @6:7", "end_game"});
  CHECK(r.texts == std::vector<std::string>{"[Event \"A\"]\n[Site \"X\"]",
                                            "[Event \"B\"]\n[Site \"Y\"]\n\n1. e4 1-0"});
}

// --- Movetext ---

TEST_CASE("reader: move numbers in all their forms, and none", "[reader][movetext]") {
  const std::string text = "1. e4 1... e5 2.Nf3 Nc6 3. Bb5 3. ... a6 Ba4 4...Nf6 *";
  CHECK(events(text) == Log{"begin_game @1:1", "begin_movetext", "move e4 nag0 @1:4",
                            "move e5 nag0 @1:12", "move Nf3 nag0 @1:17", "move Nc6 nag0 @1:21",
                            "move Bb5 nag0 @1:28", "move a6 nag0 @1:39", "move Ba4 nag0 @1:42",
                            "move Nf6 nag0 @1:50", "result * @1:54", "end_game"});
}

TEST_CASE("reader: brace comments across lines, rest-of-line comments", "[reader][movetext]") {
  const std::string text =
      "1. e4 {a comment\n"
      "spanning lines} e5 ; to end of line {not a brace\n"
      "2. Nf3 {} *\n";
  CHECK(events(text) == Log{"begin_game @1:1", "begin_movetext", "move e4 nag0 @1:4",
                            "comment \"a comment\nspanning lines\" @1:7", "move e5 nag0 @2:17",
                            "comment \" to end of line {not a brace\" @2:20", "move Nf3 nag0 @3:4",
                            "comment \"\" @3:8", "result * @3:11", "end_game"});
}

TEST_CASE("reader: % escape lines at column 1 are ignored", "[reader][movetext]") {
  const std::string text =
      "% escape before the tags [Event \"no\"]\n"
      "[Event \"E\"]\n"
      "%between tags\n"
      "[Site \"S\"]\n"
      "\n"
      "1. e4 e5\n"
      "% escape in movetext { not a comment ( not a variation\n"
      "2. Nf3 *\n";
  Recorder r;
  CHECK(read_all(text, r) == 1);
  CHECK(r.log == Log{"begin_game @2:1", "tag Event=E @2:1", "tag Site=S @4:1", "begin_movetext",
                     "move e4 nag0 @6:4", "move e5 nag0 @6:7", "move Nf3 nag0 @8:4",
                     "result * @8:8", "end_game"});
  REQUIRE(r.texts.size() == 1);
  const std::size_t first = text.find("\n[Event") + 1;
  CHECK(r.texts[0] == text.substr(first, text.size() - 1 - first));
}

TEST_CASE("reader: NAGs $0..$255, bad ones are errors", "[reader][movetext]") {
  const std::string text = "1. e4 $1 e5 $255 2. Nf3 $999 Nc6 $0 $1234 3. Bb5 $ *";
  CHECK(events(text) == Log{"begin_game @1:1", "begin_movetext", "move e4 nag0 @1:4", "nag 1 @1:7",
                            "move e5 nag0 @1:10", "nag 255 @1:13", "move Nf3 nag0 @1:21",
                            "problem error 1:25 bad NAG '$999'; ignored", "move Nc6 nag0 @1:30",
                            "nag 0 @1:34", "problem error 1:37 bad NAG '$1234'; ignored",
                            "move Bb5 nag0 @1:46", "problem error 1:50 bad NAG '$'; ignored",
                            "result * @1:52", "end_game"});
}

TEST_CASE("reader: suffix annotations give the move's suffix NAG", "[reader][movetext]") {
  const std::string text = "1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Bxf7+! Kxf7!!! *";
  CHECK(events(text, false) == Log{"begin_game", "begin_movetext", "move e4 nag1", "move e5 nag2",
                                   "move Nf3 nag3", "move Nc6 nag4", "move Bb5 nag5",
                                   "move a6 nag6", "move Bxf7+ nag1",
                                   "problem warning unknown annotation '!!!'; ignored",
                                   "move Kxf7 nag0", "result *", "end_game"});
  CHECK(nag_of_symbol("!") == 1);
  CHECK(nag_of_symbol("?!") == 6);
  CHECK(nag_of_symbol("+-") == 18);
  CHECK(nag_of_symbol("N") == 146);
  CHECK(nag_of_symbol("e4") == 0);
}

TEST_CASE("reader: evaluation symbols as tokens are NAGs", "[reader][movetext]") {
  const std::string text =
      "1. e4 +- e5 -+ 2. Nf3 = Nc6 += 3. Bb5 =+ a6 \u00b1 4. Ba4 \u2213 Nf6 \u221e 5. O-O N "
      "Be7 +/- 6. Re1 -/+ *";
  CHECK(events(text, false) ==
        Log{"begin_game",    "begin_movetext", "move e4 nag0",  "nag 18", "move e5 nag0",  "nag 19",
            "move Nf3 nag0", "nag 10",         "move Nc6 nag0", "nag 14", "move Bb5 nag0", "nag 15",
            "move a6 nag0",  "nag 16",         "move Ba4 nag0", "nag 17", "move Nf6 nag0", "nag 13",
            "move O-O nag0", "nag 146",        "move Be7 nag0", "nag 16", "move Re1 nag0", "nag 17",
            "result *",      "end_game"});
}

TEST_CASE("reader: variations nested three deep", "[reader][movetext]") {
  const std::string text = "1. e4 (1. d4 d5 (1... Nf6 2. c4 (2. Nf3 g6))) e5 *";
  CHECK(events(text) == Log{"begin_game @1:1", "begin_movetext", "move e4 nag0 @1:4",
                            "begin_variation @1:7", "move d4 nag0 @1:11", "move d5 nag0 @1:14",
                            "begin_variation @1:17", "move Nf6 nag0 @1:23", "move c4 nag0 @1:30",
                            "begin_variation @1:33", "move Nf3 nag0 @1:37", "move g6 nag0 @1:41",
                            "end_variation @1:43", "end_variation @1:44", "end_variation @1:45",
                            "move e5 nag0 @1:47", "result * @1:50", "end_game"});
}

TEST_CASE("reader: e8(Q) is one move, exd6e.p. and castling are moves", "[reader][movetext]") {
  CHECK(events("1. e8(Q) e1(n) 2. axb8(R) (2. h8(B)) *", false) ==
        Log{"begin_game", "begin_movetext", "move e8(Q) nag0", "move e1(n) nag0",
            "move axb8(R) nag0", "begin_variation", "move h8(B) nag0", "end_variation", "result *",
            "end_game"});
  // A variation right after a move to the last rank is still a variation.
  CHECK(events("1. Rd8 (1. Rd1) *", false) == Log{"begin_game", "begin_movetext", "move Rd8 nag0",
                                                  "begin_variation", "move Rd1 nag0",
                                                  "end_variation", "result *", "end_game"});
  CHECK(events("1. e4 d5 2. e5 f5 3. exf6e.p. g5 4. exg6 e.p. *", false) ==
        Log{"begin_game", "begin_movetext", "move e4 nag0", "move d5 nag0", "move e5 nag0",
            "move f5 nag0", "move exf6e.p. nag0", "move g5 nag0", "move exg6 nag0", "result *",
            "end_game"});
  CHECK(events("1. e4 -- 2. Z0 e5 *", false) == Log{"begin_game", "begin_movetext", "move e4 nag0",
                                                    "move -- nag0", "move Z0 nag0", "move e5 nag0",
                                                    "result *", "end_game"});
  CHECK(events("1. 0-0 O-O 2. 0-0-0 O-O-O+ 3. 0-0! 0-0-0# *", false) ==
        Log{"begin_game", "begin_movetext", "move 0-0 nag0", "move O-O nag0", "move 0-0-0 nag0",
            "move O-O-O+ nag0", "move 0-0 nag1", "move 0-0-0# nag0", "result *", "end_game"});

  // The replay accepts what the reader delivered.
  ReplayVisitor replay;
  StringSource source("1. e4 a6 2. e5 d5 3. exd6e.p. Nf6 4. Nf3 e6 5. Bc4 Be7 6. 0-0 0-0 *");
  Reader reader(source);
  REQUIRE(reader.read_game(replay).value());
  CHECK(replay.problems().empty());
  CHECK(replay.replayed());
  CHECK(replay.main_line_plies() == 12);
}

TEST_CASE("reader: e8(Q)+ with a check sign is one move", "[reader][movetext]") {
  CHECK(events("1. e8(Q)+ Kxe8 2. d8(N)# *", false) ==
        Log{"begin_game", "begin_movetext", "move e8(Q)+ nag0", "move Kxe8 nag0",
            "move d8(N)# nag0", "result *", "end_game"});
}

TEST_CASE("reader: the four results end games", "[reader][movetext]") {
  Recorder r(false);
  CHECK(read_all("1. e4 1-0\n1. d4 0-1 1. c4 1/2-1/2\n\n1. Nf3 *\n", r) == 4);
  CHECK(r.log == Log{"begin_game",     "begin_movetext", "move e4 nag0",   "result 1-0",
                     "end_game",       "begin_game",     "begin_movetext", "move d4 nag0",
                     "result 0-1",     "end_game",       "begin_game",     "begin_movetext",
                     "move c4 nag0",   "result 1/2-1/2", "end_game",       "begin_game",
                     "begin_movetext", "move Nf3 nag0",  "result *",       "end_game"});
  CHECK(r.texts == std::vector<std::string>{"1. e4 1-0", "1. d4 0-1", "1. c4 1/2-1/2", "1. Nf3 *"});
  // The draw as some files write it.
  CHECK(events("1. e4 \u00bd-\u00bd\n1. d4 1/2\n", false) ==
        Log{"begin_game", "begin_movetext", "move e4 nag0", "result 1/2-1/2", "end_game",
            "begin_game", "begin_movetext", "move d4 nag0", "result 1/2-1/2", "end_game"});
}

TEST_CASE("reader: a variation left open is an error", "[reader][movetext]") {
  CHECK(events("1. e4 (1. d4 d5\n\n[Event \"B\"]\n\n1. c4 *", false) ==
        Log{"begin_game", "begin_movetext", "move e4 nag0", "begin_variation", "move d4 nag0",
            "move d5 nag0", "problem error 1 variation(s) not closed at the end of the game",
            "end_variation", "end_game", "begin_game", "tag Event=B", "begin_movetext",
            "move c4 nag0", "result *", "end_game"});
  CHECK(events("1. e4 ) e5 *", false) ==
        Log{"begin_game", "begin_movetext", "move e4 nag0",
            "problem error ')' without a variation to close; ignored", "move e5 nag0", "result *",
            "end_game"});
}

// The visitor contract: begin_variation / end_variation "properly nested". A variation left
// open when its game ends gets no end_variation.
TEST_CASE("reader: every begin_variation gets its end_variation", "[reader][movetext]") {
  for (std::string_view text : {"1. e4 (1. d4 d5\n\n[Event \"B\"]\n\n1. c4 *",
                                "1. e4 (1. d4 (1. c4 c5", "1. e4 (1. d4 *"}) {
    INFO(text);
    Recorder r(false);
    read_all(text, r);
    int depth = 0;
    for (const auto& e : r.log) {
      if (e == "begin_variation") ++depth;
      if (e == "end_variation") --depth;
      if (e == "end_game") {
        CHECK(depth == 0);
        depth = 0;
      }
    }
  }
}

TEST_CASE("reader: games without moves and without results", "[reader][movetext]") {
  SECTION("no moves") {
    Recorder r;
    CHECK(read_all("[Event \"A\"]\n\n1-0\n\n[Event \"B\"]\n\n{only a comment} *\n", r) == 2);
    CHECK(r.log == Log{"begin_game @1:1", "tag Event=A @1:1", "begin_movetext", "result 1-0 @3:1",
                       "end_game", "begin_game @5:1", "tag Event=B @5:1", "begin_movetext",
                       "comment \"only a comment\" @7:1", "result * @7:18", "end_game"});
    CHECK(r.texts ==
          std::vector<std::string>{"[Event \"A\"]\n\n1-0", "[Event \"B\"]\n\n{only a comment} *"});
  }
  SECTION("no result: ended by the next game's tags, or by the end of the input") {
    Recorder r;
    CHECK(read_all("[Event \"A\"]\n\n1. e4 e5 \n\n[Event \"B\"]\n\n1. d4\n\n", r) == 2);
    CHECK(r.log == Log{"begin_game @1:1", "tag Event=A @1:1", "begin_movetext", "move e4 nag0 @3:4",
                       "move e5 nag0 @3:7", "end_game", "begin_game @5:1", "tag Event=B @5:1",
                       "begin_movetext", "move d4 nag0 @7:4", "end_game"});
    CHECK(r.texts ==
          std::vector<std::string>{"[Event \"A\"]\n\n1. e4 e5", "[Event \"B\"]\n\n1. d4"});
  }
  SECTION("no tags, no moves, no result") {
    Recorder r;
    CHECK(read_all("{just words}", r) == 1);
    CHECK(r.log ==
          Log{"begin_game @1:1", "begin_movetext", "comment \"just words\" @1:1", "end_game"});
  }
  SECTION("a comment left open at the end of the input") {
    Recorder r;
    CHECK(read_all("1. e4 {open\nto the end", r) == 1);
    CHECK(r.log == Log{"begin_game @1:1", "begin_movetext", "move e4 nag0 @1:4",
                       "problem error 1:7 comment not closed before the end of the input",
                       "comment \"open\nto the end\" @1:7", "end_game"});
    CHECK(r.texts == std::vector<std::string>{"1. e4 {open\nto the end"});
  }
}

// --- Input forms ---

TEST_CASE("reader: a UTF-8 BOM at the start is skipped", "[reader][input]") {
  const std::string plain = "[Event \"A\"]\n\n1. e4 {\u00e9} *\n";
  Recorder with_bom(false), without(false);
  CHECK(read_all("\xEF\xBB\xBF" + plain, with_bom) == 1);
  CHECK(read_all(plain, without) == 1);
  CHECK(with_bom.log == without.log);
  CHECK(with_bom.texts == without.texts);
  // Lines are unchanged; on the following lines the columns are too.
  const Log located = events("\xEF\xBB\xBF" + plain);
  REQUIRE(located.size() == 7);
  CHECK(located[0].starts_with("begin_game @1:"));
  CHECK(located[3] == "move e4 nag0 @3:4");
  CHECK(located[4] == "comment \"\u00e9\" @3:7");

  // python-chess's file: tags read, and no problem.
  Recorder r(false);
  read_all(read_file(data_dir + "/edge/python-chess/utf8-bom.pgn"), r);
  REQUIRE(r.log.size() > 1);
  CHECK(r.log[1] == "tag Event=A");
  for (const auto& e : r.log) CHECK_FALSE(e.starts_with("problem"));
}

TEST_CASE("reader: a BOM does not hide a % escape line on the first line", "[reader][input]") {
  CHECK(events("\xEF\xBB\xBF% exported by X\n[Event \"A\"]\n\n1. e4 *\n", false) ==
        Log{"begin_game", "tag Event=A", "begin_movetext", "move e4 nag0", "result *", "end_game"});
}

TEST_CASE("reader: LF, CRLF and CR line ends read the same", "[reader][input]") {
  const std::string lf =
      "% escape line\n"
      "[Event \"E\"]\n"
      "[Site \"S\"]\n"
      "\n"
      "1. e4 {two\n"
      "lines} e5 ; line comment\n"
      "2. Nf3 (2. f4\n"
      "exf4) Nc6 $999\n"
      "\n"
      "[Event \"F\"]\n"
      "\n"
      "1. d4 d5\n"
      "% escape { line\n"
      "2. c4 1-0\n";
  const std::string crlf = replace_all(lf, "\n", "\r\n");
  const std::string cr = replace_all(lf, "\n", "\r");
  const Log expected{"begin_game @2:1",
                     "tag Event=E @2:1",
                     "tag Site=S @3:1",
                     "begin_movetext",
                     "move e4 nag0 @5:4",
                     "comment \"two\nlines\" @5:7",
                     "move e5 nag0 @6:8",
                     "comment \" line comment\" @6:11",
                     "move Nf3 nag0 @7:4",
                     "begin_variation @7:8",
                     "move f4 nag0 @7:12",
                     "move exf4 nag0 @8:1",
                     "end_variation @8:5",
                     "move Nc6 nag0 @8:7",
                     "problem error 8:11 bad NAG '$999'; ignored",
                     "end_game",
                     "begin_game @10:1",
                     "tag Event=F @10:1",
                     "begin_movetext",
                     "move d4 nag0 @12:4",
                     "move d5 nag0 @12:7",
                     "move c4 nag0 @14:4",
                     "result 1-0 @14:7",
                     "end_game"};
  for (const std::string* text : {&lf, &crlf, &cr}) {
    Recorder r;
    CHECK(read_all(*text, r) == 2);
    // A comment holds the line end as written: compare it as LF.
    Log log;
    for (const auto& e : r.log)
      log.push_back(replace_all(replace_all(e, "\r\n", "\n"), "\r", "\n"));
    CHECK(log == expected);
    REQUIRE(r.texts.size() == 2);
    CHECK(replace_all(replace_all(r.texts[0], "\r\n", "\n"), "\r", "\n") ==
          lf.substr(14, lf.find("\n\n[Event \"F\"]") - 14));
    CHECK(replace_all(replace_all(r.texts[1], "\r\n", "\n"), "\r", "\n") ==
          lf.substr(lf.find("[Event \"F\"]"), lf.size() - 1 - lf.find("[Event \"F\"]")));
  }
}

TEST_CASE("reader: NUL bytes between games are ignored", "[reader][input]") {
  const std::string clean = "[Event \"A\"]\n\n1. e4 *\n\n[Event \"B\"]\n\n1. d4 1-0\n";
  std::string nuls = clean;
  nuls.insert(clean.find("\n[Event \"B\"]"), std::string(5, '\0'));
  nuls += std::string(7, '\0');
  REQUIRE(nuls.size() == clean.size() + 12);
  Recorder a, b;
  CHECK(read_all(clean, a) == 2);
  CHECK(read_all(nuls, b) == 2);
  CHECK(b.log == a.log);
  CHECK(b.texts == a.texts);
}

TEST_CASE("reader: empty input and input of nothing but white space", "[reader][input]") {
  for (std::string_view text :
       {std::string_view(""), std::string_view(" \n\r\n\t"), std::string_view("\0\0\n", 3),
        std::string_view("% only\n"), std::string_view("\xEF\xBB\xBF")}) {
    Recorder r;
    StringSource source(text);
    Reader reader(source);
    auto more = reader.read_game(r);
    REQUIRE(more.has_value());
    CHECK_FALSE(*more);
    CHECK(r.log.empty());
    // And it stays false.
    CHECK_FALSE(reader.read_game(r).value());
  }
}

TEST_CASE("reader: FileSource", "[reader][input]") {
  const std::string missing = "/nonexistent/dir/no-such-file.pgn";
  auto bad = FileSource::open(missing);
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().find(missing) != std::string::npos);

  const std::string path = data_dir + "/edge/disservin-chess-library/multiple.pgn";
  auto file = FileSource::open(path);
  REQUIRE(file.has_value());
  Recorder from_file;
  Reader reader(**file, ReaderOptions{.chunk_size = 100});
  int games = 0;
  while (reader.read_game(from_file).value()) ++games;
  Recorder from_memory;
  CHECK(read_all(read_file(path), from_memory) == games);
  CHECK(games > 1);
  check_same_log(from_file.log, from_memory.log);
  CHECK(from_file.texts == from_memory.texts);
}

TEST_CASE("reader: location() stands just past the game read", "[reader][input]") {
  StringSource source("[Event \"A\"]\n\n1. e4 *\n\n1. d4\n  e5 1-0 \n");
  Reader reader(source);
  Recorder r;
  REQUIRE(reader.read_game(r).value());
  CHECK(reader.location().line == 3);
  CHECK(reader.location().column == 8);
  REQUIRE(reader.read_game(r).value());
  CHECK(reader.location().line == 6);
  CHECK(reader.location().column == 9);
  CHECK_FALSE(reader.read_game(r).value());
}

// --- Encoding ---

TEST_CASE("reader: Latin-1 tag values and comments arrive as UTF-8", "[reader][encoding]") {
  const std::string text =
      "[Event \"K\xF6ln\"]\n"
      "[Site \"M\xFCnchen\"]\n"
      "\n"
      "1. e4 {sch\xF6n} e5 {\x80 5} *\n"
      "\n"
      "[Event \"Z\xFCrich\"]\n"
      "\n"
      "1. d4 *\n";
  CHECK(events(text) ==
        Log{"begin_game @1:1",
            "problem warning 1:1 text is not valid UTF-8; read as Windows-1252 (Latin-1)",
            "tag Event=K\u00f6ln @1:1", "tag Site=M\u00fcnchen @2:1", "begin_movetext",
            "move e4 nag0 @4:4", "comment \"sch\u00f6n\" @4:7", "move e5 nag0 @4:15",
            "comment \"\u20ac 5\" @4:18", "result * @4:24", "end_game", "begin_game @6:1",
            "problem warning 6:1 text is not valid UTF-8; read as Windows-1252 (Latin-1)",
            "tag Event=Z\u00fcrich @6:1", "begin_movetext", "move d4 nag0 @8:4", "result * @8:7",
            "end_game"});
}

TEST_CASE("reader: scid's Latin-1 game reads as its UTF-8 conversion", "[reader][encoding]") {
  const std::string dir = data_dir + "/edge/scid/";
  Recorder latin(false), utf8(false);
  CHECK(read_all(read_file(dir + "res_gameLatin1.pgn"), latin) == 1);
  CHECK(read_all(read_file(dir + "res_gameLatin1expected.pgn"), utf8) == 1);
  auto tags = [](const Log& log) {
    Log out;
    for (const auto& e : log)
      if (e.starts_with("tag ")) out.push_back(e);
    return out;
  };
  const Log expected_tags = tags(utf8.log);
  REQUIRE(expected_tags.size() == 13);
  CHECK(expected_tags[1] == "tag Site=Elista R\u00dcS");
  CHECK(tags(latin.log) == expected_tags);
  CHECK(std::count_if(latin.log.begin(), latin.log.end(),
                      [](const std::string& e) { return e.starts_with("problem"); }) == 1);
  CHECK(std::count_if(utf8.log.begin(), utf8.log.end(),
                      [](const std::string& e) { return e.starts_with("problem"); }) == 0);
  // The expected file lays its comments out differently: compare them with white space folded.
  auto fold = [](const Log& log) {
    Log out;
    for (const auto& e : log) {
      if (e.starts_with("problem")) continue;
      std::istringstream words(e);
      std::string word, folded;
      while (words >> word) folded += (folded.empty() ? "" : " ") + word;
      // The comment's own leading and trailing white space goes too.
      if (folded.starts_with("comment \" ")) folded.erase(9, 1);
      if (folded.ends_with(" \"")) folded.erase(folded.size() - 2, 1);
      out.push_back(folded);
    }
    return out;
  };
  check_same_log(fold(latin.log), fold(utf8.log));
}

// --- Chunk independence and the game's text ---

std::vector<std::string> chunk_test_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data_dir + "/edge"))
    if (entry.is_regular_file() && entry.path().extension() == ".pgn")
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  files.push_back(data_dir + "/corpus/Almasi.pgn");
  files.push_back(data_dir + "/corpus/Kasparov.pgn");
  return files;
}

// True for the bytes that may stand between games: white space, NUL, a BOM, `%` lines.
bool only_separators(std::string_view gap, bool at_start) {
  if (at_start && gap.starts_with("\xEF\xBB\xBF")) gap.remove_prefix(3);
  bool line_start = true;
  for (std::size_t i = 0; i < gap.size(); ++i) {
    const char c = gap[i];
    if (c == '%' && line_start) {
      while (i < gap.size() && gap[i] != '\n' && gap[i] != '\r') ++i;
      line_start = true;
      continue;
    }
    if (c == '\n' || c == '\r') {
      line_start = true;
    } else if (c == ' ' || c == '\t' || c == '\0' || c == '\f' || c == '\v') {
      line_start = line_start && c == '\0';
    } else {
      return false;
    }
  }
  return true;
}

TEST_CASE("reader: events and game texts do not depend on the chunk size", "[reader][chunks]") {
  const auto started = std::chrono::steady_clock::now();
  const auto files = chunk_test_files();
  REQUIRE(files.size() > 200);
  std::size_t games_total = 0;
  for (const auto& path : files) {
    INFO(path);
    const std::string text = read_file(path);
    Recorder base;
    const int games = read_all(text, base);
    games_total += games;
    CHECK(std::count(base.log.begin(), base.log.end(), "end_game") == games);

    // Each game's text is its original bytes, in order; between games stand only separators.
    std::size_t cursor = 0;
    for (const auto& t : base.texts) {
      const std::size_t found = text.find(t, cursor);
      REQUIRE(found != std::string::npos);
      CHECK(only_separators(std::string_view(text).substr(cursor, found - cursor), cursor == 0));
      cursor = found + t.size();
    }
    CHECK(only_separators(std::string_view(text).substr(cursor), cursor == 0));

    for (std::size_t chunk : {1, 2, 3, 7, 64, 4096}) {
      INFO("chunk size " << chunk);
      Recorder r;
      CHECK(read_all(text, r, ReaderOptions{.chunk_size = chunk}) == games);
      check_same_log(r.log, base.log);
      CHECK(r.texts == base.texts);
    }
  }
  CHECK(games_total > 5000);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  WARN("chunk independence: " << files.size() << " files, " << games_total << " games, " << seconds
                              << " s");
}

// The importer cuts a file into game texts and reads each again on another thread, with the
// game's place in the file as the origin: every event, location and problem must be the same as
// in one pass over the whole file.
TEST_CASE("reader: a game's text read alone at its origin gives the same events",
          "[reader][chunks]") {
  std::size_t games_total = 0;
  for (const auto& path : chunk_test_files()) {
    INFO(path);
    const std::string text = read_file(path);
    Recorder base;
    read_all(text, base);
    // The events of each game, from begin_game to end_game.
    std::vector<Log> per_game;
    for (const auto& event : base.log) {
      if (event.starts_with("begin_game")) per_game.emplace_back();
      if (!per_game.empty()) per_game.back().push_back(event);
    }
    REQUIRE(per_game.size() == base.texts.size());
    for (std::size_t g = 0; g < per_game.size(); ++g) {
      unsigned long long line = 0;
      unsigned column = 0;
      REQUIRE(std::sscanf(per_game[g][0].c_str(), "begin_game @%llu:%u", &line, &column) == 2);
      Recorder alone;
      // A buffer the size of the text, as the importer reads it (the default 1 MiB buffer,
      // zeroed per game, took most of this test's time under the sanitizers).
      CHECK(read_all(base.texts[g], alone,
                     ReaderOptions{.chunk_size = base.texts[g].size() + 1,
                                   .origin = {line, column}}) == 1);
      // A game cut short by a repeated tag name has no movetext; alone, it has an empty one.
      Log expected = per_game[g];
      if (std::find(expected.begin(), expected.end(), "begin_movetext") == expected.end())
        std::erase(alone.log, "begin_movetext");
      check_same_log(alone.log, expected);
      ++games_total;
    }
  }
  CHECK(games_total > 5000);
}

TEST_CASE("reader: every construct reads the same at chunk sizes 1 to 80", "[reader][chunks]") {
  const std::string text =
      "\xEF\xBB\xBF[Event \"The \"Big\" Open\"]\r\n[Site \"a]b\"] [Round \"1\"]\r\n[Black \"x\"\r\n"
      "[White \"Say \\\"hi\\\" \\\\ K\xF6ln\"]\r\n\r\n% escape {\r\n"
      "1. e4! $1 {a\r\ncomment} 1... e5?! 2.Nf3 (2. f4 (2. d4 exd4 (2... d5)) 2... exf4) Nc6 +- "
      "3. ... Bb5 \u00b1 $999 ;line\r3. e8(Q) exd6e.p. 0-0-0 O-O N \u221e -- Z0 \u00bd-\u00bd\n"
      "\0\0\0\n[Event \"A\"]\n[Event \"B\"]\r\r1. d4 {\xE9t\xE9} 1/2-1/2 {after}\n"
      "[Event \"C\"]\n\n1. c4 {unclosed"s;
  Recorder base;
  const int games = read_all(text, base);
  CHECK(games == 4);  // `{after}` leads game C: comments before tags belong to the next game
  for (std::size_t chunk = 1; chunk <= 80; ++chunk) {
    INFO("chunk size " << chunk);
    Recorder r;
    CHECK(read_all(text, r, ReaderOptions{.chunk_size = chunk}) == games);
    check_same_log(r.log, base.log);
    CHECK(r.texts == base.texts);
  }
}

TEST_CASE("reader: end_game text is the game's exact bytes", "[reader][text]") {
  const std::string game1 = "[Event \"A\"]\r\n[Site \"B\"]\r\n\r\n1. e4 {c} (1. d4) e5 $1 1/2-1/2";
  const std::string game2 = "1. d4 d5 ; trailing comment\n2. c4 *";
  const std::string game3 = "[Event \"C\"]\n\n{no result, then the next game}  1. Nf3";
  const std::string game4 = "[Event \"D\"]\n\n1. c4 0-1";
  const std::string text =
      "\n\n" + game1 + "  \n\n" + game2 + "\t\n" + game3 + " \n\n" + game4 + "\n\n\n";
  Recorder r;
  CHECK(read_all(text, r) == 4);
  CHECK(r.texts == std::vector<std::string>{game1, game2, game3, game4});
}

TEST_CASE("reader: end_game text of a game without result ends at its last token",
          "[reader][text]") {
  // The NUL padding and the escape line after the game are not part of it.
  const std::string text =
      std::string("[Event \"A\"]\n\n1. e4 e5\n% escape\n") + std::string(4, '\0') + "\n";
  Recorder r;
  CHECK(read_all(text, r) == 1);
  CHECK(r.texts == std::vector<std::string>{"[Event \"A\"]\n\n1. e4 e5"});
}

// --- Control ---

const std::string three_games =
    "[Event \"1\"]\n\n1. e4 e5 *\n\n"
    "[Event \"2\"]\n[Bad tag\n\n1. d4 {K\xF6ln} $999 (1. c4) d5 1-0\n\n"
    "[Event \"3\"]\n\n1. Nf3 0-1\n";

TEST_CASE("reader: Skip from begin_game skips the whole game", "[reader][control]") {
  Recorder r(false);
  int game = 0;
  r.decide = [&](const std::string& e) {
    if (e == "begin_game" && ++game == 2) return Control::Skip;
    return Control::Continue;
  };
  CHECK(read_all(three_games, r) == 3);
  // (Whether the skipped game's syntax problems are delivered is the next test's matter.)
  std::erase_if(r.log, [](const std::string& e) { return e.starts_with("problem"); });
  CHECK(r.log == Log{"begin_game", "tag Event=1", "begin_movetext", "move e4 nag0", "move e5 nag0",
                     "result *", "end_game", "begin_game", "end_game", "begin_game", "tag Event=3",
                     "begin_movetext", "move Nf3 nag0", "result 0-1", "end_game"});
  REQUIRE(r.texts.size() == 3);
  CHECK(r.texts[1] == "[Event \"2\"]\n[Bad tag\n\n1. d4 {K\xF6ln} $999 (1. c4) d5 1-0");
}

TEST_CASE("reader: Skip from begin_game delivers no syntax problems of the game",
          "[reader][control]") {
  Recorder r(false);
  int game = 0;
  r.decide = [&](const std::string& e) {
    if (e == "begin_game" && ++game == 2) return Control::Skip;
    return Control::Continue;
  };
  read_all(three_games, r);
  for (const auto& e : r.log) CHECK_FALSE(e.starts_with("problem"));
}

// Where each game starts and its text, as a visitor that reads everything sees them, or one
// that skips every game from its first event (as the import cuts a file into games).
struct Cuts : Visitor {
  explicit Cuts(bool skip) : skip_(skip) {}
  std::vector<std::pair<std::string, std::string>> games;  // origin, text
  Control begin_game(Location l) override {
    games.push_back({at(l), {}});
    return skip_ ? Control::Skip : Control::Continue;
  }
  Control begin_variation(Location) override { return Control::Continue; }
  void end_game(std::string_view text) override { games.back().second = text; }
  bool skip_;
};

TEST_CASE("reader: a game skipped whole ends where reading it in full ends it",
          "[reader][control]") {
  // The skipping reader passes moves and move numbers over without reading them
  // (skip_movetext); where a game ends and what its text is must not change. Compared on the
  // edge cases of other parsers' test suites, on tokens written to mislead, and on damaged
  // copies of them, in small and large chunks.
  std::vector<std::string> inputs = {
      "1. e4 e5 2. Nf3 1-0 1. d4 0-1 1. c4 1/2-1/2 1. f4 1/2 1. g4 * 1. b4 \xc2\xbd-\xc2\xbd 1. h4",
      "1. e8(Q)1-0\n1. e8(Q) (1-0) 1. a3 0-0-0 0-1 1-0-0 O-O-O 12...1-0",
      "1. e4!!!! 1-0 1. e4!?1-0 1.e4$1 1-0 1. e4 +- 1-0 1. e4 e.p. 1-0 1. e4 N 1-0",
      "1. e4 {1-0 [Event} ; 0-1\n% 1-0\n[Event \"x\"] 1. d4\n [Event \"y\"]\n1. c4 *",
      "1. e4 (1... e5 1-0) d5 0-1 1. 123456789-1 2. 1-01 3. 1/2-1/2x 1-0"};
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data_dir + "/edge")) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    inputs.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  REQUIRE(inputs.size() > 20);
  std::mt19937 random(13);
  const std::string misleading = "01/2-*[]{}();%!?.\n\r \t$eQO+#=\xc2\xbd";
  for (std::size_t i = 0, n = inputs.size(); i < n; ++i)
    for (int copy = 0; copy < 20 && !inputs[i].empty(); ++copy) {
      std::string damaged = inputs[i].substr(0, 4000);
      for (int change = 0; change < 8; ++change) {
        const std::size_t where = random() % (damaged.size() + 1);
        damaged.insert(where, 1, misleading[random() % misleading.size()]);
      }
      inputs.push_back(std::move(damaged));
    }
  std::size_t games = 0;
  for (const std::string& input : inputs)
    for (const std::size_t chunk : {std::size_t(7), std::size_t(1) << 16}) {
      ReaderOptions options;
      options.chunk_size = chunk;
      Cuts full(false), skipped(true);
      read_all(input, full, options);
      read_all(input, skipped, options);
      REQUIRE(skipped.games == full.games);
      games += full.games.size();
    }
  CHECK(games > 1000);
}

TEST_CASE("reader: Skip from a tag or a move skips the rest of the game", "[reader][control]") {
  Recorder r(false);
  r.decide = [](const std::string& e) {
    return e == "tag Event=1" || e == "move d5 nag0" ? Control::Skip : Control::Continue;
  };
  const std::string text = "[Event \"1\"]\n[Site \"x\"]\n\n1. e4 *\n\n1. d4 d5 2. c4 *\n\n1. f4 *";
  CHECK(read_all(text, r) == 3);
  CHECK(r.log == Log{"begin_game", "tag Event=1", "end_game", "begin_game", "begin_movetext",
                     "move d4 nag0", "move d5 nag0", "end_game", "begin_game", "begin_movetext",
                     "move f4 nag0", "result *", "end_game"});
}

TEST_CASE("reader: Skip from begin_variation skips it with the variations inside",
          "[reader][control]") {
  const std::string text =
      "1. e4 (1. d4 d5 (1... Nf6 2. c4 (2. Nf3)) 2. c4) (1. c4 c5) e5 2. Nf3 *";
  SECTION("the default visitor skips variations") {
    struct Moves : Visitor {
      Log log;
      Control move(const MoveToken& m) override {
        log.emplace_back(m.san);
        return Control::Continue;
      }
      Control end_variation(Location) override {
        log.emplace_back(")");
        return Control::Continue;
      }
    } v;
    read_all(text, v);
    CHECK(v.log == Log{"e4", "e5", "Nf3"});
  }
  SECTION("skipping every variation") {
    Recorder r(false);
    r.decide = [](const std::string& e) {
      return e == "begin_variation" ? Control::Skip : Control::Continue;
    };
    read_all(text, r);
    CHECK(r.log == Log{"begin_game", "begin_movetext", "move e4 nag0", "begin_variation",
                       "begin_variation", "move e5 nag0", "move Nf3 nag0", "result *", "end_game"});
  }
  SECTION("skipping the nested one only") {
    Recorder r(false);
    int variation = 0;
    r.decide = [&](const std::string& e) {
      if (e == "begin_variation" && ++variation == 2) return Control::Skip;
      return Control::Continue;
    };
    read_all(text, r);
    CHECK(r.log == Log{"begin_game", "begin_movetext", "move e4 nag0", "begin_variation",
                       "move d4 nag0", "move d5 nag0", "begin_variation", "move c4 nag0",
                       "end_variation", "begin_variation", "move c4 nag0", "move c5 nag0",
                       "end_variation", "move e5 nag0", "move Nf3 nag0", "result *", "end_game"});
  }
}

TEST_CASE("reader: Stop ends reading after the game", "[reader][control]") {
  Recorder r(false);
  r.decide = [](const std::string& e) {
    return e == "move e5 nag0" ? Control::Stop : Control::Continue;
  };
  StringSource source(three_games);
  Reader reader(source);
  REQUIRE(reader.read_game(r).value());
  CHECK(r.log == Log{"begin_game", "tag Event=1", "begin_movetext", "move e4 nag0", "move e5 nag0",
                     "end_game"});
  CHECK(r.texts == std::vector<std::string>{"[Event \"1\"]\n\n1. e4 e5 *"});
  CHECK_FALSE(reader.read_game(r).value());
  CHECK_FALSE(reader.read_game(r).value());
  CHECK(r.log.size() == 6);
}

TEST_CASE("reader: Stop from begin_game", "[reader][control]") {
  Recorder r(false);
  r.decide = [](const std::string& e) {
    return e == "begin_game" ? Control::Stop : Control::Continue;
  };
  CHECK(read_all(three_games, r) == 1);
  CHECK(r.log == Log{"begin_game", "end_game"});
}

// --- Size limit ---

std::string long_game(int moves) {
  std::string text = "[Event \"long\"]\n\n";
  for (int i = 0; i < moves; ++i) text += i % 2 ? "Nf6 Ng8\n" : "Nf3 Ng1 ";
  return text + "*\n\n";
}

const std::string small_game = "[Event \"small\"]\n\n1. e4 e5 1-0\n";

Log small_game_events(std::uint64_t first_line) {
  const std::string l0 = std::to_string(first_line), l2 = std::to_string(first_line + 2);
  return Log{"begin_game @" + l0 + ":1",
             "tag Event=small @" + l0 + ":1",
             "begin_movetext",
             "move e4 nag0 @" + l2 + ":4",
             "move e5 nag0 @" + l2 + ":7",
             "result 1-0 @" + l2 + ":10",
             "end_game"};
}

// Whether the first game of `log` reported itself over a 256-byte limit.
bool error_before_first_end(const Log& log) {
  for (const auto& e : log) {
    if (e == "end_game") return false;
    if (e.starts_with("problem error") && e.find("longer than 256 bytes") != std::string::npos)
      return true;
  }
  return false;
}

// The events after the first game's `end_game`.
Log after_first_end(const Log& log) {
  auto it = std::find(log.begin(), log.end(), "end_game");
  return it == log.end() ? Log{} : Log(it + 1, log.end());
}

TEST_CASE("reader: a game over max_game_size is an error, the next game reads normally",
          "[reader][limits]") {
  const std::string big = long_game(400);  // 200 lines, 3,200 bytes of moves
  REQUIRE(big.size() > 3000);
  const std::string text = big + small_game;
  const std::uint64_t small_line = std::count(big.begin(), big.end(), '\n') + 1;
  Recorder r;
  CHECK(read_all(text, r, ReaderOptions{.chunk_size = 16, .max_game_size = 256}) == 2);
  CHECK(error_before_first_end(r.log));
  CHECK(after_first_end(r.log) == small_game_events(small_line));
  REQUIRE(r.texts.size() == 2);
  CHECK(r.texts[1] == small_game.substr(0, small_game.size() - 1));
}

// The limit is checked only when the buffer must grow for a refill: a 3 KB game read in one
// 1 MiB chunk passes a 256-byte limit unreported.
TEST_CASE("reader: max_game_size holds when the input fits in one chunk", "[reader][limits]") {
  const std::string text = long_game(400) + small_game;
  Recorder r;
  CHECK(read_all(text, r, ReaderOptions{.max_game_size = 256}) == 2);
  CHECK(error_before_first_end(r.log));
}

// Once the buffer is past the limit and full from pos_ on (a token longer than the buffer, here a
// tag line), refill() asks the source for 0 bytes and takes the 0 for the end of the input.
TEST_CASE("reader: a tag line longer than max_game_size loses no later game", "[reader][limits]") {
  const std::string big = "[Event \"" + std::string(1000, 'x') + "\"]\n\n1. e4 *\n\n";
  const std::string text = big + small_game;
  Recorder r;
  CHECK(read_all(text, r, ReaderOptions{.chunk_size = 16, .max_game_size = 256}) == 2);
  CHECK(error_before_first_end(r.log));
  CHECK(after_first_end(r.log) == small_game_events(5));
}

// With the default chunk (1 MiB) and a smaller limit, the game that straddles the first refill
// is reported too long, and its text is cut.
TEST_CASE("reader: a game within max_game_size is never reported too long", "[reader][limits]") {
  const std::string text = read_file(data_dir + "/corpus/Kasparov.pgn");  // games < 2 KB
  Recorder limited(false), unlimited(false);
  const int games = read_all(text, limited, ReaderOptions{.max_game_size = 64 << 10});
  CHECK(read_all(text, unlimited) == games);
  CHECK(std::count_if(limited.log.begin(), limited.log.end(), [](const std::string& e) {
          return e.find("bytes; its original text is not kept") != std::string::npos;
        }) == 0);
  CHECK(limited.texts == unlimited.texts);
}

// Once a game is over max_game_size the reader drops its bytes, but never those of the token
// being read (this once read outside the buffer).
TEST_CASE("reader: comments of a game over max_game_size are read whole",
          "[reader][limits][truncation-crash]") {
  std::string big = "[Event \"big\"]\n\n";
  for (int i = 0; i < 300; ++i) big += i % 2 ? "Nf3 {abcdef} Ng1 " : "Nf6 ;abcdef\nNg8 ";
  big += "*\n\n";
  Recorder r(false);
  CHECK(read_all(big + small_game, r, ReaderOptions{.chunk_size = 16, .max_game_size = 256}) == 2);
  CHECK(std::count(r.log.begin(), r.log.end(), "comment \"abcdef\"") == 300);
  CHECK(error_before_first_end(r.log));
}

// Found by fuzz_reader: the check for a repeated name (which starts a new game) read names
// without their `-`, so `Round-1` after `Round` split the game in two.
TEST_CASE("reader: a tag name with '-' is not a repeat of the name before its '-'",
          "[reader][tags]") {
  CHECK(events("[Round \"1\"]\n[Round-1 \"x\"]\n\n1. e4 *\n", false) ==
        Log{"begin_game", "tag Round=1", "tag Round-1=x", "begin_movetext", "move e4 nag0",
            "result *", "end_game"});
  // A true repeat still starts the next game.
  Recorder r;
  CHECK(read_all("[Round \"1\"]\n[Round-1 \"x\"]\n[Round-1 \"y\"]\n\n1. e4 *\n", r) == 2);
}

// --- Hostile input: token, tag, nesting and problem limits ---

// A limit of 100 bytes per token, read 16 bytes at a time, so that the long tokens below span
// many refills.
constexpr ReaderOptions small_tokens{.chunk_size = 16, .max_token_size = 100};

// The events of `text` without locations, those of problems included.
Log events_without_locations(std::string_view text, ReaderOptions options) {
  return events(text, false, options);
}

TEST_CASE(
    "reader: a comment over max_token_size is an error and left out, the moves around it "
    "are read",
    "[reader][limits][hostile]") {
  for (const std::string& comment :
       {"{" + std::string(300, 'x') + "}", ";" + std::string(300, 'x') + "\n"}) {
    INFO(comment.substr(0, 5));
    const std::string text = "[Event \"a\"]\n\n1. e4 " + comment + " e5 {short} *\n\n" + small_game;
    Recorder r;
    CHECK(read_all(text, r, small_tokens) == 2);
    const Log expected{"begin_game @1:1",
                       "tag Event=a @1:1",
                       "begin_movetext",
                       "move e4 nag0 @3:4",
                       "problem error 3:7 comment longer than 100 bytes; ignored",
                       "move e5 nag0 @" + std::string(comment[0] == '{' ? "3:310" : "4:2"),
                       comment[0] == '{' ? "comment \"short\" @3:313" : "comment \"short\" @4:5",
                       comment[0] == '{' ? "result * @3:321" : "result * @4:13",
                       "end_game"};
    check_same_log(Log(r.log.begin(), r.log.begin() + std::ptrdiff_t(expected.size())), expected);
    CHECK(after_first_end(r.log) == small_game_events(comment[0] == '{' ? 5 : 6));
  }
}

// Read in one chunk, the comment's end is found in the same pass as its start: the limit must
// still hold (it once did only across refills).
TEST_CASE("reader: a comment over max_token_size read in one chunk is an error",
          "[reader][limits][hostile]") {
  const std::string text = "1. e4 {" + std::string(300, 'x') + "} *\n";
  CHECK(events_without_locations(text, ReaderOptions{.max_token_size = 100}) ==
        Log{"begin_game", "begin_movetext", "move e4 nag0",
            "problem error comment longer than 100 bytes; ignored", "result *", "end_game"});
}

TEST_CASE("reader: a token over max_token_size is an error and left out, whatever it is made of",
          "[reader][limits][hostile]") {
  const std::string long_run = std::string(300, 'a');
  for (const std::string& token :
       {long_run, "$" + std::string(300, '1'), std::string(300, '+'), std::string(300, '1'),
        std::string(300, '\xC3'), "e4" + std::string(300, '=')}) {
    INFO(token.substr(0, 5));
    const std::string text = "1. " + token + " e4 *\n\n";
    CHECK(events_without_locations(text, small_tokens) ==
          Log{"begin_game", "begin_movetext", "problem error token longer than 100 bytes; ignored",
              "move e4 nag0", "result *", "end_game"});
  }
}

TEST_CASE("reader: a tag over max_token_size is an error and left out, the other tags are read",
          "[reader][limits][hostile]") {
  for (const std::string& tag :
       {"[Annotator \"" + std::string(300, 'y') + "\"]", "[" + std::string(300, 'N') + " \"v\"]"}) {
    INFO(tag.substr(0, 12));
    const std::string text = "[Event \"a\"]\n" + tag + "\n[Site \"b\"]\n\n1. e4 *\n\n";
    CHECK(events(text, true, small_tokens) == Log{"begin_game @1:1", "tag Event=a @1:1",
                                                  "problem error 2:1 tag longer than 100 bytes; "
                                                  "ignored",
                                                  "tag Site=b @3:1", "begin_movetext",
                                                  "move e4 nag0 @5:4", "result * @5:7",
                                                  "end_game"});
  }
}

TEST_CASE("reader: comments before the tags are kept up to max_token_size in all",
          "[reader][limits][hostile]") {
  std::string text;
  for (int i = 0; i < 30; ++i) text += "{c" + std::to_string(i) + "} ";  // 5 or 6 bytes each
  text += "\n[Event \"a\"]\n\n1. e4 *\n";
  const Log log = events_without_locations(text, small_tokens);
  const auto comments = std::count_if(
      log.begin(), log.end(), [](const std::string& e) { return e.starts_with("comment"); });
  CHECK(comments > 10);  // the first 100 bytes' worth
  CHECK(comments < 20);
  CHECK(std::count(log.begin(), log.end(),
                   "problem error comments before the tags longer than 100 bytes; the rest are "
                   "left out") == 1);
  CHECK(std::count(log.begin(), log.end(), "move e4 nag0") == 1);
}

TEST_CASE(
    "reader: variations nested 100,000 deep: the first 256 levels are read, the deeper "
    "ones left out with one error",
    "[reader][limits][hostile]") {
  const int depth = 100'000;
  std::string text = "[Event \"deep\"]\n\n1. e4 ";
  for (int i = 0; i < depth; ++i) text += "( d4 ";
  text += std::string(depth, ')') + " e5 *\n\n" + small_game;
  Recorder r(false);
  CHECK(read_all(text, r) == 2);
  const Log first(r.log.begin(), std::find(r.log.begin(), r.log.end(), "end_game"));
  CHECK(std::count(first.begin(), first.end(), "begin_variation") == max_variation_depth);
  CHECK(std::count(first.begin(), first.end(), "end_variation") == max_variation_depth);
  CHECK(std::count(first.begin(), first.end(), "move d4 nag0") == max_variation_depth);
  CHECK(std::count(first.begin(), first.end(),
                   "problem error variations nested deeper than 256 levels; the deeper ones are "
                   "left out") == 1);
  CHECK(first.back() == "result *");
  CHECK(first[first.size() - 2] == "move e5 nag0");

  // The replay keeps those 256 levels, and the writer writes them all back.
  StringSource source(text);
  Reader reader(source);
  ReplayVisitor replay({.keep_record = true});
  REQUIRE(reader.read_game(replay).value());
  CHECK(replay.has_error());
  std::string written;
  write_game(replay.record(), written);
  CHECK(std::count(written.begin(), written.end(), '(') == max_variation_depth);
  CHECK(std::count(written.begin(), written.end(), ')') == max_variation_depth);

  // Exactly at the limit there is no error.
  std::string at_limit = "1. e4 ";
  for (int i = 0; i < max_variation_depth; ++i) at_limit += "( d4 ";
  at_limit += std::string(max_variation_depth, ')') + " e5 *\n";
  const Log log = events_without_locations(at_limit, {});
  CHECK(std::count_if(log.begin(), log.end(),
                      [](const std::string& e) { return e.starts_with("problem"); }) == 0);
}

TEST_CASE(
    "reader: a million tags: the first max_tags are read, the rest left out with one "
    "error",
    "[reader][limits][hostile]") {
  std::string text = "[Event \"many\"]\n";
  for (int i = 0; i < 1'000'000; ++i) text += "[T" + std::to_string(i) + " \"v\"]\n";
  text += "\n1. e4 *\n\n" + small_game;
  Recorder r(false);
  CHECK(read_all(text, r) == 2);
  const Log first(r.log.begin(), std::find(r.log.begin(), r.log.end(), "end_game"));
  CHECK(std::count_if(first.begin(), first.end(),
                      [](const std::string& e) { return e.starts_with("tag "); }) == 1000);
  CHECK(std::count(first.begin(), first.end(),
                   "problem error more than 1000 tags; the rest are left out") == 1);
  CHECK(first.back() == "result *");
  CHECK(after_first_end(r.log) == Log{"begin_game", "tag Event=small", "begin_movetext",
                                      "move e4 nag0", "move e5 nag0", "result 1-0", "end_game"});
}

TEST_CASE(
    "reader: at most max_problems of each severity are reported per game, and an error "
    "after many warnings still is",
    "[reader][limits][hostile]") {
  auto problems = [](const Log& log, std::string_view severity) {
    return std::count_if(log.begin(), log.end(), [&](const std::string& e) {
      return e.starts_with("problem " + std::string(severity));
    });
  };
  std::string text = "1. e4 ";
  for (int i = 0; i < 500; ++i) text += "e5!!? ";  // an unknown annotation: a warning each
  text += "~ ";                                    // an unexpected character: an error
  for (int i = 0; i < 500; ++i) text += "~ ";
  text += "*\n\n" + small_game;
  Recorder r(false);
  CHECK(read_all(text, r, ReaderOptions{.max_problems = 100}) == 2);
  const Log first(r.log.begin(), std::find(r.log.begin(), r.log.end(), "end_game"));
  CHECK(problems(first, "warning") == 101);
  CHECK(problems(first, "error") == 101);
  CHECK(std::count(first.begin(), first.end(),
                   "problem warning more than 100 problems of this kind in this game; the rest "
                   "are not reported") == 1);
  CHECK(std::count(first.begin(), first.end(),
                   "problem error more than 100 problems of this kind in this game; the rest are "
                   "not reported") == 1);
  CHECK(std::count(first.begin(), first.end(), "move e5 nag0") == 500);  // nothing else lost
  // The count starts again with each game.
  CHECK(after_first_end(r.log) == Log{"begin_game", "tag Event=small", "begin_movetext",
                                      "move e4 nag0", "move e5 nag0", "result 1-0", "end_game"});

  // The replay keeps at most 101 of each too (its own errors among them), and still has one.
  std::string illegal = "1. e4 ";
  for (int i = 0; i < 500; ++i) illegal += "(1. Ke2) ";
  illegal += "e5 *\n";
  StringSource source(illegal);
  Reader reader(source);
  ReplayVisitor replay;
  REQUIRE(reader.read_game(replay).value());
  CHECK(replay.has_error());
  CHECK(replay.problems().size() == 101);
  CHECK(replay.problems().back().message ==
        "more than 100 problems of this kind in this game; the rest are not reported");
}

TEST_CASE(
    "reader: binary noise is read in linear time with bounded problems, and the game after "
    "it is read",
    "[reader][limits][hostile]") {
  std::mt19937_64 random(20261129);
  std::string noise(8 << 20, '\0');
  for (char& c : noise) c = char(random());
  const std::string text = noise + "\n\n" + small_game;
  Recorder r(false);
  ReaderOptions options;
  const int games = read_all(text, r, options);
  CHECK(games > 1);
  // No game reports more than 101 problems of each kind.
  std::size_t warnings = 0, errors = 0, most = 0;
  for (const auto& e : r.log) {
    if (e == "end_game") {
      most = std::max({most, warnings, errors});
      warnings = errors = 0;
    }
    warnings += e.starts_with("problem warning");
    errors += e.starts_with("problem error");
  }
  CHECK(most <= options.max_problems + 1);
  const auto last = std::find(r.log.rbegin(), r.log.rend(), "begin_game");
  CHECK(Log(last.base() - 1, r.log.end()) == Log{"begin_game", "tag Event=small", "begin_movetext",
                                                 "move e4 nag0", "move e5 nag0", "result 1-0",
                                                 "end_game"});
}

// --- Comment commands ---

TEST_CASE("comment commands: clock, elapsed time, evaluation", "[comment_commands]") {
  auto clk = parse_comment_commands("[%clk 0:03:00]");
  REQUIRE(clk.clock_seconds.has_value());
  CHECK(*clk.clock_seconds == 180.0);
  CHECK_FALSE(clk.elapsed_seconds.has_value());
  CHECK_FALSE(clk.eval.has_value());

  auto frac = parse_comment_commands("[%clk 1:02:03.5]");
  REQUIRE(frac.clock_seconds.has_value());
  CHECK(*frac.clock_seconds == Approx(3723.5));

  auto emt = parse_comment_commands("[%emt 0:00:05]");
  REQUIRE(emt.elapsed_seconds.has_value());
  CHECK(*emt.elapsed_seconds == 5.0);
  CHECK_FALSE(emt.clock_seconds.has_value());

  auto eval = parse_comment_commands("[%eval 0.17]");
  REQUIRE(eval.eval.has_value());
  CHECK(eval.eval->kind == Evaluation::Kind::Centipawns);
  CHECK(eval.eval->value == 17);

  auto negative = parse_comment_commands("[%eval -1.5]");
  REQUIRE(negative.eval.has_value());
  CHECK(negative.eval->kind == Evaluation::Kind::Centipawns);
  CHECK(negative.eval->value == -150);

  auto mate = parse_comment_commands("[%eval #-3]");
  REQUIRE(mate.eval.has_value());
  CHECK(mate.eval->kind == Evaluation::Kind::Mate);
  CHECK(mate.eval->value == -3);

  auto mate_plus = parse_comment_commands("[%eval #+2]");
  REQUIRE(mate_plus.eval.has_value());
  CHECK(mate_plus.eval->kind == Evaluation::Kind::Mate);
  CHECK(mate_plus.eval->value == 2);

  auto depth = parse_comment_commands("[%eval 0.35,20]");
  REQUIRE(depth.eval.has_value());
  CHECK(depth.eval->kind == Evaluation::Kind::Centipawns);
  CHECK(depth.eval->value == 35);

  auto plus = parse_comment_commands("[%eval +2.04]");
  REQUIRE(plus.eval.has_value());
  CHECK(plus.eval->value == 204);
}

TEST_CASE("comment commands: several in one comment, among words", "[comment_commands]") {
  auto all = parse_comment_commands(
      "A fine move. [%eval -0.42] [%clk 0:01:30.25]\n[%emt 0:00:07] [%csl Gd4] the end");
  REQUIRE(all.eval.has_value());
  CHECK(all.eval->kind == Evaluation::Kind::Centipawns);
  CHECK(all.eval->value == -42);
  REQUIRE(all.clock_seconds.has_value());
  CHECK(*all.clock_seconds == Approx(90.25));
  REQUIRE(all.elapsed_seconds.has_value());
  CHECK(*all.elapsed_seconds == 7.0);

  auto none = parse_comment_commands("no commands here [not one] [%csl Ra1]");
  CHECK_FALSE(none.clock_seconds.has_value());
  CHECK_FALSE(none.elapsed_seconds.has_value());
  CHECK_FALSE(none.eval.has_value());
}

TEST_CASE("comment commands: malformed ones stay empty", "[comment_commands]") {
  for (std::string_view text :
       {"[%clk]", "[%clk ]", "[%clk abc]", "[%clk 1:2:3:4]", "[%clk 0:03:]", "[%clk 0:03:00",
        "[%clk :30]", "[%clk 0:0x:00]", "[%clk 1:02:03.5s]", "[%clk -1:00]"}) {
    INFO(text);
    CHECK_FALSE(parse_comment_commands(text).clock_seconds.has_value());
  }
  for (std::string_view text : {"[%emt]", "[%emt five]", "[%emt 0:00:05 extra]"}) {
    INFO(text);
    CHECK_FALSE(parse_comment_commands(text).elapsed_seconds.has_value());
  }
  for (std::string_view text : {"[%eval]", "[%eval ]", "[%eval #]", "[%eval #-]", "[%eval abc]",
                                "[%eval 0.3x]", "[%eval #2.5]", "[%eval ,20]", "[%eval 1..2]"}) {
    INFO(text);
    CHECK_FALSE(parse_comment_commands(text).eval.has_value());
  }
  // A malformed command does not hide a good one.
  auto mixed = parse_comment_commands("[%clk x] [%eval 1.0] [%clk 0:00:09]");
  REQUIRE(mixed.clock_seconds.has_value());
  CHECK(*mixed.clock_seconds == 9.0);
  REQUIRE(mixed.eval.has_value());
  CHECK(mixed.eval->value == 100);
}

// from_chars reads "nan", "inf" and "-0", which no clock shows; "-0:01:00" reads as +60 s.
TEST_CASE("comment commands: nan, inf and negative times are not times", "[comment_commands]") {
  for (std::string_view text :
       {"[%clk nan]", "[%clk inf]", "[%emt 0:inf:00]", "[%clk -0:01:00]", "[%emt -0:00:05]"}) {
    INFO(text);
    auto c = parse_comment_commands(text);
    CHECK_FALSE(c.clock_seconds.has_value());
    CHECK_FALSE(c.elapsed_seconds.has_value());
  }
}

// --- Replay record and export ---

std::vector<std::string> sans(const Line& line, Position pos) {
  std::vector<std::string> out;
  for (const MoveNode& node : line) {
    out.push_back(to_san(pos, node.move));
    pos.play(node.move);
  }
  return out;
}

GameRecord replay_record(std::string_view text, ReplayVisitor& replay) {
  StringSource source(text);
  Reader reader(source);
  REQUIRE(reader.read_game(replay).value());
  return replay.record();
}

const std::string annotated =
    "[Event \"Annotated\"]\n"
    "[White \"Alpha\"]\n"
    "[Black \"Beta\"]\n"
    "[Result \"1-0\"]\n"
    "[Annotator \"Me \\\"the\\\" one\"]\n"
    "[ECO \"C44\"]\n"
    "\n"
    "{Leading} 1. e4! {best by test} e5 2. Nf3 ({Or} 2. f4 {King's\n"
    "Gambit} exf4 (2... d5 3. exd5) 3. Nf3) {back to the main line} Nc6 $14 3. Bb5 a6?! 1-0\n";

TEST_CASE("replay: the record of an annotated game", "[replay][writer]") {
  ReplayVisitor replay(ReplayOptions{.keep_record = true});
  const GameRecord g = replay_record(annotated, replay);
  CHECK(replay.problems().empty());
  CHECK(replay.replayed());
  CHECK(replay.main_line_plies() == 6);

  using Tags = std::vector<std::pair<std::string, std::string>>;
  CHECK(g.tags == Tags{{"Event", "Annotated"},
                       {"White", "Alpha"},
                       {"Black", "Beta"},
                       {"Result", "1-0"},
                       {"Annotator", "Me \"the\" one"},
                       {"ECO", "C44"}});
  CHECK(g.result == "1-0");
  CHECK(g.leading_comments == std::vector<std::string>{"Leading"});
  const Position start;
  REQUIRE(g.moves.size() == 6);
  CHECK(sans(g.moves, start) == std::vector<std::string>{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"});

  const MoveNode& e4 = g.moves[0];
  CHECK(e4.nags == std::vector<std::uint8_t>{1});
  CHECK(e4.comments_before.empty());
  CHECK(e4.comments_after == std::vector<std::string>{"best by test"});

  const MoveNode& nf3 = g.moves[2];
  CHECK(nf3.comments_after.empty());
  REQUIRE(nf3.variations.size() == 1);
  Position before_nf3 = start;
  for (int i = 0; i < 2; ++i) before_nf3.play(g.moves[i].move);
  const Line& gambit = nf3.variations[0];
  CHECK(sans(gambit, before_nf3) == std::vector<std::string>{"f4", "exf4", "Nf3"});
  REQUIRE(gambit.size() == 3);
  CHECK(gambit[0].comments_before == std::vector<std::string>{"Or"});
  CHECK(gambit[0].comments_after == std::vector<std::string>{"King's\nGambit"});
  REQUIRE(gambit[1].variations.size() == 1);
  Position before_exf4 = before_nf3;
  before_exf4.play(gambit[0].move);
  CHECK(sans(gambit[1].variations[0], before_exf4) == std::vector<std::string>{"d5", "exd5"});
  CHECK(gambit[2].variations.empty());

  const MoveNode& nc6 = g.moves[3];
  CHECK(nc6.comments_before == std::vector<std::string>{"back to the main line"});
  CHECK(nc6.nags == std::vector<std::uint8_t>{14});
  CHECK(g.moves[4].nags.empty());
  CHECK(g.moves[5].nags == std::vector<std::uint8_t>{6});
}

TEST_CASE("writer: export text of the annotated game", "[replay][writer]") {
  ReplayVisitor replay(ReplayOptions{.keep_record = true});
  const GameRecord g = replay_record(annotated, replay);
  std::string out;
  write_game(g, out);
  const std::string expected =
      "[Event \"Annotated\"]\n"
      "[Site \"?\"]\n"
      "[Date \"????.??.??\"]\n"
      "[Round \"?\"]\n"
      "[White \"Alpha\"]\n"
      "[Black \"Beta\"]\n"
      "[Result \"1-0\"]\n"
      "[Annotator \"Me \\\"the\\\" one\"]\n"
      "[ECO \"C44\"]\n"
      "\n"
      "{Leading} 1. e4 $1 {best by test} 1... e5 2. Nf3 ({Or} 2. f4 {King's Gambit}\n"
      "2... exf4 (2... d5 3. exd5) 3. Nf3) {back to the main line} 2... Nc6 $14 3. Bb5\n"
      "a6 $6 1-0\n"
      "\n";
  CHECK(out == expected);

  // Reading the export gives the same export.
  ReplayVisitor again(ReplayOptions{.keep_record = true});
  const GameRecord g2 = replay_record(out, again);
  CHECK(again.problems().empty());
  std::string out2;
  write_game(g2, out2);
  CHECK(out2 == out);
}

TEST_CASE("writer: black move numbers after comments and variations only", "[writer]") {
  ReplayVisitor replay(ReplayOptions{.keep_record = true});
  const GameRecord g =
      replay_record("1. d4 d5 2. c4 {QG} e6 3. Nc3 (3. Nf3) Nf6 4. Bg5 $1 Be7 *", replay);
  std::string out;
  write_game(g, out, WriterOptions{.line_width = 200});
  CHECK(out.substr(out.find("\n\n") + 2) ==
        "1. d4 d5 2. c4 {QG} 2... e6 3. Nc3 (3. Nf3) 3... Nf6 4. Bg5 $1 Be7 *\n\n");
}

TEST_CASE("writer: a game that starts with Black to move", "[writer]") {
  ReplayVisitor replay(ReplayOptions{.keep_record = true});
  const GameRecord g = replay_record(
      "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n[SetUp \"1\"]\n\n"
      "1... e5 2. Nf3 Nc6 *\n",
      replay);
  CHECK(replay.problems().empty());
  std::string out;
  write_game(g, out);
  CHECK(out ==
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
        "[Black \"?\"]\n[Result \"*\"]\n"
        "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n[SetUp \"1\"]\n\n"
        "1... e5 2. Nf3 Nc6 *\n\n");
}

// PGN standard 8.1.1: "for export format, any additional tag pairs appear in ASCII order by tag
// name".
TEST_CASE("writer: tags beyond the roster in ASCII order", "[writer]") {
  ReplayVisitor replay(ReplayOptions{.keep_record = true});
  const GameRecord g = replay_record(
      "[Event \"E\"]\n[WhiteElo \"2700\"]\n[ECO \"A00\"]\n[Annotator \"X\"]\n\n1. e4 *\n", replay);
  std::string out;
  write_game(g, out);
  CHECK(out ==
        "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
        "[Black \"?\"]\n[Result \"*\"]\n[Annotator \"X\"]\n[ECO \"A00\"]\n[WhiteElo \"2700\"]\n\n"
        "1. e4 *\n\n");
}

// PGN standard 8.2.1: movetext lines have "less than 80 printing characters".
TEST_CASE("writer: movetext lines are shorter than 80 characters", "[writer]") {
  ReplayVisitor replay(ReplayOptions{.keep_record = true});
  const GameRecord g = replay_record("{" + std::string(76, 'a') + " b} 1. e4 *", replay);
  std::string out;
  write_game(g, out);
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    INFO(line);
    CHECK(line.size() < 80);
  }
}

}  // namespace

namespace {

// The events and texts of the games in `text`, read from a StringSource, and what
// ends_before_tags and offset said after each game.
struct PieceReading {
  Log log;
  std::vector<std::string> texts;
  std::vector<bool> ends_before_tags;
  std::vector<std::uint64_t> offsets;
};
PieceReading read_piece(std::string_view text, ReaderOptions options = {}) {
  StringSource source(text);
  Reader reader(source, options);
  Recorder recorder;
  PieceReading r;
  for (;;) {
    auto more = reader.read_game(recorder);
    REQUIRE(more);
    if (!*more) break;
    r.ends_before_tags.push_back(reader.ends_before_tags());
    r.offsets.push_back(reader.offset());
  }
  r.log = recorder.log;
  r.texts = recorder.texts;
  return r;
}

}  // namespace

// What an import's workers rely on to read a file in pieces cut before lines that start with
// `[` (index/src/importer.cpp): when ends_before_tags says so, the piece's games read alone are
// those of the piece read with the next game after it; when it does not, they may differ.
TEST_CASE("reader: ends_before_tags tells when a text read alone reads as it does followed by tags",
          "[reader]") {
  const std::string next = "[Event \"next\"]\n\n1. d4 d5 *\n";
  struct Case {
    std::string text;
    bool ends_before_tags;
  };
  for (const Case& c : {
           Case{"[Event \"a\"]\n\n1. e4 e5 1-0\n", true},
           Case{"[Event \"a\"]\n\n1. e4 e5 *\n\n", true},
           Case{"[Event \"a\"]\n\n1. e4 e5\n", true},              // no result: ends at the tags
           Case{"[Event \"a\"]\n\n1. e4 (1. d4 d5\n", true},       // an open variation too
           Case{"[Event \"a\"]\n\n1. e4 e5 ; a comment\n", true},  // a comment to the line end
           Case{"[Event \"a\"]\n\n1. e4 {a comment\n", false},     // the comment goes on
           Case{"[Event \"a\"]\n\n1. e4 e5", false},               // not at a line start
           Case{"[Event \"a\"]\n[Site \"b\"]\n", false},           // the tags go on
           Case{"[Event \"a\"]\n\n", false},                       // so may they
           Case{"{before the tags}\n", false},                     // the next game's comment
           Case{"[Event \"a\"]\n\n1. e4 1-0 {after}\n", false},    // a game of its own, which
       }) {                                                        // would take the next tags
    INFO(c.text);
    const PieceReading alone = read_piece(c.text);
    REQUIRE_FALSE(alone.ends_before_tags.empty());
    CHECK(alone.ends_before_tags.back() == c.ends_before_tags);
    const PieceReading followed = read_piece(c.text + next);
    const std::size_t games = alone.texts.size();
    REQUIRE(followed.texts.size() >= games);
    // The events up to the end of the piece's last game, and its games' texts.
    const Log& a = alone.log;
    Log f(followed.log.begin(),
          followed.log.begin() + std::ptrdiff_t(std::min(followed.log.size(), a.size())));
    const bool same =
        f == a && std::equal(alone.texts.begin(), alone.texts.end(), followed.texts.begin());
    if (c.ends_before_tags) CHECK(same);
    if (!c.ends_before_tags) CHECK_FALSE(same);
  }
}

TEST_CASE("reader: offset counts the bytes consumed, and a text read on from there reads the rest",
          "[reader]") {
  const std::string text = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n";
  const PieceReading whole = read_piece(text);
  REQUIRE(whole.offsets.size() == 2);
  CHECK(whole.offsets[0] == text.find(" 1-0") + 4);
  CHECK(whole.offsets[1] == text.size() - 1);
  const PieceReading rest = read_piece(std::string_view(text).substr(whole.offsets[0]));
  REQUIRE(rest.texts.size() == 1);
  CHECK(rest.texts[0] == whole.texts[1]);
}

TEST_CASE("reader: a byte order mark is passed over only at the start, unless told not to",
          "[reader]") {
  const std::string text = "\xEF\xBB\xBF[Event \"a\"]\n\n1. e4 *\n";
  const Log read = read_piece(text).log;
  CHECK(std::none_of(read.begin(), read.end(),
                     [](const std::string& e) { return e.starts_with("problem"); }));
  ReaderOptions options;
  options.byte_order_mark = false;  // a text cut from the middle of a file
  const Log cut = read_piece(text, options).log;
  CHECK(std::any_of(cut.begin(), cut.end(), [](const std::string& e) {
    return e.find("unexpected non-ASCII characters") != std::string::npos;
  }));
}
