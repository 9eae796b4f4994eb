// `pgndb find` and `export` on a corpus slice, each filter checked against a count made without
// pgndb's index or query code: positions by pgn-extract (an independent rules engine: its FEN
// comment after every move), the rest by reading the tags of the source text with a regular
// expression. Bad filter values are one-line errors with exit code 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support.h"

namespace fs = std::filesystem;
using pgndb::test::run_command;
using pgndb::test::TempDir;

namespace {

const fs::path corpus = fs::path(PGNDB_SHARED_DATA) / "corpus";
const char* const slice[] = {"Kasparov.pgn", "Tal.pgn"};

// The source games' tags, read from the text: each game opens with its [Event tag.
std::vector<std::map<std::string, std::string>> source_tags() {
  static const std::regex tag_line(R"re(^\[(\w+)\s+"(.*)"\]\s*$)re");
  std::vector<std::map<std::string, std::string>> games;
  for (const char* file : slice) {
    std::istringstream in(pgndb::test::read_file(corpus / file));
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.rfind("[Event ", 0) == 0) games.emplace_back();
      if (!games.empty() && std::regex_match(line, m, tag_line))
        games.back().emplace(m[1].str(), m[2].str());
    }
  }
  return games;
}

// The test's own reading of the name rule (docs/query.md): lower case, letters and digits
// only, then a substring. The corpus names here are ASCII.
std::string squash(const std::string& s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(std::uint8_t(c))) out += char(std::tolower(std::uint8_t(c)));
  return out;
}

struct Slice {
  TempDir tmp;
  fs::path db = tmp / "db";
  std::vector<std::map<std::string, std::string>> games = source_tags();
  Slice() {
    std::string files;
    for (const char* f : slice) files += " '" + (corpus / f).string() + "'";
    auto r = run_command(std::string(PGNDB_BINARY) + " import --db '" + db.string() + "'" + files +
                         " 2>&1");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
  }
  std::string find(const std::string& args) const {
    auto r = run_command(std::string(PGNDB_BINARY) + " find --db '" + db.string() + "' " + args +
                         " 2>&1");
    INFO("find " << args << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
    return r.out;
  }
  long count(const std::string& args) const { return std::stol(find(args + " --format count")); }
  long expected(const std::function<bool(std::map<std::string, std::string>&)>& keep) {
    return std::count_if(games.begin(), games.end(), keep);
  }
};

Slice& the_slice() {
  static Slice s;
  return s;
}

std::string tag(std::map<std::string, std::string>& g, const std::string& name) {
  auto it = g.find(name);
  return it == g.end() ? std::string() : it->second;
}

// pgn-extract's FEN (placement, side to move, castling) after every main-line move of each
// game of the slice, in file order. pgn-extract wraps its lines, comments included: each
// game's text is joined before its comments are read.
const std::regex fen_comment(R"(\{ ([^ ]+ [wb] [^ ]+) [^}]*\})");
std::vector<std::string> fens_in(const std::string& text) {
  std::vector<std::string> out;
  for (std::sregex_iterator m(text.begin(), text.end(), fen_comment), end; m != end; ++m)
    out.push_back((*m)[1].str());
  return out;
}
std::vector<std::vector<std::string>> pgn_extract_boards() {
  std::string files;
  for (const char* f : slice) files += " '" + (corpus / f).string() + "'";
  auto r = run_command("/usr/games/pgn-extract -s -C -N -V --fencomments" + files + " 2>/dev/null");
  REQUIRE(r.exit_code == 0);
  std::vector<std::vector<std::string>> boards;
  std::istringstream in(r.out);
  std::string line, game;
  bool in_moves = false;
  while (std::getline(in, line)) {
    if (line.rfind("[Event ", 0) == 0 && in_moves) {
      boards.push_back(fens_in(game));
      game.clear();
      in_moves = false;
    }
    if (!line.empty() && line[0] != '[') in_moves = true;
    game += line + ' ';
  }
  boards.push_back(fens_in(game));
  return boards;
}
// pgn-extract's board after `moves` from the start.
std::string board_after(const fs::path& dir, const std::string& moves) {
  pgndb::test::write_file(dir / "line.pgn", "[Event \"x\"]\n\n" + moves + " *\n");
  auto r = run_command("/usr/games/pgn-extract -s --fencomments '" + (dir / "line.pgn").string() +
                       "' 2>/dev/null");
  std::string joined = r.out;
  std::replace(joined.begin(), joined.end(), '\n', ' ');
  const auto all = fens_in(joined);
  REQUIRE_FALSE(all.empty());
  return all.back();
}

}  // namespace

TEST_CASE("find counts match the source's tags, filter by filter") {
  Slice& s = the_slice();
  REQUIRE(s.games.size() > 4000);
  CHECK(s.count("") == long(s.games.size()));
  for (const char* name : {"kasparov", "Tal, Mikhail", "Karpov,A", "petrosian t."}) {
    INFO(name);
    const std::string key = squash(name);
    CHECK(s.count("--player '" + std::string(name) + "'") == s.expected([&](auto& g) {
      return squash(tag(g, "White")).find(key) != std::string::npos ||
             squash(tag(g, "Black")).find(key) != std::string::npos;
    }));
    CHECK(s.count("--white '" + std::string(name) + "'") == s.expected([&](auto& g) {
      return squash(tag(g, "White")).find(key) != std::string::npos;
    }));
    CHECK(s.count("--black '" + std::string(name) + "'") == s.expected([&](auto& g) {
      return squash(tag(g, "Black")).find(key) != std::string::npos;
    }));
  }
  for (const char* result : {"1-0", "0-1", "1/2-1/2"})
    CHECK(s.count(std::string("--result ") + result) ==
          s.expected([&](auto& g) { return tag(g, "Result") == result; }));
  CHECK(s.count("--eco B90-B99") == s.expected([&](auto& g) {
    const std::string eco = tag(g, "ECO");
    return eco.size() == 3 && eco >= "B90" && eco <= "B99";
  }));
  CHECK(s.count("--eco E97") == s.expected([&](auto& g) { return tag(g, "ECO") == "E97"; }));
  CHECK(s.count("--date 1985..1990") == s.expected([&](auto& g) {
    const std::string year = tag(g, "Date").substr(0, 4);
    return year.find('?') == std::string::npos && year >= "1985" && year <= "1990";
  }));
  CHECK(s.count("--date 1960") ==
        s.expected([&](auto& g) { return tag(g, "Date").rfind("1960", 0) == 0; }));
  CHECK(s.count("--event olympiad") == s.expected([&](auto& g) {
    return squash(tag(g, "Event")).find("olympiad") != std::string::npos;
  }));
  auto rating = [](const std::string& text) { return text.empty() ? -1 : std::atoi(text.c_str()); };
  CHECK(s.count("--min-elo 2700") == s.expected([&](auto& g) {
    return rating(tag(g, "WhiteElo")) >= 2700 && rating(tag(g, "BlackElo")) >= 2700;
  }));
  CHECK(s.count("--min-elo 2500 --max-elo 2600") == s.expected([&](auto& g) {
    const int w = rating(tag(g, "WhiteElo")), b = rating(tag(g, "BlackElo"));
    return w >= 2500 && w <= 2600 && b >= 2500 && b <= 2600;
  }));
  // Filters combine with AND.
  CHECK(s.count("--white kasparov --result 1-0 --date 1980..1989") == s.expected([&](auto& g) {
    const std::string year = tag(g, "Date").substr(0, 4);
    return squash(tag(g, "White")).find("kasparov") != std::string::npos &&
           tag(g, "Result") == "1-0" && year >= "1980" && year <= "1989" &&
           year.find('?') == std::string::npos;
  }));
  // --limit and --offset cut the list, not the count of what passes.
  const std::string listed =
      s.find("--player kasparov --result 0-1 --format json --offset 3 --limit 5");
  CHECK(std::count(listed.begin(), listed.end(), '\n') == 5);
}

TEST_CASE("find by position counts the games pgn-extract's boards pass through") {
  Slice& s = the_slice();
  const auto boards = pgn_extract_boards();
  REQUIRE(boards.size() == s.games.size());
  for (const char* moves : {
           "1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6",  // Najdorf
           "1.e4 e5 2.Nf3 Nc6 3.Bb5",                         // Ruy Lopez
           "1.d4 Nf6 2.c4 g6 3.Nc3 Bg7",                  // King's Indian, reached by 1.c4 g6 too
           "1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.b4 Bxb4 5.c3",  // Evans Gambit accepted: rarer
       }) {
    INFO(moves);
    const std::string board = board_after(s.tmp.path(), moves);
    const long expected = std::count_if(boards.begin(), boards.end(), [&](const auto& game) {
      return std::find(game.begin(), game.end(), board) != game.end();
    });
    CHECK(expected > 0);
    CHECK(s.count("--moves '" + std::string(moves) + "'") == expected);
    CHECK(s.count("--fen '" + board + " - 0 1'") == expected);
  }
}

TEST_CASE("a bad filter value is a one-line error and exit code 2") {
  Slice& s = the_slice();
  for (const char* args :
       {"--fen 'not a fen'", "--moves '1.e4 e5 2.Ke3'", "--eco B99-B90", "--eco Z12",
        "--date 1995..1985", "--date 19x5", "--min-elo 2700 --max-elo 2600",
        "--min-plies 80 --max-plies 40", "--result 2-0", "--format xml", "--player ' , . '",
        "--fen '8/8/8/8/8/8/8/8 w - - 0 1' --moves e4"}) {
    INFO(args);
    auto r = run_command(std::string(PGNDB_BINARY) + " find --db '" + s.db.string() + "' " + args +
                         " 2>&1");
    CHECK(r.exit_code == 2);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
    CHECK(r.out.rfind("pgndb find: ", 0) == 0);
  }
}

TEST_CASE("export of everything gives back the normalize of the sources, game for game") {
  Slice& s = the_slice();
  std::string files;
  for (const char* f : slice) files += " '" + (corpus / f).string() + "'";
  auto normalized = run_command(std::string(PGNDB_BINARY) + " normalize" + files + " 2>/dev/null");
  REQUIRE(normalized.exit_code == 0);
  const fs::path plain = s.tmp / "all.pgn", compressed = s.tmp / "all.pgn.zst";
  for (const fs::path& out : {plain, compressed}) {
    auto r = run_command(std::string(PGNDB_BINARY) + " export --db '" + s.db.string() + "' -o '" +
                         out.string() + "' 2>&1");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
  }
  // Game for game: split both at their [Event lines.
  auto games_of = [](const std::string& text) {
    std::vector<std::string> games;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("[Event ", 0) == 0) games.emplace_back();
      if (!games.empty() && !line.empty()) games.back() += line + '\n';
    }
    return games;
  };
  const auto expected = games_of(normalized.out);
  const auto exported = games_of(pgndb::test::read_file(plain));
  REQUIRE(expected.size() == s.games.size());
  REQUIRE(exported.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("game " << i + 1);
    if (exported[i] != expected[i]) {
      CHECK(exported[i] == expected[i]);
      break;
    }
  }
  // The .zst file holds the same bytes (zstd, an independent decoder, reads it).
  auto decompressed = run_command("zstd -dc '" + compressed.string() + "'");
  REQUIRE(decompressed.exit_code == 0);
  CHECK(decompressed.out == pgndb::test::read_file(plain));
  // With filters, export writes what find selects.
  auto selected = run_command(std::string(PGNDB_BINARY) + " export --db '" + s.db.string() +
                              "' --player kasparov --result 0-1 --date 1990..1999");
  REQUIRE(selected.exit_code == 0);
  CHECK(selected.out == s.find("--player kasparov --result 0-1 --date 1990..1999 --format pgn"));
  CHECK(games_of(selected.out).size() ==
        std::size_t(s.count("--player kasparov --result 0-1 --date 1990..1999")));
}

TEST_CASE("each row of the opening tree summarises the games pgn-extract says play that move") {
  Slice& s = the_slice();
  const auto boards = pgn_extract_boards();
  REQUIRE(boards.size() == s.games.size());
  for (const std::string moves : {"1.e4 c5", "1.d4 Nf6 2.c4 e6"}) {
    INFO(moves);
    const std::string root = board_after(s.tmp.path(), moves);
    // Per board after the move: games, and white wins / draws / black wins from the tags.
    std::map<std::string, std::array<long, 4>> expected;
    for (std::size_t g = 0; g < boards.size(); ++g) {
      const auto at = std::find(boards[g].begin(), boards[g].end(), root);
      if (at == boards[g].end() || at + 1 == boards[g].end()) continue;
      auto& row = expected[*(at + 1)];
      ++row[0];
      const std::string result = tag(s.games[g], "Result");
      row[1] += result == "1-0";
      row[2] += result == "1/2-1/2";
      row[3] += result == "0-1";
    }
    REQUIRE(expected.size() > 2);
    auto r = run_command(std::string(PGNDB_BINARY) + " tree --db '" + s.db.string() +
                         "' --json --moves '" + moves + "'");
    REQUIRE(r.exit_code == 0);
    static const std::regex row_json(
        R"re(\{"move": "([^"]+)", "games": (\d+), "white_wins": (\d+), "draws": (\d+), "black_wins": (\d+))re");
    std::size_t rows = 0;
    long previous = std::numeric_limits<long>::max();
    for (std::sregex_iterator m(r.out.begin(), r.out.end(), row_json), end; m != end; ++m, ++rows) {
      const std::string san = (*m)[1].str();
      INFO(san);
      const std::array<long, 4> got = {std::stol((*m)[2].str()), std::stol((*m)[3].str()),
                                       std::stol((*m)[4].str()), std::stol((*m)[5].str())};
      CHECK(got[0] <= previous);  // most played first
      previous = got[0];
      const std::string after = board_after(s.tmp.path(), moves + " " + san);
      REQUIRE(expected.count(after));
      CHECK(got == expected[after]);
    }
    CHECK(rows == expected.size());
  }
}
