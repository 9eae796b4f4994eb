// Differential tests against pgn-extract (/usr/games/pgn-extract, an independent PGN reader and
// rules engine): final positions, pgn-extract reading what `pgndb normalize` writes, the
// normalize round trip, and SAN move for move.
//
// The default run works on a slice of the corpus (the first games of a few files, cut at game
// boundaries); the runs tagged [.full] (ctest -L full) take the whole corpus.
//
// How the FENs are compared (test 1): piece placement, side to move and castling strictly, and
// the clocks (halfmove clock, fullmove number) strictly too. The en passant field differs by
// design: pgn-extract writes the square after every double step (PGN standard 16.1.3.4: "this
// is recorded regardless of whether there is a pawn in position to make an en passant
// capture"), pgndb only when a pawn of the side to move stands beside the pawn that moved (the
// rule of Polyglot keys; fen.h). So pgndb's field is checked against what that rule makes of
// pgn-extract's square, computed from pgn-extract's own board: the square when such a pawn
// exists, `-` otherwise. (pgn-extract's --nofauxep is no stricter reference: it also drops the
// square when the capture is illegal because of a pin, which pgndb's rule keeps.)
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pgn/fen.h"
#include "pgn/game.h"
#include "pgn/game_ending.h"
#include "pgn/material_balance.h"
#include "pgn/material_spec.h"
#include "pgn/openings.h"
#include "pgn/piece_letters.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgn/san.h"
#include "support.h"

namespace fs = std::filesystem;

namespace {

using namespace pgndb::test;

const std::string pgndb_binary = PGNDB_BINARY;
const std::string pgn_extract = "/usr/games/pgn-extract";
const fs::path shared_data = PGNDB_SHARED_DATA;

// The slice of the default run: the first `slice_games` games of each of these corpus files
// (old and new games, long and short files; Morphy and Staunton have fewer): 6,404 games.
// Under the sanitizers 300 of each, about 2,300 games: every game runs the same code, and this
// file's tests were a third of the sanitized suite's time with the whole slice. The checks that a
// selection holds games are in games per slice file, so that they say as much at either size.
const std::array<const char*, 8> slice_files = {"Alekhine.pgn", "Gukesh.pgn",  "Kasparov.pgn",
                                                "Morphy.pgn",   "PolgarZ.pgn", "Shirov.pgn",
                                                "Staunton.pgn", "Tal.pgn"};
#ifdef PGNDB_SANITIZED
constexpr std::size_t slice_games = 300;
#else
constexpr std::size_t slice_games = 1000;
#endif

// How many differences a test lists before it only counts them.
constexpr std::size_t max_listed = 20;

// --- Files and processes ---

std::string quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string quote(const fs::path& p) { return quote(std::string_view(p.native())); }
std::string quote(const std::string& s) { return quote(std::string_view(s)); }

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

int shell(const std::string& command) { return exit_code(std::system(command.c_str())); }

// Runs `command` and hands its standard output to `on_line` a line at a time (line end
// removed) as it comes, so that gigabytes of output cost no memory. Returns the exit code.
int stream_lines(const std::string& command, const std::function<void(std::string_view)>& on_line) {
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string pending;
  std::vector<char> buffer(1 << 16);
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) {
    pending.append(buffer.data(), n);
    std::size_t start = 0;
    for (auto nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n', start)) {
      std::string_view line(pending.data() + start, nl - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      on_line(line);
      start = nl + 1;
    }
    pending.erase(0, start);
  }
  if (!pending.empty()) on_line(pending);
  return exit_code(pclose(pipe));
}

std::string join(const std::vector<fs::path>& files) {
  std::string out;
  for (const auto& f : files) out += " " + quote(f);
  return out;
}

void require_pgn_extract() {
  INFO(pgn_extract << " is missing: scripts/install-deps installs the pgn-extract package");
  REQUIRE(access(pgn_extract.c_str(), X_OK) == 0);
}

// --- A small PGN scanner of its own, for pgn-extract's output and pgndb's ---
// Independent of pgn::Reader on purpose: a differential test should not read both sides with
// the code under test. It knows the layout both programs write: tag lines start with `[`, and a
// tag line after movetext starts the next game.

struct ScannedGame {
  std::vector<std::pair<std::string, std::string>> tags;
  // Moves in order as written (suffix annotations `!` `?` removed); a variation is enclosed in
  // "(" and ")" tokens.
  std::vector<std::string> moves;
  std::vector<std::string> main_comments;  // main-line comments, white space folded
  std::string result;
  std::uint64_t first_line = 0;  // where the game starts in the scanned text

  std::string tag(std::string_view name) const {
    for (const auto& [n, v] : tags)
      if (n == name) return v;
    return {};
  }
  std::string title() const {
    return tag("White") + " - " + tag("Black") + ", " + tag("Event") + " " + tag("Date");
  }
};

class Scanner {
 public:
  explicit Scanner(std::function<void(ScannedGame&&)> on_game) : on_game_(std::move(on_game)) {}

  void line(std::string_view l) {
    ++line_number_;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (!in_comment_ && !l.empty() && l.front() == '[') {
      if (in_movetext_) finish_game();
      if (!has_game_) game_.first_line = line_number_;
      has_game_ = true;
      tag_line(l);
      return;
    }
    for (char c : l) character(c);
    character('\n');
  }

  void finish() {
    end_token();
    if (has_game_) finish_game();
  }

 private:
  void tag_line(std::string_view l) {
    auto space = l.find(' ');
    auto open = l.find('"');
    auto close = l.rfind('"');
    if (space == std::string_view::npos || open == std::string_view::npos || close <= open) return;
    std::string value;
    for (std::size_t i = open + 1; i < close; ++i) {
      if (l[i] == '\\' && i + 1 < close) ++i;
      value += l[i];
    }
    game_.tags.emplace_back(std::string(l.substr(1, space - 1)), std::move(value));
  }

  void character(char c) {
    if (in_comment_) {
      if (c == '}') {
        in_comment_ = false;
        if (depth_ == 0) game_.main_comments.push_back(squeeze(comment_));
        comment_.clear();
      } else {
        comment_ += c;
      }
      return;
    }
    if (in_line_comment_) {
      if (c == '\n') in_line_comment_ = false;
      return;
    }
    if (c != ' ' && c != '\n' && c != '\t') {
      if (!has_game_) game_.first_line = line_number_;
      in_movetext_ = has_game_ = true;
    }
    switch (c) {
      case '{':
        end_token();
        in_comment_ = true;
        break;
      case ';':
        end_token();
        in_line_comment_ = true;
        break;
      case '(':
        end_token();
        ++depth_;
        game_.moves.emplace_back("(");
        break;
      case ')':
        end_token();
        --depth_;
        game_.moves.emplace_back(")");
        break;
      case ' ':
      case '\t':
      case '\n': end_token(); break;
      default: token_ += c;
    }
  }

  void end_token() {
    if (token_.empty()) return;
    std::string t = std::move(token_);
    token_.clear();
    if (t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*") {
      if (depth_ == 0) game_.result = t;
      return;
    }
    if (t[0] == '$') return;  // NAG
    // A move number, alone ("12." "12...") or glued to the move ("12.e4").
    std::size_t i = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    if (i > 0 && i < t.size() && t[i] == '.') {
      while (i < t.size() && t[i] == '.') ++i;
      t.erase(0, i);
    }
    while (!t.empty() && (t.back() == '!' || t.back() == '?')) t.pop_back();
    if (!t.empty()) game_.moves.push_back(std::move(t));
  }

  void finish_game() {
    on_game_(std::move(game_));
    game_ = {};
    in_movetext_ = has_game_ = false;
    depth_ = 0;
  }

  std::function<void(ScannedGame&&)> on_game_;
  ScannedGame game_;
  std::string token_, comment_;
  bool in_comment_ = false, in_line_comment_ = false, in_movetext_ = false, has_game_ = false;
  int depth_ = 0;
  std::uint64_t line_number_ = 0;
};

// Runs pgn-extract (silent, diagnostics to `log`) with `arguments` and scans what it writes to
// standard output. Its standard error must stay empty.
void run_pgn_extract(const std::string& arguments, const fs::path& log, const TempDir& tmp,
                     Scanner& scanner) {
  require_pgn_extract();
  const fs::path err = tmp / "pgn-extract.stderr";
  const int rc = stream_lines(
      quote(pgn_extract) + " -s --quiet -l " + quote(log) + " " + arguments + " 2> " + quote(err),
      [&](std::string_view line) { scanner.line(line); });
  scanner.finish();
  CHECK(rc == 0);
  const std::string errors = read_file(err);
  INFO("pgn-extract's standard error: " << errors);
  CHECK(errors.empty());
}

std::vector<ScannedGame> scan_file(const fs::path& path) {
  std::vector<ScannedGame> games;
  Scanner scanner([&](ScannedGame&& g) { games.push_back(std::move(g)); });
  for (const auto& line : split_lines(read_file(path))) scanner.line(line);
  scanner.finish();
  return games;
}

// --- FEN comparison ---

std::vector<std::string> fields(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

bool looks_like_fen(std::string_view comment) {
  auto f = fields(comment);
  return f.size() == 6 && std::count(f[0].begin(), f[0].end(), '/') == 7;
}

// What pgndb's en passant rule makes of a FEN whose en passant field follows every double step:
// the square when a pawn of the side to move attacks it, `-` otherwise.
std::string capturable_en_passant(const std::vector<std::string>& f) {
  const std::string& ep = f[3];
  if (ep == "-" || ep.size() != 2) return ep;
  char board[8][8];  // [rank][file], rank 0 = rank 1
  int rank = 7, file = 0;
  for (char c : f[0]) {
    if (c == '/') {
      --rank;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      for (int k = 0; k < c - '0' && file < 8; ++k) board[rank][file++] = '.';
    } else if (rank >= 0 && file < 8) {
      board[rank][file++] = c;
    }
  }
  const int ep_file = ep[0] - 'a', ep_rank = ep[1] - '1';
  const bool white = f[1] == "w";
  const int pawn_rank = white ? ep_rank - 1 : ep_rank + 1;
  const char pawn = white ? 'P' : 'p';
  if (ep_file < 0 || ep_file > 7 || pawn_rank < 0 || pawn_rank > 7) return ep;
  for (int df : {-1, 1}) {
    const int pf = ep_file + df;
    if (pf >= 0 && pf < 8 && board[pawn_rank][pf] == pawn) return ep;
  }
  return "-";
}

// Empty when pgndb's FEN agrees with pgn-extract's, else what differs.
std::string fen_difference(const std::string& ours, const std::string& theirs) {
  const auto o = fields(ours), t = fields(theirs);
  if (o.size() != 6 || t.size() != 6) return "not two 6-field FENs";
  static constexpr std::array<const char*, 6> names = {"piece placement", "side to move",
                                                       "castling",        "en passant",
                                                       "halfmove clock",  "fullmove number"};
  std::string out;
  for (std::size_t i = 0; i < 6; ++i) {
    const std::string expected = i == 3 ? capturable_en_passant(t) : t[i];
    if (o[i] != expected) out += std::string(out.empty() ? "" : ", ") + names[i];
  }
  return out;
}

// --- pgndb's side ---

struct OurGame {
  std::string fen;  // of the final main-line position
  bool error;
  std::string where;  // FILE:LINE of the game's start
};

class LocatingReplay : public pgn::ReplayVisitor {
 public:
  pgn::Control begin_game(pgn::Location at) override {
    start = at;
    return ReplayVisitor::begin_game(at);
  }
  pgn::Location start;
};

// Reads every game of `file` into `replay`, calling `on_game` after each.
void replay_each(const fs::path& file, pgn::ReplayVisitor& replay,
                 const std::function<void()>& on_game) {
  auto source = pgn::FileSource::open(file.string());
  INFO(file);
  REQUIRE(source.has_value());
  pgn::Reader reader(**source);
  for (;;) {
    auto more = reader.read_game(replay);
    if (!more) FAIL(more.error());
    if (!*more) break;
    on_game();
  }
}

std::vector<OurGame> replay_files(const std::vector<fs::path>& files) {
  std::vector<OurGame> games;
  LocatingReplay replay;
  for (const auto& file : files)
    replay_each(file, replay, [&] {
      games.push_back({pgn::to_fen(replay.final_position()), replay.has_error(),
                       file.filename().string() + ":" + std::to_string(replay.start.line)});
    });
  return games;
}

struct NormalizeRun {
  int exit_code = -1;
  std::string stderr_text;
  std::uint64_t games = 0, normalized = 0, copied = 0, skipped = 0;
};

NormalizeRun normalize(const std::vector<fs::path>& inputs, const fs::path& output,
                       const fs::path& errors, bool skip_errors) {
  NormalizeRun run;
  run.exit_code = shell(quote(pgndb_binary) + " normalize" + join(inputs) + " -o " + quote(output) +
                        (skip_errors ? " --skip-errors" : "") + " 2> " + quote(errors));
  run.stderr_text = read_file(errors);
  auto lines = split_lines(run.stderr_text);
  const std::string summary = lines.empty() ? "" : lines.back();
  unsigned long long g = 0, n = 0, c = 0, s = 0;
  INFO("pgndb normalize summary: " << summary);
  REQUIRE(std::sscanf(summary.c_str(),
                      "games: %llu, normalized: %llu, copied unchanged: %llu, skipped: %llu", &g,
                      &n, &c, &s) == 4);
  run.games = g, run.normalized = n, run.copied = c, run.skipped = s;
  return run;
}

// pgndb's warnings that a result contradicts a checkmate or stalemate on the board.
std::size_t count_result_warnings(const std::string& stderr_text) {
  std::size_t n = 0;
  for (const auto& line : split_lines(stderr_text))
    n += line.find(": warning: the game ends in ") != std::string::npos;
  return n;
}

// --- The corpus slice ---

// The first `games` games of a corpus file (all of them when it has fewer), and their number:
// every corpus game starts with an Event tag (see shared/data/README.md), so the cut goes
// before the line `[Event ` of game games + 1.
std::pair<std::string, std::size_t> first_games(const std::string& text, std::size_t games) {
  std::size_t seen = 0;
  for (std::size_t at = 0; at < text.size();) {
    if (text.compare(at, 7, "[Event ") == 0 && ++seen == games + 1)
      return {text.substr(0, at), games};
    auto nl = text.find('\n', at);
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return {text, seen};
}

struct Slice {
  TempDir dir;
  fs::path file;
  std::size_t games = 0;
};

// Written once per process, on first use.
const Slice& slice() {
  static Slice s;
  if (s.games == 0) {
    std::string text;
    for (const char* name : slice_files) {
      const fs::path path = shared_data / "corpus" / name;
      INFO(path);
      REQUIRE(fs::exists(path));
      auto [games, count] = first_games(read_file(path), slice_games);
      text += games;
      s.games += count;
    }
    s.file = s.dir / "slice.pgn";
    write_file(s.file, text);
  }
  return s;
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(shared_data / "corpus"))
    if (e.is_regular_file() && e.path().extension() == ".pgn") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> edge_files() {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(shared_data / "edge"))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Edge files (under shared/data/edge/) that pgndb and pgn-extract read differently on purpose,
// or where pgn-extract is the one that is off, with the reason. The final-position comparison
// over the edge files leaves them out.
struct Exclusion {
  const char* file;
  const char* reason;
};
const Exclusion edge_exclusions[] = {
    // pgn-extract drops a game without a termination marker ("Missing result"); pgndb reads it.
    {"chess.js/0.pgn", "HTML <br /> between tags: pgn-extract finds 43 bits of games, pgndb 1"},
    {"disservin-chess-library/black2move.pgn", "no result marker"},
    {"disservin-chess-library/castling.pgn", "no result marker"},
    {"disservin-chess-library/newline.pgn", "no result marker"},
    {"disservin-chess-library/no_moves.pgn", "no moves, no result marker"},
    {"disservin-chess-library/no_moves_but_comment_followed_by_termination_marker.pgn",
     "no moves: pgn-extract drops the games"},
    {"disservin-chess-library/threefold_repetition.pgn", "no result marker"},
    {"disservin-chess-library/empty_body.pgn", "a game with tags only: pgn-extract drops it"},
    {"notnil-chess/0008.pgn", "no result marker"},
    {"notnil-chess/0009.pgn", "no result marker"},
    {"notnil-chess/0010.pgn", "no result marker"},
    {"pgn-extract/outfiles/test-noresults-out.pgn", "no result marker"},
    {"scalachess/FWWRC.pgn", "games with tags only: pgn-extract drops them"},
    {"scalachess/uzchesscup.pgn", "games with tags only: pgn-extract drops them"},
    // Syntax pgndb does not take, and recovers from differently.
    {"disservin-chess-library/corrupted.pgn",
     "a broken move (Kx) mid-game: pgn-extract keeps none of the moves, pgndb those before it"},
    {"pgn-extract/nested-comment.pgn", "nested braces (pgn-extract --nestedcomments)"},
    {"pgn-extract/outfiles/test-nestedcomments-out.pgn", "nested braces"},
    {"pgn-extract/outfiles/test-Wdeutsch-out.pgn", "German piece letters"},
    {"pgn-extract/outfiles/test-WWdeutsch-out.pgn", "German piece letters"},
    {"pgn-extract/outfiles/test-WWepd-out.pgn", "EPD lines, not PGN"},
    {"python-chess/antichess-programfox.pgn", "a variant pgndb rejects, pgn-extract plays"},
    {"python-chess/knightvuillaume-jannlee-zh-lichess.pgn", "crazyhouse drops (N@f3)"},
    {"python-chess/saturs-jannlee-zh-lichess.pgn", "crazyhouse drops (N@f3)"},
    // pgn-extract is off: a `;` comment line before the movetext is read as moves.
    {"mliebelt-pgn-parser/sampleGameThrow.pgn", "pgn-extract misreads a leading ; comment"},
    // pgn-extract is off: a null move does not advance its halfmove clock (Stockfish's
    // do_null_move and python-chess do; pgndb does too).
    {"pgn-extract/test-allownullmoves.pgn", "halfmove clock after a null move"},
    {"pgn-extract/outfiles/test-allownullmoves-out.pgn", "halfmove clock after a null move"},
    {"python-chess/anastasian-lewis.pgn", "halfmove clock after a null move (Z0)"},
    // The same castling right written two ways: a FEN tag gives kings off e1/e8 castling rights
    // KQkq-style; pgndb writes the outermost rook as `q` (X-FEN), pgn-extract as `b` (Shredder).
    {"pychess/lessons__lichess_study_2nd-part-game-puzzles-with-interactive-lessons_by_"
     "Francesco_Super_2018.01.03.pgn",
     "castling field `Kq` (pgndb, X-FEN) against `Kb` (pgn-extract)"},
    // Tested on their own below.
    {"pgn-extract/eco.pgn", "a comment before the first tags (own test case)"},
    {"pgn-extract/test-nobadresults.pgn", "movetext after a tag on its line (own test case)"},
};

// --- The checks, each on a list of files ---

// (1) The FEN of every game's final main-line position agrees with the last FEN comment that
// pgn-extract --fencomments writes for it. Games are matched by order; --keepbroken keeps the
// games pgn-extract cannot replay to the end, so both sides count every game. Their final
// positions are compared only where no side stopped early: at an illegal move pgn-extract stops
// the game, while pgndb stops only the line it stands in (a bad variation costs the rest of the
// variation, the main line goes on), so after an error the two legitimately differ.
// Returns the number of games pgndb read.
std::size_t check_final_positions(const std::vector<fs::path>& files) {
  require_pgn_extract();
  TempDir tmp;
  const auto ours = replay_files(files);
  std::size_t count = 0, compared = 0, faux_ep = 0, mismatches = 0;
  std::vector<std::string> listed;
  Scanner scanner([&](ScannedGame&& g) {
    const std::size_t i = count++;
    if (i >= ours.size()) return;
    std::string theirs;
    for (const auto& c : g.main_comments)
      if (looks_like_fen(c)) theirs = c;
    if (theirs.empty()) {  // no move: the starting position
      theirs = g.tag("FEN").empty() ? std::string(pgn::start_fen) : g.tag("FEN");
    }
    if (ours[i].error) return;
    ++compared;
    const auto t = fields(theirs);
    if (t.size() == 6 && capturable_en_passant(t) != t[3]) ++faux_ep;
    const std::string diff = fen_difference(ours[i].fen, theirs);
    if (!diff.empty()) {
      ++mismatches;
      if (listed.size() < max_listed)
        listed.push_back(ours[i].where + " (" + g.title() + "): " + diff +
                         "\n  pgndb:       " + ours[i].fen + "\n  pgn-extract: " + theirs);
    }
  });
  const fs::path log = tmp / "pgn-extract.log";
  run_pgn_extract("--keepbroken --fencomments" + join(files), log, tmp, scanner);

  // Games pgn-extract could not replay to the end are the games where pgndb found an error.
  std::size_t their_failures = 0, our_errors = 0;
  for (const auto& line : split_lines(read_file(log)))
    their_failures += line.starts_with("Failed to make move");
  for (const auto& g : ours) our_errors += g.error;

  INFO("games: pgndb " << ours.size() << ", pgn-extract " << count << "; compared " << compared
                       << "; pgn-extract wrote an en passant square no pawn can use in " << faux_ep
                       << " final positions");
  CHECK(count == ours.size());
  CHECK(their_failures == our_errors);
  for (const auto& l : listed) UNSCOPED_INFO(l);
  CHECK(mismatches == 0);
  return ours.size();
}

// (2) pgn-extract reads what `pgndb normalize` writes: no diagnostic but the result warnings that
// pgndb gives too (normalize keeps a claimed result that contradicts a mate on the board), and
// as many games out as pgndb wrote. Games with errors are left out (--skip-errors): their
// original text, copied unchanged, would make pgn-extract report their errors again.
void check_pgn_extract_reads_normalized(const std::vector<fs::path>& files) {
  require_pgn_extract();
  TempDir tmp;
  const fs::path normalized = tmp / "normalized.pgn";
  const NormalizeRun run = normalize(files, normalized, tmp / "normalize.err", true);
  REQUIRE(run.exit_code == 0);
  CHECK(run.normalized + run.skipped == run.games);

  std::size_t count = 0;
  Scanner scanner([&](ScannedGame&&) { ++count; });
  const fs::path log = tmp / "pgn-extract.log";
  run_pgn_extract(quote(normalized), log, tmp, scanner);

  // pgn-extract's only allowed diagnostic, in three lines: "Warning: Result of R is
  // inconsistent with checkmate|stalemate ...", the game's players and event, "File F: Line
  // number: N".
  const auto lines = split_lines(read_file(log));
  std::size_t result_warnings = 0;
  std::vector<std::string> unexpected;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("Warning: Result of ") &&
        lines[i].find(" is inconsistent with ") != std::string::npos && i + 2 < lines.size() &&
        lines[i + 2].starts_with("File ")) {
      ++result_warnings;
      i += 2;
    } else if (!lines[i].empty()) {
      unexpected.push_back(lines[i]);
    }
  }
  INFO("pgndb normalize: " << run.games << " games, " << run.normalized << " normalized, "
                           << run.skipped << " with errors left out; pgn-extract read " << count);
  CHECK(count == run.normalized);
  for (std::size_t i = 0; i < std::min(unexpected.size(), std::size_t(40)); ++i)
    UNSCOPED_INFO("pgn-extract: " << unexpected[i]);
  CHECK(unexpected.empty());
  CHECK(result_warnings == count_result_warnings(run.stderr_text));
}

// Where texts a and b (a != b) first differ: the line, and the game around it.
std::string first_difference(const std::string& a, const std::string& b) {
  const auto la = split_lines(a), lb = split_lines(b);
  std::size_t i = 0;
  while (i < la.size() && i < lb.size() && la[i] == lb[i]) ++i;
  std::string game;  // the tags of the game the line belongs to
  for (std::size_t k = std::min(i, la.size()); k-- > 0 && game.size() < 200;) {
    if (la[k].starts_with("[White ") || la[k].starts_with("[Black ") ||
        la[k].starts_with("[Event "))
      game = la[k] + " " + game;
    if (la[k].starts_with("[Event ")) break;
  }
  return "from line " + std::to_string(i + 1) + " (game " + game +
         "):\n  once:  " + (i < la.size() ? la[i] : "<end>") +
         "\n  twice: " + (i < lb.size() ? lb[i] : "<end>");
}

}  // namespace

TEST_CASE("pgn-extract: final positions of the corpus slice agree", "[pgn-extract]") {
  CHECK(check_final_positions({slice().file}) == slice().games);
}

TEST_CASE("pgn-extract: the en passant rule used to compare FENs", "[pgn-extract]") {
  // pgn-extract's FEN after 1. e4 d5 2. e5 f5: f6 can be taken (e5 stands beside f5)...
  CHECK(capturable_en_passant(
            fields("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")) == "f6");
  // ... after 1. e4: no black pawn beside e4.
  CHECK(capturable_en_passant(
            fields("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")) == "-");
  CHECK(fen_difference("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") == "");
  CHECK(fen_difference("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") ==
        "en passant");
  CHECK(fen_difference("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b Kkq - 0 1",
                       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 1 1") ==
        "castling, halfmove clock");
}

TEST_CASE("pgn-extract: reads pgndb normalize output of the corpus slice", "[pgn-extract]") {
  check_pgn_extract_reads_normalized({slice().file});
}

TEST_CASE("pgn-extract: normalize is idempotent on edge cases and the slice", "[pgn-extract]") {
  // normalize(normalize(x)) == normalize(x), byte for byte, for every file x under edge/ and for
  // the slice. pgndb normalize reads each file given with a reader of its own, so the output of
  // one run over all files is the concatenation of the per-file outputs, and normalizing it
  // again gives the concatenation of the per-file second passes as long as each file's output
  // ends at a game boundary. Writer output always does; a game with an error is copied
  // unchanged and may not (an unclosed comment or variation), so the files holding such games
  // are also checked one by one. Two processes instead of two per file keep the test fast.
  TempDir tmp;
  std::vector<fs::path> inputs = edge_files();
  REQUIRE(inputs.size() > 200);
  inputs.push_back(slice().file);

  const fs::path once = tmp / "once.pgn", twice = tmp / "twice.pgn", err = tmp / "err";
  const NormalizeRun first = normalize(inputs, once, err, false);
  const NormalizeRun second = normalize({once}, twice, err, false);
  CHECK(first.exit_code == 0);
  CHECK(second.exit_code == 0);
  // Reading the output again finds the same games, and the same ones with errors.
  CHECK(second.games == first.games);
  CHECK(second.copied == first.copied);
  const std::string a = read_file(once), b = read_file(twice);
  if (a != b)
    FAIL_CHECK("all files: normalize(normalize(x)) != normalize(x) " << first_difference(a, b));

  // The files with games copied unchanged, one by one.
  std::vector<fs::path> with_errors;
  for (const auto& line : split_lines(first.stderr_text)) {
    if (line.find(": error: ") == std::string::npos) continue;
    for (const auto& input : inputs)
      if (line.starts_with(input.string() + ":") &&
          std::find(with_errors.begin(), with_errors.end(), input) == with_errors.end())
        with_errors.push_back(input);
  }
  CHECK(with_errors.size() > 5);  // edge/ has a dozen
  for (const auto& input : with_errors) {
    INFO(input);
    const NormalizeRun one = normalize({input}, once, err, false);
    const NormalizeRun two = normalize({once}, twice, err, false);
    CHECK(one.exit_code == 0);
    CHECK(two.exit_code == 0);
    CHECK(two.games == one.games);
    CHECK(two.copied == one.copied);
    const std::string x = read_file(once), y = read_file(twice);
    if (x != y) FAIL_CHECK("normalize(normalize(x)) != normalize(x) " << first_difference(x, y));
  }
}

TEST_CASE("pgn-extract: SAN of pgndb normalize agrees with pgn-extract -Wsan", "[pgn-extract]") {
  require_pgn_extract();
  TempDir tmp;
  const fs::path ours_file = tmp / "normalized.pgn";
  // Both leave out the games with errors (pgn-extract does unless told --keepbroken).
  const NormalizeRun run = normalize({slice().file}, ours_file, tmp / "normalize.err", true);
  REQUIRE(run.exit_code == 0);
  const auto ours = scan_file(ours_file);
  CHECK(ours.size() == run.normalized);

  std::vector<ScannedGame> theirs;
  Scanner scanner([&](ScannedGame&& g) { theirs.push_back(std::move(g)); });
  run_pgn_extract("-Wsan " + quote(slice().file), tmp / "pgn-extract.log", tmp, scanner);
  REQUIRE(theirs.size() == ours.size());

  std::size_t moves = 0, differing = 0;
  std::vector<std::string> listed;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    const auto& o = ours[i].moves;
    const auto& t = theirs[i].moves;
    moves += o.size();
    if (o == t) continue;
    std::size_t k = 0;
    while (k < o.size() && k < t.size() && o[k] == t[k]) ++k;
    if (++differing <= max_listed)
      listed.push_back("game " + std::to_string(i + 1) + " (" + ours[i].title() + "), token " +
                       std::to_string(k + 1) + ": pgndb " + (k < o.size() ? o[k] : "<end>") +
                       ", pgn-extract " + (k < t.size() ? t[k] : "<end>"));
  }
  INFO(ours.size() << " games, " << moves << " moves");
  CHECK(moves > 40 * ours.size());  // the scanner saw the moves
  for (const auto& l : listed) UNSCOPED_INFO(l);
  CHECK(differing == 0);
}

TEST_CASE("pgn-extract: final positions agree on the edge files both read alike", "[pgn-extract]") {
  // Every file under edge/ but the exclusions (each with its reason above), in one run of each
  // program: the games are matched by order across the files.
  std::vector<fs::path> files;
  std::size_t excluded = 0;
  for (const auto& f : edge_files()) {
    const std::string relative = fs::relative(f, shared_data / "edge").generic_string();
    bool skip = false;
    for (const auto& e : edge_exclusions) skip |= relative == e.file;
    if (skip)
      ++excluded;
    else
      files.push_back(f);
  }
  CHECK(excluded == std::size(edge_exclusions));  // each exclusion names a file that exists
  REQUIRE(files.size() > 200);
  CHECK(check_final_positions(files) > 2000);
}

// A tag pair and movetext on one line is import-format PGN (the standard separates tokens by
// white space, not by line ends): `[Result "1-0"] e4 *` is the tag and the move e4.
TEST_CASE("pgn-extract: movetext after a tag on the same line", "[pgn-extract]") {
  check_final_positions({shared_data / "edge" / "pgn-extract" / "test-nobadresults.pgn"});
}

// pgn-extract's eco.pgn starts with a comment in braces before the first tag section: it leads
// the first game rather than being a game of its own (2,014 games, as pgn-extract reads).
TEST_CASE("pgn-extract: a comment before the first tags is not a game", "[pgn-extract]") {
  check_final_positions({shared_data / "edge" / "pgn-extract" / "eco.pgn"});
}

// --- How games end: pgndb's game_ending against pgn-extract's selections ---

// A game as both sides name it: players, event, date, round and the number of main-line moves
// (pgn-extract writes them as read; a multiset, since a file may hold a game twice).
// Bytes beyond ASCII are left out: pgndb reads a Latin-1 tag ("György" in one byte) as UTF-8,
// pgn-extract writes it as it was, and the same game must have one identity.
std::string identity(const std::string& white, const std::string& black, const std::string& event,
                     const std::string& date, const std::string& round, std::size_t plies) {
  std::string out =
      white + "|" + black + "|" + event + "|" + date + "|" + round + "|" + std::to_string(plies);
  std::erase_if(out, [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  return out;
}

// The identity of a game as written (identity()), its main line's plies counted from its move
// tokens (those inside parentheses are a variation's).
std::string scanned_identity(const ScannedGame& g) {
  std::size_t plies = 0;
  int depth = 0;
  for (const auto& m : g.moves) {
    depth += m == "(" ? 1 : m == ")" ? -1 : 0;
    plies += depth == 0 && m != ")";
  }
  return identity(g.tag("White"), g.tag("Black"), g.tag("Event"), g.tag("Date"), g.tag("Round"),
                  plies);
}

// Whether some position stands three times among `fens` (FEN texts, the start first), compared
// by placement, side to move, castling rights and the en passant field: as written, or as pgndb
// and the Laws count it (Law 9.2.3: only when the capture is possible; capturable_en_passant).
bool stands_three_times(const std::vector<std::string>& fens, bool capturable_only) {
  std::map<std::string, int> seen;
  for (const auto& fen : fens) {
    const auto f = fields(fen);
    const std::string ep = capturable_only ? capturable_en_passant(f) : f[3];
    if (++seen[f[0] + " " + f[1] + " " + f[2] + " " + ep] == 3) return true;
  }
  return false;
}

// For each of pgn-extract's selections (--checkmate, --stalemate, --repetition, --fifty), the
// games pgndb's game_ending puts there, compared as multisets of identities; the number of
// games pgn-extract selected is returned, per selection.
//
// Repetitions differ by design: pgn-extract compares positions with the en passant square of
// every double step (its FENs write it so), the Laws and pgndb only when an en passant capture
// is possible. So its FEN comments decide, read both ways: as written they must give exactly
// pgn-extract's --repetition selection (that is how it counts), and with the en passant square
// kept only when a pawn can take there they must give exactly pgndb's.
std::map<std::string, std::size_t> check_endings(const fs::path& file) {
  struct Ours {
    std::multiset<std::string> checkmate, stalemate, repetition, fifty;
    // Games whose final position is a checkmate or a stalemate, though the game had ended by
    // itself before it (75 moves, a fivefold repetition, a dead position) and play went on:
    // pgn-extract looks at the final position only.
    std::multiset<std::string> mate_after_end, stalemate_after_end;
  } ours;
  {
    pgn::ReplayVisitor replay({.keep_record = true});
    replay_each(file, replay, [&] {
      if (replay.has_error()) return;  // pgn-extract leaves out what it cannot replay too
      const pgn::GameRecord& g = replay.record();
      std::vector<pgn::Move> moves;
      for (const auto& node : g.moves) moves.push_back(node.move);
      const pgn::GameEnding e = pgn::game_ending(g.start, moves);
      auto tag = [&](const char* name) {
        const std::string* v = g.tag(name);
        return v ? *v : std::string();
      };
      const std::string id = identity(tag("White"), tag("Black"), tag("Event"), tag("Date"),
                                      tag("Round"), moves.size());
      if (e.ending == pgn::Ending::Checkmate) ours.checkmate.insert(id);
      if (e.ending == pgn::Ending::Stalemate) ours.stalemate.insert(id);
      const pgn::Position& end = replay.final_position();
      if (e.ending != pgn::Ending::Checkmate && end.is_checkmate()) {
        CHECK(pgn::ends_by_itself(e.ending));
        CHECK(e.ply < moves.size());
        ours.mate_after_end.insert(id);
      }
      if (e.ending != pgn::Ending::Stalemate && end.is_stalemate()) {
        CHECK(pgn::ends_by_itself(e.ending));
        ours.stalemate_after_end.insert(id);
      }
      if (e.repetition) ours.repetition.insert(id);
      if (e.fifty_moves) ours.fifty.insert(id);
    });
  }
  std::map<std::string, std::size_t> selected;
  TempDir tmp;
  // The database's answers: the file imported, then each selection asked of the index (the
  // endings the importer stored) and read back as PGN.
  const fs::path db = tmp / "db";
  REQUIRE(shell(quote(pgndb_binary) + " import --db " + quote(db) + " " + quote(file) +
                " 2> /dev/null") == 0);
  auto stored = [&](const std::string& filter) {
    std::multiset<std::string> ids;
    Scanner scanner([&](ScannedGame&& g) { ids.insert(scanned_identity(g)); });
    const int rc =
        stream_lines(quote(pgndb_binary) + " find --db " + quote(db) + " --format pgn " + filter,
                     [&](std::string_view line) { scanner.line(line); });
    scanner.finish();
    CHECK(rc == 0);
    return ids;
  };
  // pgn-extract's boards after every main-line move: the repetitions both ways.
  std::multiset<std::string> repeated_as_written, repeated_by_the_laws;
  {
    Scanner scanner([&](ScannedGame&& g) {
      std::vector<std::string> fens = {g.tag("FEN").empty() ? std::string(pgn::start_fen)
                                                            : g.tag("FEN")};
      for (const auto& c : g.main_comments)
        if (looks_like_fen(c)) fens.push_back(c);
      const std::string id = identity(g.tag("White"), g.tag("Black"), g.tag("Event"), g.tag("Date"),
                                      g.tag("Round"), fens.size() - 1);
      if (stands_three_times(fens, false)) repeated_as_written.insert(id);
      if (stands_three_times(fens, true)) repeated_by_the_laws.insert(id);
    });
    run_pgn_extract("--fencomments " + quote(file), tmp / "pgn-extract.log", tmp, scanner);
  }
  const auto compare = [](const char* what, const std::multiset<std::string>& expected,
                          const std::multiset<std::string>& found) {
    std::vector<std::string> missing, extra;
    std::set_difference(expected.begin(), expected.end(), found.begin(), found.end(),
                        std::back_inserter(missing));
    std::set_difference(found.begin(), found.end(), expected.begin(), expected.end(),
                        std::back_inserter(extra));
    INFO(what << ": expected " << expected.size() << ", found " << found.size());
    for (std::size_t i = 0; i < missing.size() && i < max_listed; ++i)
      UNSCOPED_INFO("expected, not found: " << missing[i]);
    for (std::size_t i = 0; i < extra.size() && i < max_listed; ++i)
      UNSCOPED_INFO("found, not expected: " << extra[i]);
    CHECK(missing.empty());
    CHECK(extra.empty());
  };
  for (const auto& [option, expected] :
       {std::pair{"--checkmate", &ours.checkmate}, std::pair{"--stalemate", &ours.stalemate},
        std::pair{"--repetition", &ours.repetition}, std::pair{"--fifty", &ours.fifty}}) {
    std::multiset<std::string> theirs;
    Scanner scanner([&](ScannedGame&& g) { theirs.insert(scanned_identity(g)); });
    run_pgn_extract(std::string(option) + " " + quote(file), tmp / "pgn-extract.log", tmp, scanner);
    // The database selects what the library finds (pgndb find --ending, --repetition,
    // --fifty-moves).
    const std::string filter = std::string_view(option) == "--checkmate"   ? "--ending checkmate"
                               : std::string_view(option) == "--stalemate" ? "--ending stalemate"
                               : std::string_view(option) == "--fifty"     ? "--fifty-moves"
                                                                           : "--repetition";
    compare(("pgndb find " + filter + ", against the library's endings").c_str(), *expected,
            stored(filter));
    if (std::string_view(option) == "--repetition") {
      compare("pgn-extract --repetition, against its boards with every en passant square",
              repeated_as_written, theirs);
      compare("pgndb's repetitions, against pgn-extract's boards as the Laws compare them",
              repeated_by_the_laws, *expected);
    } else {
      // pgndb's checkmates and stalemates are pgn-extract's, less the games that had ended by
      // themselves before their last move (they are among pgn-extract's).
      const std::multiset<std::string>* after_end =
          std::string_view(option) == "--checkmate"   ? &ours.mate_after_end
          : std::string_view(option) == "--stalemate" ? &ours.stalemate_after_end
                                                      : nullptr;
      std::multiset<std::string> kept = theirs;
      if (after_end)
        for (const auto& id : *after_end) {
          INFO(option << ": the game ended by itself before its last move: " << id);
          CHECK(kept.count(id) > 0);
          if (auto at = kept.find(id); at != kept.end()) kept.erase(at);
        }
      compare(option, kept, *expected);
    }
    selected[option] = theirs.size();
  }
  return selected;
}

TEST_CASE("pgn-extract: checkmate, stalemate, repetitions and fifty moves select the same games",
          "[pgn-extract]") {
  const auto selected = check_endings(slice().file);
  // Each selection holds games, so that agreeing means something.
  INFO("checkmate " << selected.at("--checkmate") << ", stalemate " << selected.at("--stalemate")
                    << ", repetition " << selected.at("--repetition") << ", fifty "
                    << selected.at("--fifty"));
  CHECK(selected.at("--checkmate") > slice_games / 50);
  CHECK(selected.at("--repetition") > slice_games / 50);
}

// --- Openings (openings.h) ---

// An opening as the tests name it: "ECO name", or "none".
std::string opening_name(pgn::OpeningId id) {
  if (id == 0) return "none";
  const pgn::Opening& o = pgn::openings()[id];
  return std::string(o.eco) + " " + std::string(o.name);
}

// The board of a FEN as openings are compared: placement, side to move, castling rights, and
// the en passant square where a pawn can take there (capturable_en_passant), as the Laws
// (9.2.3) and the position index compare positions. Without it two lines of the tables would be
// one board: 1. Nc3 e5 2. f4 exf4 3. e4 (Van Geet Opening: Nowokunski Gambit), where fxe3 e.p.
// is possible, and 1. e4 e5 2. f4 exf4 3. Nc3 (King's Gambit Accepted: Mason-Keres Gambit), where
// it is not. No clocks.
std::string opening_board(std::string_view fen) {
  const auto f = fields(fen);
  return f.size() < 4 ? std::string()
                      : f[0] + " " + f[1] + " " + f[2] + " " + capturable_en_passant(f);
}

// For each game of `file`, "identity|ECO name" of its opening found on pgn-extract's boards: the
// board after each line of the opening tables (its FEN comments of the tables written as games)
// against its boards after each of the first 40 plies of the game, the deepest match; "none" for
// a game set up from a position other than the start.
std::multiset<std::string> openings_by_pgn_extract(const fs::path& file, const TempDir& tmp) {
  const auto all = pgn::openings();
  std::string tables;
  for (std::size_t id = 1; id < all.size(); ++id)
    tables += "[Event \"" + std::to_string(id) + "\"]\n[Result \"*\"]\n\n" +
              std::string(all[id].moves) + " *\n\n";
  write_file(tmp / "openings.pgn", tables);
  std::map<std::string, std::string> named;  // board -> the first line's opening

  Scanner lines([&](ScannedGame&& g) {
    std::string last;
    for (const auto& c : g.main_comments)
      if (looks_like_fen(c)) last = c;
    named.emplace(opening_board(last), opening_name(pgn::OpeningId(std::stoul(g.tag("Event")))));
  });
  run_pgn_extract("--fencomments " + quote(tmp / "openings.pgn"), tmp / "pgn-extract.log", tmp,
                  lines);
  REQUIRE(named.size() == all.size() - 1);
  std::multiset<std::string> out;
  Scanner games([&](ScannedGame&& g) {
    std::string opening = "none";
    // Set up from another position than the start: not classified (pgndb's rule).
    if (g.tag("FEN").empty() || opening_board(g.tag("FEN")) == opening_board(pgn::start_fen)) {
      std::size_t ply = 0;
      for (const auto& c : g.main_comments) {
        if (!looks_like_fen(c)) continue;
        if (++ply > pgn::opening_plies) break;
        if (auto at = named.find(opening_board(c)); at != named.end()) opening = at->second;
      }
    }
    out.insert(scanned_identity(g) + "|" + opening);
  });
  run_pgn_extract("--fencomments " + quote(file), tmp / "pgn-extract.log", tmp, games);
  return out;
}

// The same by pgndb's classification (classify_opening over the replayed main line); `in_order`
// gets each replayable game's opening in file order (the database's ids).
std::multiset<std::string> openings_by_pgndb(const fs::path& file,
                                             std::vector<std::string>& in_order) {
  std::multiset<std::string> out;
  pgn::ReplayVisitor replay({.keep_record = true});
  replay_each(file, replay, [&] {
    if (replay.has_error()) return;  // pgn-extract leaves out what it cannot replay too
    const pgn::GameRecord& g = replay.record();
    pgn::Position pos = g.start;
    std::vector<pgn::Key> keys = {pgn::repetition_key(pos)};
    for (const auto& node : g.moves) {
      pos.play_or_pass(node.move);
      keys.push_back(pgn::repetition_key(pos));
    }
    auto tag = [&](const char* name) {
      const std::string* v = g.tag(name);
      return v ? *v : std::string();
    };
    const std::string opening =
        opening_name(pgn::classify_opening(keys, g.start == pgn::Position()));
    in_order.push_back(opening);
    out.insert(identity(tag("White"), tag("Black"), tag("Event"), tag("Date"), tag("Round"),
                        g.moves.size()) +
               "|" + opening);
  });
  return out;
}

// Returns how many games are Najdorfs, for the slice's test to say the filters were tried on some.
std::size_t check_openings(const fs::path& file) {
  TempDir tmp;
  const auto theirs = openings_by_pgn_extract(file, tmp);
  std::vector<std::string> in_order;
  const auto ours = openings_by_pgndb(file, in_order);
  std::vector<std::string> missing, extra;
  std::set_difference(theirs.begin(), theirs.end(), ours.begin(), ours.end(),
                      std::back_inserter(missing));
  std::set_difference(ours.begin(), ours.end(), theirs.begin(), theirs.end(),
                      std::back_inserter(extra));
  std::string listing;
  for (std::size_t i = 0; i < missing.size() && i < max_listed; ++i)
    listing += "\n  pgn-extract's boards: " + missing[i];
  for (std::size_t i = 0; i < extra.size() && i < max_listed; ++i)
    listing += "\n  pgndb: " + extra[i];
  INFO(theirs.size() << " games by pgn-extract's boards, " << ours.size() << " by pgndb"
                     << listing);
  CHECK(ours.size() == theirs.size());
  CHECK(missing.empty());
  CHECK(extra.empty());
  // Most games are named: the comparison means something.
  const auto unnamed = std::count_if(ours.begin(), ours.end(),
                                     [](const std::string& g) { return g.ends_with("|none"); });
  CHECK(std::size_t(unnamed) < ours.size() / 20);

  // The database: the file imported, each game's opening as find lists it (by id, the file's
  // order) is the library's; --opening, --opening-re and --eco select the games whose opening
  // says so.
  const fs::path db = tmp / "db";
  REQUIRE(shell(quote(pgndb_binary) + " import --db " + quote(db) + " " + quote(file) +
                " 2> /dev/null") == 0);
  std::vector<std::string> stored;
  static const std::regex listed(
      R"re("opening":(null|\{"eco":"([A-E][0-9][0-9])","name":"([^"]*)"\}))re");
  const int rc =
      stream_lines(quote(pgndb_binary) + " find --db " + quote(db) + " --format json",
                   [&](std::string_view line) {
                     std::match_results<std::string_view::const_iterator> m;
                     if (!std::regex_search(line.begin(), line.end(), m, listed)) {
                       stored.push_back("?");
                       return;
                     }
                     stored.push_back(m[1] == "null" ? "none" : m[2].str() + " " + m[3].str());
                   });
  CHECK(rc == 0);
  REQUIRE(stored.size() == in_order.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < stored.size(); ++i)
    if (stored[i] != in_order[i] && ++differing <= max_listed)
      UNSCOPED_INFO("game " << i + 1 << ": stored " << stored[i] << ", replayed " << in_order[i]);
  CHECK(differing == 0);
  auto count = [&](const std::string& filter) {
    std::string out;
    stream_lines(quote(pgndb_binary) + " find --db " + quote(db) + " --format count " + filter,
                 [&](std::string_view line) { out = line; });
    return std::stoul(out);
  };
  auto named = [&](auto&& holds) {
    return std::size_t(std::count_if(in_order.begin(), in_order.end(), holds));
  };
  const auto najdorf = named([](const std::string& o) { return o.find("Najdorf") != o.npos; });
  CHECK(count("--opening NAJDORF") == najdorf);
  // Accents: "grunfeld" finds the Grünfeld.
  CHECK(count("--opening grunfeld") ==
        named([](const std::string& o) { return o.find("Gr\u00fcnfeld") != o.npos; }));
  CHECK(count("--opening-re 'najdorf|dragon'") == named([](const std::string& o) {
          return o.find("Najdorf") != o.npos || o.find("Dragon") != o.npos;
        }));
  CHECK(count("--eco B90-B99") ==
        named([](const std::string& o) { return o >= "B90" && o < "B9:" && o != "none"; }));
  CHECK(count("--eco B90-B99 --opening najdorf") == named([](const std::string& o) {
          return o >= "B90" && o < "B9:" && o.find("Najdorf") != o.npos;
        }));
  return najdorf;
}

TEST_CASE("pgn-extract: every game's opening is the one its boards name", "[pgn-extract]") {
  CHECK(check_openings(slice().file) > 0);
}

// --- Piece letters of other languages (piece_letters.h) ---

TEST_CASE("pgn-extract: the slice written with each language's piece letters reads back as itself",
          "[pgn-extract][heavy]") {
  TempDir tmp;
  // pgn-extract's English SAN of the slice, then the same in each language's letters (-Wsan with
  // the letters of pawn, knight, bishop, rook, queen and king).
  auto moves_of = [&](const std::string& letters) {
    std::vector<ScannedGame> games;
    Scanner scanner([&](ScannedGame&& g) { games.push_back(std::move(g)); });
    run_pgn_extract("-Wsan" + letters + " " + quote(slice().file), tmp / "pgn-extract.log", tmp,
                    scanner);
    return games;
  };
  const std::vector<ScannedGame> english = moves_of("");
  REQUIRE(english.size() > 6 * slice_games);
  for (const pgn::PieceLetters& language : pgn::piece_letter_languages()) {
    if (language.language == "en") continue;
    INFO(language.name);
    std::string letters = "P";
    for (pgn::PieceType pt : {pgn::Knight, pgn::Bishop, pgn::Rook, pgn::Queen, pgn::King})
      letters += language.letter(pt);
    const std::vector<ScannedGame> local = moves_of(letters);
    REQUIRE(local.size() == english.size());
    std::size_t differing = 0, tokens = 0, written_otherwise = 0;
    for (std::size_t g = 0; g < local.size(); ++g) {
      const auto& ours = local[g].moves;
      const auto& theirs = english[g].moves;
      if (std::find(theirs.begin(), theirs.end(), "(") != theirs.end()) continue;  // variations
      REQUIRE(ours.size() == theirs.size());
      const std::string fen = local[g].tag("FEN");
      auto start = fen.empty() ? std::optional(pgn::Position()) : [&] {
        auto p = pgn::parse_fen(fen);
        return p ? std::optional(*p) : std::nullopt;
      }();
      REQUIRE(start);
      pgn::Position pos = *start;
      for (std::size_t i = 0; i < ours.size(); ++i) {
        ++tokens;
        written_otherwise += ours[i] != theirs[i];
        auto m = pgn::parse_san(pos, ours[i], language);
        if (!m || pgn::to_san(pos, *m) != theirs[i]) {
          if (++differing <= max_listed)
            UNSCOPED_INFO(local[g].title() << ": '" << ours[i] << "' is not " << theirs[i]);
          break;
        }
        pos.play_or_pass(*m);
      }
    }
    CHECK(differing == 0);
    // The languages' letters made a difference: most piece moves were written otherwise.
    CHECK(written_otherwise > tokens / 4);
  }
}

TEST_CASE(
    "pgn-extract: pgndb writes each language's letters as pgn-extract does, and reads them back",
    "[pgn-extract][heavy]") {
  TempDir tmp;
  // The English games, as normalize writes them (games with errors left out, as pgn-extract
  // leaves them out).
  const fs::path english = tmp / "en.pgn";
  REQUIRE(shell(quote(pgndb_binary) + " normalize --skip-errors " + quote(slice().file) + " -o " +
                quote(english) + " 2> /dev/null") == 0);
  const std::string english_text = read_file(english);
  REQUIRE(english_text.size() > 1000 * slice_games);
  // Under the sanitizers every fourth language: the code is the same for each.
#ifdef PGNDB_SANITIZED
  constexpr std::size_t every = 4;
#else
  constexpr std::size_t every = 1;
#endif
  std::size_t index = 0;
  for (const pgn::PieceLetters& language : pgn::piece_letter_languages()) {
    if (language.language == "en") continue;
    if (index++ % every != 0) continue;
    INFO(language.name);
    std::string letters = "P";
    for (pgn::PieceType pt : {pgn::Knight, pgn::Bishop, pgn::Rook, pgn::Queen, pgn::King})
      letters += language.letter(pt);
    std::vector<ScannedGame> theirs;
    Scanner scanner([&](ScannedGame&& g) { theirs.push_back(std::move(g)); });
    run_pgn_extract("-Wsan" + letters + " " + quote(slice().file), tmp / "pgn-extract.log", tmp,
                    scanner);
    const fs::path local = tmp / (std::string(language.language) + ".pgn");
    REQUIRE(shell(quote(pgndb_binary) + " normalize --skip-errors --output-lang " +
                  std::string(language.language) + " " + quote(slice().file) + " -o " +
                  quote(local) + " 2> /dev/null") == 0);
    const std::vector<ScannedGame> ours = scan_file(local);
    REQUIRE(ours.size() == theirs.size());
    std::size_t differing = 0, tokens = 0;
    for (std::size_t g = 0; g < ours.size(); ++g) {
      tokens += ours[g].moves.size();
      if (ours[g].moves == theirs[g].moves) continue;
      const auto& o = ours[g].moves;
      const auto& t = theirs[g].moves;
      std::size_t k = 0;
      while (k < o.size() && k < t.size() && o[k] == t[k]) ++k;
      if (++differing <= max_listed)
        UNSCOPED_INFO(ours[g].title()
                      << ", token " << k + 1 << ": pgndb " << (k < o.size() ? o[k] : "<end>")
                      << ", pgn-extract " << (k < t.size() ? t[k] : "<end>"));
    }
    CHECK(tokens > 40 * ours.size());
    CHECK(differing == 0);
    // Read back in its letters (--lang), the games are the English ones.
    const fs::path back = tmp / "back.pgn";
    REQUIRE(shell(quote(pgndb_binary) + " normalize --lang " + std::string(language.language) +
                  " " + quote(local) + " -o " + quote(back) + " 2> /dev/null") == 0);
    CHECK(read_file(back) == english_text);
  }
  // Figurines: one glyph per piece move, read back as the English games.
  const fs::path figurines = tmp / "figurines.pgn", back = tmp / "back.pgn";
  REQUIRE(shell(quote(pgndb_binary) + " normalize --skip-errors --figurine " + quote(slice().file) +
                " -o " + quote(figurines) + " 2> /dev/null") == 0);
  const std::string figurine_text = read_file(figurines);
  CHECK(figurine_text.find("\u2658f3") != std::string::npos);  // ♘f3
  CHECK(figurine_text.find("Nf3") == std::string::npos);
  REQUIRE(shell(quote(pgndb_binary) + " normalize " + quote(figurines) + " -o " + quote(back) +
                " 2> /dev/null") == 0);
  CHECK(read_file(back) == english_text);
}

TEST_CASE("pgn-extract: games in each language's letters are found and read as themselves",
          "[pgn-extract]") {
  TempDir tmp;
  // The first 800 games of the slice (150 under the sanitizers): each is read up to twelve
  // times here.
#ifdef PGNDB_SANITIZED
  constexpr std::size_t games = 150;
#else
  constexpr std::size_t games = 800;
#endif
  const fs::path part = tmp / "part.pgn";
  write_file(part, first_games(read_file(slice().file), games).first);
  // What pgndb makes of pgn-extract's English SAN of them: the reference.
  const fs::path english = tmp / "en.pgn";
  REQUIRE(shell(quote(pgn_extract) + " -s --quiet -Wsan " + quote(part) + " > " + quote(english) +
                " 2> /dev/null") == 0);
  const NormalizeRun reference = normalize({english}, tmp / "en-out.pgn", tmp / "en.err", false);
  const std::vector<ScannedGame> expected = scan_file(tmp / "en-out.pgn");
  REQUIRE(expected.size() == reference.games);
  const auto languages = pgn::piece_letter_languages();
  for (std::size_t i = 0; i < languages.size(); ++i) {
    const pgn::PieceLetters& language = languages[i];
    // English is the reference; a language with an earlier one's letters is written alike.
    if (language.language == "en" ||
        std::any_of(languages.begin(), languages.begin() + std::ptrdiff_t(i),
                    [&](const auto& e) { return e.letters == language.letters; }))
      continue;
    INFO(language.name);
    std::string letters = "P";
    for (pgn::PieceType pt : {pgn::Knight, pgn::Bishop, pgn::Rook, pgn::Queen, pgn::King})
      letters += language.letter(pt);
    const fs::path written = tmp / (std::string(language.language) + ".pgn");
    REQUIRE(shell(quote(pgn_extract) + " -s --quiet -Wsan" + letters + " " + quote(part) + " > " +
                  quote(written) + " 2> /dev/null") == 0);
    const fs::path out = tmp / (std::string(language.language) + "-out.pgn");
    const NormalizeRun run = normalize({written}, out, tmp / "local.err", false);
    // Every game read; those with a piece move not read as English say in which letters.
    CHECK(run.games == reference.games);
    CHECK(run.copied == 0);
    std::size_t found = 0, also = 0;
    for (const auto& line : split_lines(run.stderr_text)) {
      found += line.find("warning: the moves are written with the piece letters of") !=
               std::string::npos;
      also += line.find("every move reads with those of") != std::string::npos;
    }
    CHECK(found > run.games / 2);
    // The games are the English slice's, move for move; a game whose every move also reads with
    // another language's letters may differ (it is named by its warning).
    const std::vector<ScannedGame> read_back = scan_file(out);
    REQUIRE(read_back.size() == expected.size());
    std::size_t differing = 0;
    for (std::size_t g = 0; g < expected.size(); ++g)
      if (read_back[g].moves != expected[g].moves && ++differing <= max_listed)
        UNSCOPED_INFO("differs: " << expected[g].title());
    INFO(found << " games found in " << language.name << " letters, " << also
               << " also readable in another's, " << differing << " differing");
    CHECK(differing <= also);
  }
}

TEST_CASE("pgn-extract: games in Czech letters import as the English games, and verify",
          "[pgn-extract]") {
  TempDir tmp;
  const fs::path part = tmp / "part.pgn";
  write_file(part, first_games(read_file(slice().file), 300).first);
  std::string exported[2];
  const char* letters[2] = {"", "PJSVDK"};
  for (int i = 0; i < 2; ++i) {
    INFO((i ? "Czech" : "English"));
    const fs::path written = tmp / (std::to_string(i) + ".pgn"),
                   db = tmp / ("db" + std::to_string(i));
    REQUIRE(shell(quote(pgn_extract) + " -s --quiet -Wsan" + letters[i] + " " + quote(part) +
                  " > " + quote(written) + " 2> /dev/null") == 0);
    REQUIRE(shell(quote(pgndb_binary) + " import --db " + quote(db) + " " + quote(written) +
                  " 2> /dev/null") == 0);
    // The index the importer built from the games read in Czech letters is the games'.
    CHECK(shell(quote(pgndb_binary) + " verify --quiet --db " + quote(db)) == 0);
    const fs::path out = tmp / ("export" + std::to_string(i) + ".pgn");
    REQUIRE(shell(quote(pgndb_binary) + " export --db " + quote(db) + " -o " + quote(out)) == 0);
    exported[i] = read_file(out);
  }
  CHECK(!exported[0].empty());
  CHECK(exported[1] == exported[0]);
}

TEST_CASE("pgn-extract full corpus: checkmate, stalemate, repetitions and fifty moves",
          "[pgn-extract][.full]") {
  for (const auto& file : corpus_files()) {
    INFO(file);
    (void)check_endings(file);
  }
}

TEST_CASE("pgn-extract full corpus: every game's opening is the one its boards name",
          "[pgn-extract][.full]") {
  for (const auto& file : corpus_files()) {
    INFO(file);
    (void)check_openings(file);
  }
}

TEST_CASE("pgn-extract full corpus: final positions agree", "[pgn-extract][.full]") {
  check_final_positions(corpus_files());
}

TEST_CASE("pgn-extract full corpus: reads pgndb normalize output", "[pgn-extract][.full]") {
  check_pgn_extract_reads_normalized(corpus_files());
}

// --- Material search (pgn-extract -y and -z) ---

// A material spec as pgndb reads it and the line of a pgn-extract material file that means the
// same (an ending's name, `KRPvKR`, is pgndb's alone: pgn-extract writes it `rp r`).
struct MaterialCase {
  const char* ours;
  const char* theirs;
};
const MaterialCase material_cases[] = {
    {"KRPvKR", "rp r"},
    {"KRvKR", "r r"},
    {"KQvKQ", "q q"},
    {"KRRvKRR", "r2 r2"},
    {"KBvKN", "b n"},
    {"KRPPvKR", "rp2 r"},
    {"KPvK", "p k"},
    {"KBNvK", "bn k"},
    {"rp nb", "rp nb"},
    {"r2p* r=p1>=", "r2p* r=p1>="},
    {"q*r+n*b*p+ q=r<n>b>p1<", "q*r+n*b*p+ q=r<n>b>p1<"},
    {"q*r+n*b*p+ q=r1<=n1>=b1>=p1<", "q*r+n*b*p+ q=r1<=n1>=b1>=p1<"},
    {"q*r+l*p+ q=r1<=l2>=p1<", "q*r+l*p+ q=r1<=l2>=p1<"},
    {"q*r*b2n0p* q=r=b0n2p=", "q*r*b2n0p* q=r=b0n2p="},
    {"10 R2P+ R=P*", "10 R2P+ R=P*"},
    {"QR2B2N2P8 QR2B2N2P8", "QR2B2N2P8 QR2B2N2P8"},
    {"r+p* r=p#", "r+p* r=p#"},
    {"q r2", "q r2"},
    {"qp* r2p*", "qp* r2p*"},
    {"b+p+ n+p+", "b+p+ n+p+"},
    {"p*", "p*"},
    {"q*r*b*n*p3- q=r=b=n=p3-", "q*r*b*n*p3- q=r=b=n=p3-"},
    {"l2p* l2p*", "l2p* l2p*"},
    {"q?r*b*n*p* q#r*b*n*p*", "q?r*b*n*p* q#r*b*n*p*"},
    {"r2-p* r=p2>", "r2-p* r=p2>"},
    {"qr2b2n2p8 qr2b2n2p7", "qr2b2n2p8 qr2b2n2p7"},
    {"r*b*n*p* r*b*n*p*", "r*b*n*p* r*b*n*p*"},
    {"4 qr*b*n*p* r*b*n*p*", "4 qr*b*n*p* r*b*n*p*"},
    {"1 n2 b", "1 n2 b"},
    {"6 q*r*b+n*p* q=r=b=n=p2>=", "6 q*r*b+n*p* q=r=b=n=p2>="},
};

struct MaterialGame {
  std::string id;
  pgn::MaterialHistory history;
  // The material as pgn-extract v19-04 counts it: it credits a promotion to the side that did
  // not make it (the promoted piece gained and the pawn lost by the opponent), so after a
  // promotion its counts differ from the board's. Nothing when its counts went below zero.
  std::optional<pgn::MaterialHistory> as_pgn_extract_counts;
  bool from_fen = false;
  bool promoted = false;
};

std::vector<MaterialGame> material_histories(const fs::path& file) {
  std::vector<MaterialGame> games;
  pgn::ReplayVisitor replay({.keep_record = true});
  replay_each(file, replay, [&] {
    if (replay.has_error()) return;  // pgn-extract leaves out what it cannot replay too
    const pgn::GameRecord& g = replay.record();
    pgn::MaterialTracker tracker;
    pgn::Position position = g.start;
    tracker.start(position);
    // pgn-extract's counts: the board's plus what its promotions moved to the wrong side.
    pgn::MaterialHistory theirs;
    theirs.runs.push_back({0, tracker.history().runs.front().balance});
    std::array<std::array<int, 5>, 2> shift{};
    bool negative = false, promoted = false;
    for (const auto& node : g.moves) {
      const pgn::Color mover = position.side_to_move();
      if (node.move.kind() == pgn::Move::Promotion) {
        promoted = true;
        const int piece = node.move.promotion() - pgn::Pawn;
        shift[mover][piece] -= 1, shift[mover][0] += 1;
        shift[~mover][piece] += 1, shift[~mover][0] -= 1;
      }
      position.play_or_pass(node.move);
      tracker.played(position);
      pgn::MaterialBalance counted = pgn::MaterialBalance::of(position);
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < 5; ++t) {
          const int n = counted.count[c][t] + shift[c][t];
          negative |= n < 0;
          counted.count[c][t] = std::uint8_t(n);
        }
      ++theirs.plies;
      if (!(counted == theirs.runs.back().balance)) theirs.runs.push_back({theirs.plies, counted});
    }
    auto tag = [&](const char* name) {
      const std::string* v = g.tag(name);
      return v ? *v : std::string();
    };
    games.push_back({identity(tag("White"), tag("Black"), tag("Event"), tag("Date"), tag("Round"),
                              g.moves.size()),
                     tracker.take(), negative ? std::nullopt : std::optional(std::move(theirs)),
                     g.tag("FEN") != nullptr, promoted});
  });
  return games;
}

// For each case, both ways (-y, and -z with either colour): the games pgn-extract selects equal
// those first_material_match finds, but for two of pgn-extract's own miscounts, each checked
// rather than waived: games set up from a FEN, which pgn-extract v19-04 counts from the standard
// starting material whatever the FEN (compared only where the FEN's material is the standard
// one), and games with a promotion, which it credits to the wrong side (MaterialGame): for those,
// first_material_match on pgn-extract's counts must give exactly its selection, and the games
// where the board's counts give another answer are listed as explained. Returns how many games
// pgn-extract selected in all, and how many answers the promotions changed.
//
// Then the database: the file imported, `pgndb find --material` (--either-colour for -z) must
// select exactly the games first_material_match selects on the board's counts, game by game.
std::pair<std::size_t, std::size_t> check_material(const fs::path& file) {
  const auto games = material_histories(file);
  TempDir tmp;
  const fs::path db = tmp / "db";
  REQUIRE(shell(quote(pgndb_binary) + " import --db " + quote(db) + " " + quote(file) +
                " 2> /dev/null") == 0);
  std::size_t selected = 0, promotion_changed = 0;
  for (const auto& c : material_cases) {
    INFO("material " << c.ours << " (pgn-extract: " << c.theirs << ")");
    const auto spec = pgn::MaterialSpec::parse(c.ours);
    REQUIRE(spec.has_value());
    write_file(tmp / "material.txt", std::string(c.theirs) + "\n");
    for (const bool either : {false, true}) {
      INFO((either ? "-z" : "-y"));
      std::multiset<std::string> theirs, ours, fen_games, library;
      Scanner scanner([&](ScannedGame&& g) { theirs.insert(scanned_identity(g)); });
      run_pgn_extract(
          std::string(either ? "-z" : "-y") + quote(tmp / "material.txt") + " " + quote(file),
          tmp / "pgn-extract.log", tmp, scanner);
      for (const auto& g : games) {
        const bool standard_start = g.history.runs.front().balance == pgn::MaterialBalance::start();
        if (pgn::first_material_match(g.history, *spec, spec->stability().value_or(2), either))
          library.insert(g.id);
        if (g.from_fen && !standard_start) {
          fen_games.insert(g.id);
          continue;
        }
        const unsigned stable = spec->stability().value_or(2);
        const bool on_board =
            pgn::first_material_match(g.history, *spec, stable, either).has_value();
        // pgn-extract's answer must be the one its own counts give; a game whose counts went
        // below zero (a promoted piece taken) is left out both ways.
        if (!g.as_pgn_extract_counts) {
          theirs.erase(g.id);
          continue;
        }
        const bool counted =
            pgn::first_material_match(*g.as_pgn_extract_counts, *spec, stable, either).has_value();
        if (counted) ours.insert(g.id);
        promotion_changed += counted != on_board;
      }
      for (const auto& id : fen_games) theirs.erase(id);
      std::vector<std::string> missing, extra;
      std::set_difference(theirs.begin(), theirs.end(), ours.begin(), ours.end(),
                          std::back_inserter(missing));
      std::set_difference(ours.begin(), ours.end(), theirs.begin(), theirs.end(),
                          std::back_inserter(extra));
      INFO("pgn-extract " << theirs.size() << ", pgndb " << ours.size());
      for (std::size_t i = 0; i < missing.size() && i < max_listed; ++i)
        UNSCOPED_INFO("pgn-extract's, not pgndb's: " << missing[i]);
      for (std::size_t i = 0; i < extra.size() && i < max_listed; ++i)
        UNSCOPED_INFO("pgndb's, not pgn-extract's: " << extra[i]);
      CHECK((missing.empty() && extra.empty()));
      selected += theirs.size();
      // The database's selection: the library's, exactly.
      std::multiset<std::string> stored;
      Scanner stored_scanner([&](ScannedGame&& g) { stored.insert(scanned_identity(g)); });
      const int rc = stream_lines(quote(pgndb_binary) + " find --db " + quote(db) +
                                      " --format pgn --material " + quote(std::string(c.ours)) +
                                      (either ? " --either-colour" : ""),
                                  [&](std::string_view line) { stored_scanner.line(line); });
      stored_scanner.finish();
      CHECK(rc == 0);
      INFO("pgndb find: " << stored.size()
                          << ", the library on the board's counts: " << library.size());
      CHECK(stored == library);
    }
  }
  return {selected, promotion_changed};
}

TEST_CASE("pgn-extract: material searches select the same games as -y and -z",
          "[pgn-extract][heavy]") {
  const auto [selected, promotion_changed] = check_material(slice().file);
  // Selections that hold games, and promotions that pgn-extract's counts make a difference on.
  CHECK(selected > slice_games);
  CHECK(promotion_changed > 0);
}

TEST_CASE("pgn-extract full corpus: material searches select the same games",
          "[pgn-extract][.full]") {
  for (const auto& file : corpus_files()) {
    INFO(file);
    (void)check_material(file);
  }
}
