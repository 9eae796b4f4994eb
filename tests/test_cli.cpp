// The pgndb executable as a user meets it: help, usage errors and exit codes, perft output,
// check and normalize.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "pgndb/query/filters.h"

#include "support.h"

namespace {

using namespace pgndb::test;

// pgndb with `args`, stdout and stderr together.
CommandResult run(const std::string& args) {
  return run_command(std::string(PGNDB_BINARY) + " " + args + " 2>&1");
}

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind('\n') == std::string::npos ? 0 : t.rfind('\n') + 1);
}

int count_lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

// --- For check and normalize: files in a temporary directory, stdout and stderr apart ---

struct SplitRun {
  int exit_code;
  std::string out, err;
};

// Runs pgndb in `dir` (so that FILE in its messages is the name given), stdout and stderr
// apart.
SplitRun run_in(const TempDir& dir, const std::string& args) {
  const std::string err_file = dir / "stderr.txt";
  const CommandResult r =
      run_command("cd '" + dir.path().string() + "' && " + std::string(PGNDB_BINARY) + " " + args +
                  " 2> '" + err_file + "'");
  return {r.exit_code, r.out, read_file(err_file)};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Three games: a clean one, one with an illegal move (2.Ke3, line 16 column 12; its movetext
// spaced oddly so that a copy is told from a rewrite), and one whose Result tag contradicts
// its checkmate (a warning, at the Result tag: line 19).
const std::string good_game =
    "[Event \"good\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n"
    "[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
const std::string bad_game_text =
    "[Event \"bad\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1.e4  e5 2.Ke3   Nc6 *";
const std::string warning_game =
    "[Event \"wrong result\"]\n[Result \"0-1\"]\n\n1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7# 0-1\n";
const std::string bad_pgn = good_game + "\n" + bad_game_text + "\n\n" + warning_game;

}  // namespace

TEST_CASE("pgndb --help lists the commands") {
  CommandResult r = run("--help");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("perft") != std::string::npos);
  CHECK(r.out.find("help") != std::string::npos);
}

TEST_CASE("pgndb help CMD shows the command's options") {
  CommandResult r = run("help perft");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("--depth") != std::string::npos);
  CHECK(r.out.find("--divide") != std::string::npos);
  CHECK(run("perft --help").out == r.out);
}

TEST_CASE("each command's usage line names every option it declares") {
  // The commands, as --help lists them.
  const std::string overview = run("--help").out;
  const std::regex command_line(R"(\n  ([a-z]+) +[^\n]+)");
  std::vector<std::string> commands;
  for (std::sregex_iterator m(overview.begin(), overview.end(), command_line), end; m != end; ++m)
    if ((*m)[1] != "help") commands.push_back((*m)[1]);
  REQUIRE(commands.size() >= 14);
  // Boost lists `--name arg`, or `-o [ --output ] arg` for an option with a short name.
  const std::regex option_line(R"(\n  (?:-(\w) \[ )?--([a-z-]+))");
  for (const auto& command : commands) {
    INFO(command);
    const CommandResult help = run("help " + command);
    REQUIRE(help.exit_code == 0);
    const std::string usage = help.out.substr(0, help.out.find("\n\n"));
    std::size_t declared = 0;
    for (std::sregex_iterator m(help.out.begin(), help.out.end(), option_line), end; m != end;
         ++m) {
      const std::string option = (*m)[2], short_name = (*m)[1];
      // Positional arguments stand in the usage as FILE... and ID; the filters as [filters].
      if (option == "files" || option == "id") continue;
      const auto& fields = pgndb::query::filter_fields();
      if (contains(usage, "[filters]") &&
          std::any_of(fields.begin(), fields.end(),
                      [&](const auto& f) { return f.name == option; }))
        continue;
      INFO("--" << option);
      CHECK((contains(usage, "--" + option) ||
             (!short_name.empty() && contains(usage, "-" + short_name + " "))));
      ++declared;
    }
    CHECK((declared > 0 || command == "check" || command == "normalize"));
  }
}

TEST_CASE("usage errors are one line and exit with code 2") {
  for (const char* args :
       {"frobnicate", "--frobnicate", "help frobnicate", "perft --depth 3 --bogus", "perft",
        "perft --depth x", "perft --depth 3 --fen 'not a fen'"}) {
    INFO(args);
    CommandResult r = run(args);
    CHECK(r.exit_code == 2);
    CHECK(count_lines(r.out) == 1);
  }
  CHECK(run("").exit_code == 2);
}

TEST_CASE("pgndb perft prints the node count as its last line") {
  CommandResult r = run("perft --depth 4");
  CHECK(r.exit_code == 0);
  CHECK(last_line(r.out) == "197281");

  r = run("perft --fen '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1' --depth 5");
  CHECK(r.exit_code == 0);
  CHECK(last_line(r.out) == "674624");
}

TEST_CASE("pgndb perft --divide lists each move in UCI, then the total") {
  CommandResult r = run("perft --depth 2 --divide");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("e2e4: 20\n") != std::string::npos);
  CHECK(r.out.find("g1f3: 20\n") != std::string::npos);
  CHECK(count_lines(r.out) == 20 + 2);
  CHECK(last_line(r.out) == "400");
}

TEST_CASE("pgndb check reports each problem as FILE:LINE:COL and exits 1 on errors") {
  TempDir dir;
  write_file(dir / "bad.pgn", bad_pgn);
  SplitRun r = run_in(dir, "check bad.pgn");
  CHECK(r.exit_code == 1);
  CHECK(r.err.empty());
  const auto first_line = r.out.substr(0, r.out.find('\n'));
  CHECK(first_line.starts_with("bad.pgn:16:12: error: "));
  CHECK(contains(first_line, "'Ke3'"));
  CHECK(contains(r.out, "\nbad.pgn:19:1: warning: "));
  CHECK(count_lines(r.out) == 3);
  CHECK(last_line(r.out) == "games: 3, ok: 1, warnings: 1, errors: 1");
}

TEST_CASE("pgndb check exits 0 on clean files, warnings included") {
  TempDir dir;
  write_file(dir / "clean.pgn", good_game + "\n" + good_game);
  SplitRun r = run_in(dir, "check clean.pgn");
  CHECK(r.exit_code == 0);
  CHECK(r.out == "games: 2, ok: 2, warnings: 0, errors: 0\n");

  write_file(dir / "warning.pgn", warning_game);
  r = run_in(dir, "check warning.pgn");
  CHECK(r.exit_code == 0);
  CHECK(count_lines(r.out) == 2);
  CHECK(last_line(r.out) == "games: 1, ok: 0, warnings: 1, errors: 0");

  // Several files add up.
  r = run_in(dir, "check clean.pgn warning.pgn");
  CHECK(r.exit_code == 0);
  CHECK(last_line(r.out) == "games: 3, ok: 2, warnings: 1, errors: 0");
}

TEST_CASE("pgndb check reports files in their order whatever the number of jobs") {
  TempDir dir;
  std::string files;
  for (int i = 0; i < 12; ++i) {
    const std::string name = "f" + std::to_string(i) + ".pgn";
    std::string text;
    for (int g = 0; g <= i; ++g) text += (i + g) % 3 ? good_game + "\n" : bad_pgn + "\n";
    write_file(dir / name, text);
    files += " " + name;
  }
  const SplitRun one = run_in(dir, "check -j 1" + files);
  CHECK(one.exit_code == 1);
  CHECK(count_lines(one.out) > 12);
  for (const char* jobs : {"-j 2", "-j 5", ""}) {
    INFO(jobs);
    const SplitRun many = run_in(dir, std::string("check ") + jobs + files);
    CHECK(many.exit_code == 1);
    CHECK(many.out == one.out);
  }
}

TEST_CASE("a missing input file is a one-line error with exit code 2") {
  TempDir dir;
  for (const char* command : {"check", "normalize"}) {
    INFO(command);
    SplitRun r = run_in(dir, std::string(command) + " missing.pgn");
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(count_lines(r.err) == 1);
    CHECK(contains(r.err, "missing.pgn"));
  }
}

TEST_CASE(
    "every command checks its options before it touches the disk: a refusal creates nothing") {
  TempDir dir;
  const std::string sample = "'" + std::string(PGNDB_SOURCE_DIR) + "/samples/Tal-100.pgn'";
  struct Refused {
    std::string args, message;  // the message: a part of the one line on stderr
  };
  // Each names a database `new` and an output `out.pgn` that do not exist: neither may appear.
  const Refused cases[] = {
      {"import --db new --progress sometimes " + sample,
       "--progress must be auto, always or never"},
      {"import --db new missing.pgn", "missing.pgn"},
      {"import --db new --batch 0 " + sample, "--batch must be 1 to"},
      {"import --db new --batch-mb 0 " + sample, "--batch-mb must be 1 to"},
      {"import --db new --threads 5000 " + sample, "--threads must be 0 to 1024, not 5000"},
      {"import --db new " + sample + " missing.pgn", "missing.pgn"},
      {"import --db new --lang xx " + sample, "--lang: 'xx' is not a language pgndb knows (en, cs"},
      {"find --db new --ending resigned", "--ending: 'resigned'"},
      {"find --db new --format xml", "--format: 'xml'"},
      {"find --db new --sort name", "--sort: 'name'"},
      {"find --db new --date 1990..1980", "--date: the range 1990..1980 is inverted"},
      {"find --db new --speed fast", "--speed: 'fast'"},
      {"find --db new --rating-groups 1500", "--rating-groups: '1500'"},
      // Material specs and patterns name the character at fault.
      {"find --db new --material 'r2x r'", "--material: unknown piece letter 'x'"},
      {"find --db new --material 'r12'", "a count is one digit (0 to 9), at character 3"},
      {"find --db new --material KRPvKX",
       "unexpected 'X' in an ending's name (KQRBNP), at character 6"},
      {"find --db new --final-material 'r r r'", "--final-material: unexpected text"},
      {"find --db new --material KRvKR --stable two", "--stable: 'two'"},
      {"find --db new --stable 3", "--stable: give --material"},
      {"find --db new --either-colour", "--either-colour: give --material"},
      {"tree --db new --pattern '8/8/8/8/8/8/8/9'", "--pattern: '9'"},
      {"tree --db new --pattern '8/8/8/8/8/8/8'", "--pattern: "},
      {"export --db new -o out.pgn --pattern-either '[Qq*/*/*/*/*/*/*/*'", "--pattern-either: "},
      {"find --db new --pattern '*/*/*/*/*/*/*/*' --to-move both", "--to-move: 'both'"},
      {"find --db new --to-move white", "--to-move: give --pattern"},
      {"tree --db new --moves e4 --in-variations", "--in-variations"},
      {"tree --db new --moves 'e4 e4'", "--moves"},
      {"export --db new -o out.pgn --result 2-0", "--result: '2-0'"},
      {"export --db new -o out.pgn --player-re '('", "--player-re"},
      {"show --db new 0", "no game 0"},
      {"serve --db new --port 70000", "--port must be 0 to 65535"},
      {"serve --db new --threads 0", "--threads must be 1 to 256"},
      {"verify --db new --threads 5000", "--threads must be 0 to 1024"},
      {"check missing.pgn", "missing.pgn"},
      {"check --jobs 5000 " + sample, "--jobs must be 0 to 1024"},
      {"normalize -o out.pgn missing.pgn", "missing.pgn"},
      {"normalize -o out.pgn --output-lang cs --figurine " + sample,
       "--output-lang and --figurine: give one"},
      {"normalize -o out.pgn --lang klingon " + sample, "--lang: 'klingon'"},
      {"check --lang CS " + sample, "--lang: 'CS'"},
      {"export --db new -o out.pgn --lang xx", "--lang: 'xx'"},
      {"show --db new 1 --figurine --lang de", "--lang and --figurine: give one"},
      {"perft --depth 30", "--depth must be between 1 and 20"},
  };
  for (const Refused& c : cases) {
    INFO(c.args);
    SplitRun r = run_in(dir, c.args);
    CHECK(r.exit_code == 2);
    CHECK(count_lines(r.err) == 1);
    CHECK(contains(r.err, c.message));
    const std::string command = c.args.substr(0, c.args.find(' '));
    CHECK(r.err.starts_with("pgndb " + command + ": "));
    CHECK_FALSE(std::filesystem::exists(dir.path() / "new"));
    CHECK_FALSE(std::filesystem::exists(dir.path() / "out.pgn"));
  }
  // A database that exists is not opened for writing by a refused import either: an older
  // schema would otherwise be upgraded. (Here: nothing is written; the file list stays as it was.)
  REQUIRE(run_in(dir, "import --db db " + sample).exit_code == 0);
  const auto before = count_lines(run_command("ls -l '" + (dir / "db").string() + "'").out);
  SplitRun refused = run_in(dir, "import --db db --batch 0 " + sample);
  CHECK(refused.exit_code == 2);
  CHECK(count_lines(run_command("ls -l '" + (dir / "db").string() + "'").out) == before);
}

TEST_CASE("normalize refuses to write over one of its inputs, which it would destroy") {
  TempDir dir;
  write_file(dir / "games.pgn", good_game);
  for (const char* output : {"games.pgn", "./games.pgn"}) {
    INFO(output);
    SplitRun r = run_in(dir, std::string("normalize games.pgn -o ") + output);
    CHECK(r.exit_code == 2);
    CHECK(count_lines(r.err) == 1);
    CHECK(contains(r.err, "is an input file"));
    CHECK(read_file(dir / "games.pgn") == good_game);
  }
}

TEST_CASE("pgndb normalize rewrites good games and copies a bad one unchanged") {
  TempDir dir;
  write_file(dir / "bad.pgn", bad_pgn);
  SplitRun r = run_in(dir, "normalize bad.pgn");
  CHECK(r.exit_code == 0);
  // The good games in export format: the Seven Tag Roster, canonical movetext.
  CHECK(r.out.starts_with(good_game + "\n"));
  CHECK(contains(r.out,
                 "[Event \"wrong result\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                 "[White \"?\"]\n[Black \"?\"]\n[Result \"0-1\"]\n\n"
                 "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n\n"));
  // The bad game as it was written.
  CHECK(contains(r.out, "\n" + bad_game_text + "\n\n"));
  // Problems and the summary go to stderr, not into the PGN.
  CHECK(!contains(r.out, "error"));
  CHECK(contains(r.err, "bad.pgn:16:12: error: "));
  CHECK(contains(r.err, "bad.pgn:19:1: warning: "));
  CHECK(last_line(r.err) == "games: 3, normalized: 2, copied unchanged: 1, skipped: 0");

  SplitRun skipped = run_in(dir, "normalize --skip-errors bad.pgn");
  CHECK(skipped.exit_code == 0);
  CHECK(!contains(skipped.out, "[Event \"bad\"]"));
  CHECK(!contains(skipped.out, "Ke3"));
  CHECK(contains(skipped.out, "[Event \"good\"]"));
  CHECK(contains(skipped.out, "[Event \"wrong result\"]"));
  CHECK(contains(skipped.err, "bad.pgn:16:12: error: "));
  CHECK(last_line(skipped.err) == "games: 3, normalized: 2, copied unchanged: 0, skipped: 1");

  // Unchanged down to the line ends.
  std::string crlf;
  for (char c : bad_game_text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  write_file(dir / "crlf.pgn", crlf + "\r\n");
  r = run_in(dir, "normalize crlf.pgn");
  CHECK(r.exit_code == 0);
  CHECK(r.out == crlf + "\n\n");
}

TEST_CASE("pgndb normalize -o OUT writes the file, not stdout") {
  TempDir dir;
  write_file(dir / "bad.pgn", bad_pgn);
  const SplitRun to_stdout = run_in(dir, "normalize bad.pgn");
  SplitRun r = run_in(dir, "normalize bad.pgn -o out.pgn");
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(read_file(dir / "out.pgn") == to_stdout.out);
  CHECK(r.err == to_stdout.err);

  // An output that cannot be opened is a one-line error.
  r = run_in(dir, "normalize bad.pgn -o no-such-dir/out.pgn");
  CHECK(r.exit_code == 2);
  CHECK(count_lines(r.err) == 1);
}

TEST_CASE("a .zst input reads the same games as the plain file") {
  // The zstd command comes with the zstd package (scripts/install-deps installs it).
  INFO("the zstd command is missing: scripts/install-deps installs the zstd package");
  REQUIRE(std::system("command -v zstd > /dev/null 2>&1") == 0);
  TempDir dir;
  write_file(dir / "bad.pgn", bad_pgn);
  REQUIRE(std::system(("zstd -q -f '" + (dir / "bad.pgn").string() + "' -o '" +
                       (dir / "bad.pgn.zst").string() + "'")
                          .c_str()) == 0);
  const SplitRun plain = run_in(dir, "check bad.pgn");
  const SplitRun packed = run_in(dir, "check bad.pgn.zst");
  CHECK(packed.exit_code == plain.exit_code);
  CHECK(last_line(packed.out) == last_line(plain.out));
  CHECK(contains(packed.out, "bad.pgn.zst:16:12: error: "));

  const SplitRun normalized = run_in(dir, "normalize bad.pgn");
  const SplitRun normalized_zst = run_in(dir, "normalize bad.pgn.zst");
  CHECK(normalized_zst.exit_code == 0);
  CHECK(normalized_zst.out == normalized.out);
  CHECK(last_line(normalized_zst.err) == last_line(normalized.err));

  // A damaged frame is an error, not a silent short read.
  std::string bytes = read_file(dir / "bad.pgn.zst");
  write_file(dir / "cut.pgn.zst", bytes.substr(0, bytes.size() / 2));
  const SplitRun cut = run_in(dir, "check cut.pgn.zst");
  CHECK(cut.exit_code == 2);
  CHECK(contains(cut.err, "cut.pgn.zst"));
}

TEST_CASE("figurines in movetext are read as the pieces they show, in either colour") {
  TempDir dir;
  // ♘f3 ♞c6 ♗b5 a6 ♗xc6 dxc6 O-O ♕g5, then a promotion written e8=♕ (black's glyph for white's
  // knight, ♞, is read alike: a figurine names a piece, not a side).
  write_file(dir / "figurines.pgn",
             "[Event \"f\"]\n[Result \"*\"]\n\n1. e4 e5 2. \u2658f3 \u265ec6 3. \u2657b5 a6 "
             "4. \u2657xc6 dxc6 5. O-O \u2655g5 *\n\n"
             "[Event \"p\"]\n[SetUp \"1\"]\n[FEN \"8/4P1k1/8/8/8/8/8/4K3 w - - 0 1\"]\n"
             "[Result \"*\"]\n\n1. e8=\u2655 \u265af6 *\n");
  SplitRun r = run_in(dir, "normalize figurines.pgn");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Qg5 *"));
  CHECK(contains(r.out, "1. e8=Q Kf6 *"));
  CHECK(contains(r.err, "normalized: 2, copied unchanged: 0"));
}

TEST_CASE("show and find tell how games ended, by the laws, whatever the result tag says") {
  TempDir dir;
  // Written for the test, each ending worked out by hand from the Laws: a checkmate at ply 4
  // (the fool's mate); a stalemate (Qf7: the king on h8 has no move and is not in check); a
  // capture of a rook leaving bare kings at ply 1, the game going on after it (dead position, Law
  // 5.2.2; a lone knight there would have been dead at the start);
  // the start position a third time at the last ply (a threefold claim); the same repetition
  // in the middle of a game that goes on (no ending on the board, a repetition on the way); the
  // start position a fifth time at ply 16; a halfmove clock of 148 reaching 150 (75 moves) and
  // one of 98 reaching 100 (a fifty-move claim), each with a rook that could still mate.
  write_file(dir / "endings.pgn",
             "[Event \"mate\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
             "[Event \"stalemate\"]\n[SetUp \"1\"]\n[FEN \"7k/4Q3/6K1/8/8/8/8/8 w - - 0 1\"]\n"
             "[Result \"1/2-1/2\"]\n\n1. Qf7 1/2-1/2\n\n"
             "[Event \"dead\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/3r4/4K3 w - - 0 1\"]\n"
             "[Result \"1/2-1/2\"]\n\n1. Kxd2 Ke7 2. Ke3 1/2-1/2\n\n"
             "[Event \"threefold\"]\n[Result \"1/2-1/2\"]\n\n"
             "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n\n"
             "[Event \"repeated, then on\"]\n[Result \"1-0\"]\n\n"
             "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0\n\n"
             "[Event \"fivefold\"]\n[Result \"1/2-1/2\"]\n\n"
             "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 "
             "8. Ng1 Ng8 1/2-1/2\n\n"
             "[Event \"75 moves\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/8/R3K3 w - - 148 100\"]\n"
             "[Result \"1/2-1/2\"]\n\n100. Ra2 Kd5 1/2-1/2\n\n"
             "[Event \"50 moves\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/8/R3K3 w - - 98 60\"]\n"
             "[Result \"1/2-1/2\"]\n\n60. Ra2 Kd5 1/2-1/2\n");
  SplitRun imported = run_in(dir, "import --db db endings.pgn");
  INFO(imported.err);
  REQUIRE(imported.exit_code == 0);
  const std::pair<const char*, const char*> shown[] = {
      {"1", "Ended: checkmate (Law 5.1.1), at ply 4\n"},
      {"2", "Ended: stalemate (Law 5.2.1), at ply 1\n"},
      {"3", "Ended: a dead position: neither side can checkmate (Laws 5.2.2, 6.9), at ply 1\n"},
      {"4",
       "Ended: the position stood a third time: a draw could be claimed (Law 9.2), at ply 8 "
       "(on the way: a threefold repetition)\n"},
      {"5", "Ended: not on the board (on the way: a threefold repetition)\n"},
      {"6",
       "Ended: drawn by the fivefold repetition of a position (Law 9.6.1), at ply 16 (on the "
       "way: a threefold repetition)\n"},
      {"7",
       "Ended: drawn by 75 moves without a capture or a pawn move (Law 9.6.2), at ply 2 (on "
       "the way: 50 moves without a capture or a pawn move)\n"},
      {"8",
       "Ended: 50 moves without a capture or a pawn move: a draw could be claimed (Law 9.3), "
       "at ply 2 (on the way: 50 moves without a capture or a pawn move)\n"}};
  for (const auto& [id, line] : shown) {
    SplitRun r = run_in(dir, std::string("show --db db ") + id);
    INFO("game " << id << ": " << r.out);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, line));
  }
  // The material at the end, in the seeds' values: the fool's mate captured nothing (39 each);
  // the stalemate has White's queen; the dead position bare kings.
  CHECK(contains(run_in(dir, "show --db db 1").out, "Material: White 39, Black 39 "));
  CHECK(contains(run_in(dir, "show --db db 2").out, "Material: White 9, Black 0 "));
  CHECK(contains(run_in(dir, "show --db db 3").out, "Material: White 0, Black 0 "));
  const std::pair<const char*, const char*> found[] = {
      {"--ending checkmate", "1\n"},
      {"--ending stalemate", "2\n"},
      {"--ending insufficient-material", "3\n"},
      {"--ending threefold", "4\n"},
      {"--ending none", "5\n"},
      {"--ending checkmate,stalemate", "1\n2\n"},
      {"--repetition", "4\n5\n6\n"},
      {"--repetition --result 1-0", "5\n"},
      {"--fifty-moves", "7\n8\n"},
      {"--ending fivefold", "6\n"},
      {"--ending seventy-five", "7\n"},
      {"--ending fifty", "8\n"},
      {"--ending fivefold,seventy-five,fifty --fifty-moves", "7\n8\n"}};
  for (const auto& [filter, ids] : found) {
    SplitRun r = run_in(dir, std::string("find --db db --format json ") + filter);
    INFO(filter << ": " << r.out << r.err);
    CHECK(r.exit_code == 0);
    std::string listed;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
      listed += line.substr(6, line.find(',') - 6) + "\n";
    CHECK(listed == ids);
  }
  SplitRun json = run_in(dir, "find --db db --format json --ending threefold");
  CHECK(contains(json.out, R"("ending":"threefold","repetition":true,"fifty_moves":false)"));
  SplitRun bad = run_in(dir, "find --db db --ending resigned");
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.err, "--ending: 'resigned' is not checkmate"));
}

TEST_CASE("lang: --lang forces the piece letters a game is read in, and writes moves in them") {
  TempDir dir;
  // S is a bishop in Czech and a knight in German: 3. Sb5 reads in either, but 2. Jf3 only in
  // Czech. Read as German (forced), the game stops at the first move German cannot read.
  write_file(dir / "cs.pgn",
             "[Event \"cs\"]\n[Result \"*\"]\n\n1. e4 e5 2. Jf3 Jc6 3. Sb5 a6 "
             "4. Sxc6 dxc6 5. O-O Dg5 *\n");
  SplitRun found = run_in(dir, "check cs.pgn");
  CHECK(found.exit_code == 0);
  CHECK(contains(found.out,
                 "cs.pgn:1:1: warning: the moves are written with the piece letters of "
                 "Czech or Slovak"));
  SplitRun forced = run_in(dir, "check --lang cs cs.pgn");
  CHECK(forced.exit_code == 0);
  CHECK(contains(forced.out, "games: 1, ok: 1, warnings: 0, errors: 0"));
  SplitRun wrong = run_in(dir, "check --lang de cs.pgn");
  CHECK(wrong.exit_code == 1);
  CHECK(contains(wrong.out, "cs.pgn:4:13: error: unreadable move 'Jf3' in German piece letters"));
  // --lang en reads English alone: the game is not tried in other letters.
  CHECK(run_in(dir, "check --lang en cs.pgn").exit_code == 1);
  // Imported in Czech, exported in English, Hungarian (F bishop, B rook... H knight, V queen)
  // and figurines; shown in Polish.
  REQUIRE(run_in(dir, "import --db db --lang cs cs.pgn").exit_code == 0);
  const std::pair<const char*, const char*> written[] = {
      {"", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Qg5 *"},
      {"--lang hu", "1. e4 e5 2. Hf3 Hc6 3. Fb5 a6 4. Fxc6 dxc6 5. O-O Vg5 *"},
      {"--figurine",
       "1. e4 e5 2. \u2658f3 \u2658c6 3. \u2657b5 a6 4. \u2657xc6 dxc6 5. O-O \u2655g5 *"}};
  for (const auto& [option, line] : written) {
    SplitRun r = run_in(dir, std::string("export --db db ") + option);
    INFO(option << ": " << r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, line));
  }
  SplitRun shown = run_in(dir, "show --db db 1 --lang pl");
  CHECK(contains(shown.out, "1. e4 e5 2. Sf3 Sc6 3. Gb5 a6 4. Gxc6 dxc6 5. O-O Hg5 *"));
  CHECK(contains(shown.out, "Ply 10, after 5... Hg5, White to move"));
  // normalize reads in one language (--lang) and writes in another (--output-lang).
  SplitRun french = run_in(dir, "normalize --lang cs --output-lang fr cs.pgn");
  CHECK(contains(french.out, "1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. Fxc6 dxc6 5. O-O Dg5 *"));
}
