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
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "pgn/san.h"
#include "serve_process.h"
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

// A rating tag's value, or `none` unless it is all digits ("2690:2222" is not a rating).
int strict_rating(const std::string& text, int none) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return none;
  return std::atoi(text.c_str());
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
  for (const std::string& game : pgndb::test::joined_games(r.out)) boards.push_back(fens_in(game));
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
  CHECK(s.count("--eco-tag B90-B99") == s.expected([&](auto& g) {
    const std::string eco = tag(g, "ECO");
    return eco.size() == 3 && eco >= "B90" && eco <= "B99";
  }));
  CHECK(s.count("--eco-tag E97") == s.expected([&](auto& g) { return tag(g, "ECO") == "E97"; }));
  CHECK(s.count("--date 1985..1990") == s.expected([&](auto& g) {
    const std::string year = tag(g, "Date").substr(0, 4);
    return year.find('?') == std::string::npos && year >= "1985" && year <= "1990";
  }));
  CHECK(s.count("--date 1960") ==
        s.expected([&](auto& g) { return tag(g, "Date").rfind("1960", 0) == 0; }));
  CHECK(s.count("--event olympiad") == s.expected([&](auto& g) {
    return squash(tag(g, "Event")).find("olympiad") != std::string::npos;
  }));
  CHECK(s.count("--site moscow") == s.expected([&](auto& g) {
    return squash(tag(g, "Site")).find("moscow") != std::string::npos;
  }));
  // With a name, result and dates are checked on the games' summaries instead of their index
  // ranges: the same counts.
  CHECK(s.count("--player tal --date 1960") == s.expected([&](auto& g) {
    return (squash(tag(g, "White")) + " " + squash(tag(g, "Black"))).find("tal") !=
               std::string::npos &&
           tag(g, "Date").rfind("1960", 0) == 0;
  }));
  CHECK(s.count("--player kasparov --result 1/2-1/2 --date ..1990") == s.expected([&](auto& g) {
    const std::string year = tag(g, "Date").substr(0, 4);
    return (squash(tag(g, "White")) + " " + squash(tag(g, "Black"))).find("kasparov") !=
               std::string::npos &&
           tag(g, "Result") == "1/2-1/2" && year.find('?') == std::string::npos && year <= "1990";
  }));
  auto rating = [](const std::string& text) { return strict_rating(text, -1); };
  CHECK(s.count("--min-elo 2700") == s.expected([&](auto& g) {
    return rating(tag(g, "WhiteElo")) >= 2700 && rating(tag(g, "BlackElo")) >= 2700;
  }));
  CHECK(s.count("--min-elo 2500 --max-elo 2600") == s.expected([&](auto& g) {
    const int w = rating(tag(g, "WhiteElo")), b = rating(tag(g, "BlackElo"));
    return w >= 2500 && w <= 2600 && b >= 2500 && b <= 2600;
  }));
  // Regular expressions over the names: the rule of docs/query.md (normalised: lower case, `, `
  // after a comma) read here as a case-insensitive pattern that allows both spacings.
  const std::regex two_players("^(tal|kasparov), ?[mg]", std::regex::icase);
  auto named = [&](auto& g, const char* colour) {
    return std::regex_search(tag(g, colour), two_players);
  };
  CHECK(s.count("--player-re '^(tal|kasparov), ?[mg]'") ==
        s.expected([&](auto& g) { return named(g, "White") || named(g, "Black"); }));
  CHECK(s.count("--white-re '^(tal|kasparov), ?[mg]'") ==
        s.expected([&](auto& g) { return named(g, "White"); }));
  CHECK(s.count("--black-re '^(TAL|Kasparov), ?[mg]'") ==
        s.expected([&](auto& g) { return named(g, "Black"); }));
  // A player's wins and losses, in either colour.
  for (const char* name : {"kasparov", "tal, m"}) {
    INFO(name);
    const std::string key = squash(name);
    auto plays = [&](auto& g, const char* colour) {
      return squash(tag(g, colour)).find(key) != std::string::npos;
    };
    CHECK(s.count("--winner '" + std::string(name) + "'") == s.expected([&](auto& g) {
      return (plays(g, "White") && tag(g, "Result") == "1-0") ||
             (plays(g, "Black") && tag(g, "Result") == "0-1");
    }));
    CHECK(s.count("--loser '" + std::string(name) + "'") == s.expected([&](auto& g) {
      return (plays(g, "White") && tag(g, "Result") == "0-1") ||
             (plays(g, "Black") && tag(g, "Result") == "1-0");
    }));
  }
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

TEST_CASE("plies filters count the moves pgn-extract plays") {
  Slice& s = the_slice();
  const auto boards = pgn_extract_boards();  // one board after each move
  REQUIRE(boards.size() == s.games.size());
  auto games_with = [&](std::size_t low, std::size_t high) {
    return long(std::count_if(boards.begin(), boards.end(), [&](const auto& game) {
      return game.size() >= low && game.size() <= high;
    }));
  };
  CHECK(s.count("--min-plies 120") == games_with(120, 100000));
  CHECK(s.count("--max-plies 30") == games_with(0, 30));
  CHECK(s.count("--min-plies 40 --max-plies 41") == games_with(40, 41));
  // With a position, plies are checked on the summaries: the same rule.
  const std::string najdorf =
      board_after(s.tmp.path(), "1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6");
  const long expected_najdorf =
      long(std::count_if(boards.begin(), boards.end(), [&](const auto& g) {
        return g.size() >= 100 && std::find(g.begin(), g.end(), najdorf) != g.end();
      }));
  CHECK(s.count("--moves '1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6' --min-plies 100") ==
        expected_najdorf);
}

TEST_CASE("a bad filter value is a one-line error and exit code 2") {
  Slice& s = the_slice();
  for (const char* args :
       {"--fen 'not a fen'", "--moves '1.e4 e5 2.Ke3'", "--eco B99-B90", "--eco Z12",
        "--date 1995..1985", "--date 19x5", "--min-elo 2700 --max-elo 2600",
        "--min-plies 80 --max-plies 40", "--result 2-0", "--format xml", "--player ' , . '",
        "--fen '8/8/8/8/8/8/8/8 w - - 0 1' --moves e4", "--player-re '(kasparov'", "--sort age",
        "--winner ' '", "--in-variations --player kasparov"}) {
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
  auto rating = [](const std::string& text) { return strict_rating(text, 0); };
  struct Case {
    std::string moves, filters;
    std::function<bool(std::map<std::string, std::string>&)> keep;
  };
  const Case cases[] = {
      {"1.e4 c5", "", nullptr},
      {"1.d4 Nf6 2.c4 e6", "", nullptr},
      // Reached by 1.c4 g6 too: the tree counts transpositions.
      {"1.d4 Nf6 2.c4 g6 3.Nc3 Bg7", "", nullptr},
      // Past the 16 moves a summary keeps: the games themselves are read.
      {"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 9.h3", "",
       nullptr},
      // With filters: only the games that pass count.
      {"1.e4 c5", "--min-elo 2600",
       [&](auto& g) {
         return rating(tag(g, "WhiteElo")) >= 2600 && rating(tag(g, "BlackElo")) >= 2600;
       }},
      {"1.d4 Nf6 2.c4 e6", "--player kasparov",
       [&](auto& g) {
         return squash(tag(g, "White") + " " + tag(g, "Black")).find("kasparov") !=
                std::string::npos;
       }},
  };
  for (const Case& c : cases) {
    INFO(c.moves << " " << c.filters);
    const std::string root = board_after(s.tmp.path(), c.moves);
    const bool white_moves = root.find(" w ") != std::string::npos;
    // Per board after the move: games, white wins, draws, black wins from the tags; the sum
    // and count of the mover's ratings; the last year.
    struct Expected {
      std::array<long, 4> results{};
      long elo_sum = 0, rated = 0, last_year = 0;
      // Over the games with both ratings and a result: the opponents' ratings, and the mover's
      // wins minus losses (docs/query.md: performance = their average + 400 x that / games).
      long opponent_sum = 0, both_rated = 0, wins_minus_losses = 0;
    };
    std::map<std::string, Expected> expected;
    for (std::size_t g = 0; g < boards.size(); ++g) {
      if (c.keep && !c.keep(s.games[g])) continue;
      const auto at = std::find(boards[g].begin(), boards[g].end(), root);
      if (at == boards[g].end() || at + 1 == boards[g].end()) continue;
      auto& row = expected[*(at + 1)];
      ++row.results[0];
      const std::string result = tag(s.games[g], "Result");
      row.results[1] += result == "1-0";
      row.results[2] += result == "1/2-1/2";
      row.results[3] += result == "0-1";
      if (const int elo = rating(tag(s.games[g], white_moves ? "WhiteElo" : "BlackElo"))) {
        row.elo_sum += elo;
        ++row.rated;
      }
      const std::string year = tag(s.games[g], "Date").substr(0, 4);
      if (year.size() == 4 && year.find('?') == std::string::npos)
        row.last_year = std::max<long>(row.last_year, std::stol(year));
      const int mover = rating(tag(s.games[g], white_moves ? "WhiteElo" : "BlackElo"));
      const int opponent = rating(tag(s.games[g], white_moves ? "BlackElo" : "WhiteElo"));
      if (mover && opponent && result != "*") {
        ++row.both_rated;
        row.opponent_sum += opponent;
        const int white_score = result == "1-0" ? 1 : result == "0-1" ? -1 : 0;
        row.wins_minus_losses += white_moves ? white_score : -white_score;
      }
    }
    REQUIRE(expected.size() >= 2);
    auto r = run_command(std::string(PGNDB_BINARY) + " tree --db '" + s.db.string() +
                         "' --json --moves '" + c.moves + "' " + c.filters);
    REQUIRE(r.exit_code == 0);
    std::size_t rows = 0;
    long previous = std::numeric_limits<long>::max();
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line); ++rows) {
      const auto row = nlohmann::json::parse(line);
      REQUIRE(row["san"].is_string());  // no game ends in these positions
      const std::string san = row["san"];
      INFO(san);
      const std::array<long, 4> got = {row["games"], row["white_wins"], row["draws"],
                                       row["black_wins"]};
      CHECK(got[0] <= previous);  // most played first
      previous = got[0];
      const std::string after = board_after(s.tmp.path(), c.moves + " " + san);
      REQUIRE(expected.count(after));
      const Expected& e = expected[after];
      CHECK(got == e.results);
      CHECK(row["average_elo"] == (e.rated ? e.elo_sum / e.rated : 0));
      const long performance = e.both_rated
                                   ? std::max(0L, e.opponent_sum / e.both_rated +
                                                      400 * e.wins_minus_losses / e.both_rated)
                                   : 0;
      CHECK(row["performance"] == performance);
      CHECK(row["last_year"] == e.last_year);
    }
    CHECK(rows == expected.size());
  }
}

TEST_CASE(
    "the explorer at /masters gives the moves, results and best games pgn-extract's boards give") {
  Slice& s = the_slice();
  const auto boards = pgn_extract_boards();
  REQUIRE(boards.size() == s.games.size());
  const pgndb::test::ServeProcess server(s.db.string());
  auto rating = [](const std::string& text) { return strict_rating(text, 0); };
  auto year_between = [](std::map<std::string, std::string>& g, long first, long last) {
    const std::string year = tag(g, "Date").substr(0, 4);
    if (year.size() != 4 || year.find_first_not_of("0123456789") != std::string::npos) return false;
    return std::stol(year) >= first && std::stol(year) <= last;
  };
  struct Case {
    std::string moves, query;
    std::function<bool(std::map<std::string, std::string>&)> keep;
  };
  // The FEN of pgn-extract's board after 1.d4 Nf6 (no en passant square after a knight move).
  std::string after_d4_nf6 = board_after(s.tmp.path(), "1.d4 Nf6") + " - 0 2";
  std::replace(after_d4_nf6.begin(), after_d4_nf6.end(), ' ', '+');
  const Case cases[] = {
      {"1.e4 c5", "play=e2e4,c7c5", nullptr},
      {"1.d4 Nf6 2.c4 e6", "fen=" + after_d4_nf6 + "&play=c2c4,e7e6", nullptr},
      {"1.e4 c5", "play=e2e4%2Cc7c5&since=1990&until=1999",
       [&](auto& g) { return year_between(g, 1990, 1999); }},
  };
  for (const Case& c : cases) {
    INFO(c.moves << ": /masters?" << c.query);
    const std::string root = board_after(s.tmp.path(), c.moves);
    const bool white_moves = root.find(" w ") != std::string::npos;
    struct Expected {
      std::array<long, 3> results{};
      long elo_sum = 0, rated = 0;
      std::vector<std::size_t> games;  // indexes into s.games
    };
    std::map<std::string, Expected> expected;
    std::array<long, 3> totals{};
    std::vector<std::pair<long, std::size_t>> by_rating;  // (-average, index): the best first
    for (std::size_t g = 0; g < boards.size(); ++g) {
      if (c.keep && !c.keep(s.games[g])) continue;
      const auto at = std::find(boards[g].begin(), boards[g].end(), root);
      if (at == boards[g].end()) continue;
      const std::string result = tag(s.games[g], "Result");
      const std::array<long, 3> score = {result == "1-0", result == "1/2-1/2", result == "0-1"};
      for (int i = 0; i < 3; ++i) totals[i] += score[i];
      if (at + 1 == boards[g].end()) continue;  // ends here: counted, but plays no move
      auto& row = expected[*(at + 1)];
      for (int i = 0; i < 3; ++i) row.results[i] += score[i];
      row.games.push_back(g);
      if (const int elo = rating(tag(s.games[g], white_moves ? "WhiteElo" : "BlackElo"))) {
        row.elo_sum += elo;
        ++row.rated;
      }
      const int w = rating(tag(s.games[g], "WhiteElo")), b = rating(tag(s.games[g], "BlackElo"));
      const int known = (w != 0) + (b != 0);
      by_rating.emplace_back(known ? -long(w + b) / known : 1, g);
    }
    REQUIRE(expected.size() >= 2);

    const auto answer = server.get("/masters?" + c.query + "&moves=100&topGames=5");
    REQUIRE(answer.status == 200);
    const auto json = answer.json();
    CHECK(json["white"] == totals[0]);
    CHECK(json["draws"] == totals[1]);
    CHECK(json["black"] == totals[2]);
    CHECK(json["moves"].size() == expected.size());
    const pgn::Position position = pgndb::test::fen(board_after(s.tmp.path(), c.moves) + " - 0 1");
    std::map<std::string, std::string> uci_to_board;
    for (const auto& m : json["moves"]) {
      const std::string san = m["san"], uci = m["uci"];
      INFO(san << " " << uci);
      const std::string after = board_after(s.tmp.path(), c.moves + " " + san);
      uci_to_board[uci] = after;
      REQUIRE(expected.count(after));
      const Expected& e = expected[after];
      CHECK(std::array<long, 3>{m["white"], m["draws"], m["black"]} == e.results);
      CHECK(m["averageRating"] == (e.rated ? e.elo_sum / e.rated : 0));
      // The same move in both notations.
      const auto by_uci = pgn::parse_san(position, uci), by_san = pgn::parse_san(position, san);
      REQUIRE(by_uci);
      REQUIRE(by_san);
      CHECK(*by_uci == *by_san);
      if (e.games.size() == 1) {
        REQUIRE(m["game"].is_object());
        CHECK(m["game"]["id"] == std::to_string(e.games[0] + 1));
        CHECK(m["game"]["white"]["name"] == tag(s.games[e.games[0]], "White"));
      } else {
        CHECK(m["game"].is_null());
      }
    }
    // The best-rated games by the average of their known ratings, ties in the order imported.
    std::sort(by_rating.begin(), by_rating.end());
    const auto& top = json["topGames"];
    REQUIRE(top.size() == std::min<std::size_t>(5, by_rating.size()));
    for (std::size_t i = 0; i < top.size(); ++i) {
      const std::size_t g = by_rating[i].second;
      INFO("top game " << i);
      CHECK(top[i]["id"] == std::to_string(g + 1));
      CHECK(top[i]["white"]["name"] == tag(s.games[g], "White"));
      CHECK(top[i]["black"]["name"] == tag(s.games[g], "Black"));
      const auto at = std::find(boards[g].begin(), boards[g].end(), root);
      CHECK(uci_to_board[top[i]["uci"]] == *(at + 1));
    }
  }
}

TEST_CASE(
    "pgndb serve's /api/tree and /api/find answer as pgndb tree and pgndb find, for 100 "
    "positions",
    "[heavy]") {
  Slice& s = the_slice();
  const pgndb::test::ServeProcess server(s.db.string());
  // 100 positions: the first 1 to 20 plies of games spread over the slice, in SAN (the CLI's
  // --moves) and UCI (the API's play=), from /api/game.
  std::size_t compared_rows = 0, compared_games = 0;
  for (int i = 0; i < 100; ++i) {
    const unsigned id = 1 + unsigned(i) * unsigned(s.games.size() / 100);
    const auto game = server.get("/api/game/" + std::to_string(id)).json();
    const std::size_t plies = std::min<std::size_t>(1 + std::size_t(i) % 20, game["moves"].size());
    std::string san, uci;
    for (std::size_t p = 0; p < plies; ++p) {
      san += (p ? " " : "") + game["moves"][p]["san"].get<std::string>();
      uci += (p ? "," : "") + game["moves"][p]["uci"].get<std::string>();
    }
    INFO("game " << id << ": " << san);
    auto tree = run_command(std::string(PGNDB_BINARY) + " tree --db '" + s.db.string() +
                            "' --json --moves '" + san + "'");
    REQUIRE(tree.exit_code == 0);
    std::vector<nlohmann::json> cli_rows;
    std::istringstream lines(tree.out);
    for (std::string line; std::getline(lines, line);)
      cli_rows.push_back(nlohmann::json::parse(line));
    const auto api = server.get("/api/tree?play=" + uci).json();
    REQUIRE(api["moves"].size() == cli_rows.size());
    for (std::size_t r = 0; r < cli_rows.size(); ++r) {
      const auto& a = api["moves"][r];
      const auto& c = cli_rows[r];
      CHECK(a == c);  // the same object from the command and the API
      ++compared_rows;
    }
    auto found = run_command(std::string(PGNDB_BINARY) + " find --db '" + s.db.string() +
                             "' --format json --sort -date --moves '" + san + "'");
    REQUIRE(found.exit_code == 0);
    std::vector<unsigned> cli_ids, api_ids;
    std::istringstream found_lines(found.out);
    for (std::string line; std::getline(found_lines, line);)
      cli_ids.push_back(nlohmann::json::parse(line)["id"]);
    for (unsigned offset = 0;;) {
      const auto page =
          server
              .get("/api/find?sort=-date&limit=1000&offset=" + std::to_string(offset) +
                   "&play=" + uci)
              .json();
      for (const auto& g : page["games"]) api_ids.push_back(g["id"]);
      if (page["next_offset"].is_null()) break;
      offset = page["next_offset"];
    }
    CHECK(api_ids == cli_ids);
    compared_games += cli_ids.size();
  }
  CHECK(compared_rows > 300);
  CHECK(compared_games > 1000);
}

TEST_CASE(
    "the player explorer at /player gives the moves, results and latest games pgn-extract's boards "
    "give") {
  Slice& s = the_slice();
  const auto boards = pgn_extract_boards();
  REQUIRE(boards.size() == s.games.size());
  const pgndb::test::ServeProcess server(s.db.string());
  auto rating = [](const std::string& text) { return long(strict_rating(text, 0)); };
  // A date as the search sorts it (year << 16 | month << 8 | day; 0 for an unknown part).
  auto date_number = [](const std::string& date) {
    auto part = [&](std::size_t at, std::size_t n) -> long {
      const std::string t = date.substr(std::min(at, date.size()), n);
      return t.size() == n && t.find_first_not_of("0123456789") == std::string::npos ? std::stol(t)
                                                                                     : 0;
    };
    return part(0, 4) << 16 | part(5, 2) << 8 | part(8, 2);
  };
  struct Case {
    std::string moves, play, player, colour;
  };
  const Case cases[] = {
      {"", "", "kasparov", "white"},         // the player moves
      {"1.e4", "e2e4", "tal", "white"},      // the opponents move
      {"1.e4", "e2e4", "kasparov", "black"}  // the player moves, as Black
  };
  for (const Case& c : cases) {
    INFO(c.player << " as " << c.colour << " after '" << c.moves << "'");
    const bool player_white = c.colour == "white";
    const std::string root = c.moves.empty() ? std::string() : board_after(s.tmp.path(), c.moves);
    const bool white_moves = c.moves.empty() || root.find(" w ") != std::string::npos;
    const bool player_moves = white_moves == player_white;
    struct Expected {
      std::array<long, 3> results{};
      long mover_sum = 0, mover_rated = 0, opponent_sum = 0, both_rated = 0, mover_score = 0;
    };
    std::map<std::string, Expected> expected;
    std::vector<std::pair<long, std::size_t>> by_date;  // (-date, index): the newest first
    std::map<std::size_t, std::string> next_board;      // per game, the board after its move
    for (std::size_t g = 0; g < boards.size(); ++g) {
      auto& tags = s.games[g];
      if (squash(tag(tags, player_white ? "White" : "Black")).find(c.player) == std::string::npos)
        continue;
      // boards[g] holds the boards after each move: the start stands before the first.
      std::size_t at = 0;
      if (!c.moves.empty()) {
        const auto found = std::find(boards[g].begin(), boards[g].end(), root);
        if (found == boards[g].end()) continue;
        at = std::size_t(found - boards[g].begin()) + 1;
      }
      if (at >= boards[g].size()) continue;  // ends here: plays no move
      auto& row = expected[boards[g][at]];
      next_board[g] = boards[g][at];
      const std::string result = tag(tags, "Result");
      row.results[0] += result == "1-0";
      row.results[1] += result == "1/2-1/2";
      row.results[2] += result == "0-1";
      const long mover = rating(tag(tags, white_moves ? "WhiteElo" : "BlackElo"));
      const long other = rating(tag(tags, white_moves ? "BlackElo" : "WhiteElo"));
      if (mover) {
        row.mover_sum += mover;
        ++row.mover_rated;
      }
      if (mover && other && result != "*") {
        ++row.both_rated;
        row.opponent_sum += other;
        const int white_score = result == "1-0" ? 1 : result == "0-1" ? -1 : 0;
        row.mover_score += white_moves ? white_score : -white_score;
      }
      by_date.emplace_back(-date_number(tag(tags, "Date")), g);
    }
    REQUIRE(expected.size() >= 2);
    const auto json = server
                          .get("/player?player=" + c.player + "&color=" + c.colour +
                               "&play=" + c.play + "&moves=256&recentGames=4")
                          .json();
    CHECK(json["moves"].size() == expected.size());
    std::map<std::string, std::string> uci_to_board;
    for (const auto& m : json["moves"]) {
      const std::string san = m["san"];
      INFO(san);
      const std::string after = board_after(s.tmp.path(), c.moves + " " + san);
      uci_to_board[m["uci"]] = after;
      REQUIRE(expected.count(after));
      const Expected& e = expected[after];
      CHECK(std::array<long, 3>{m["white"], m["draws"], m["black"]} == e.results);
      const long mover_average = e.mover_rated ? e.mover_sum / e.mover_rated : 0;
      const long opponent_average = e.both_rated ? e.opponent_sum / e.both_rated : 0;
      if (player_moves) {
        CHECK(m["averageOpponentRating"] == opponent_average);
        CHECK(m["performance"] ==
              (e.both_rated ? std::max(0L, opponent_average + 400 * e.mover_score / e.both_rated)
                            : 0));
      } else {
        CHECK(m["averageOpponentRating"] == mover_average);
        CHECK(m["performance"] ==
              (e.both_rated && e.mover_rated
                   ? std::max(0L, mover_average - 400 * e.mover_score / e.both_rated)
                   : 0));
      }
    }
    // The latest games, newest first, ties in the order imported; unknown dates last.
    std::stable_sort(by_date.begin(), by_date.end(), [](const auto& a, const auto& b) {
      const bool a_known = a.first != 0, b_known = b.first != 0;
      if (a_known != b_known) return a_known;
      return a.first < b.first;
    });
    const auto& recent = json["recentGames"];
    REQUIRE(recent.size() == std::min<std::size_t>(4, by_date.size()));
    for (std::size_t i = 0; i < recent.size(); ++i) {
      const std::size_t g = by_date[i].second;
      INFO("recent game " << i);
      CHECK(recent[i]["id"] == std::to_string(g + 1));
      CHECK(uci_to_board[recent[i]["uci"]] == next_board[g]);
    }
  }
}

TEST_CASE("find --sort orders by date or rating, the games staying the same") {
  Slice& s = the_slice();
  auto ids_and_dates = [&](const std::string& sort) {
    const std::string out = s.find("--player kasparov --format json --sort " + sort);
    std::vector<std::pair<long, std::string>> rows;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
      const auto game = nlohmann::json::parse(line);
      rows.emplace_back(game["id"], game["tags"].value("Date", ""));
    }
    return rows;
  };
  const auto by_id = ids_and_dates("id"), by_date = ids_and_dates("date"),
             newest = ids_and_dates("-date");
  REQUIRE(by_id.size() == std::size_t(s.count("--player kasparov")));
  CHECK(std::is_sorted(by_id.begin(), by_id.end()));
  auto same_games = [&](auto rows) {
    std::sort(rows.begin(), rows.end());
    return rows == by_id;
  };
  CHECK(same_games(by_date));
  CHECK(same_games(newest));
  // Known years in order, unknown ones last, in either direction.
  // A date as it sorts: unknown month or day before the known ones, an unknown year last.
  auto year = [](std::string date) {
    if (date.substr(0, 4).find('?') != std::string::npos) return std::string("~");
    std::replace(date.begin(), date.end(), '?', '0');
    return date;
  };
  CHECK(std::is_sorted(by_date.begin(), by_date.end(),
                       [&](auto& a, auto& b) { return year(a.second) < year(b.second); }));
  std::vector<std::pair<long, std::string>> known(newest.begin(), newest.end());
  const auto first_unknown =
      std::find_if(known.begin(), known.end(), [&](auto& r) { return year(r.second) == "~"; });
  CHECK(std::all_of(first_unknown, known.end(), [&](auto& r) { return year(r.second) == "~"; }));
  CHECK(std::is_sorted(known.begin(), first_unknown,
                       [&](auto& a, auto& b) { return year(a.second) > year(b.second); }));
  // By rating: the average of both ratings, highest (or lowest) first; the first game is the
  // best-rated (or worst-rated) pair of the source.
  std::vector<int> source_averages;
  for (auto& g : s.games) {
    const int white = strict_rating(tag(g, "WhiteElo"), 0),
              black = strict_rating(tag(g, "BlackElo"), 0);
    if (white >= 2000 && black >= 2000) source_averages.push_back((white + black) / 2);
  }
  REQUIRE(!source_averages.empty());
  for (const bool highest_first : {true, false}) {
    INFO((highest_first ? "-elo" : "elo"));
    const std::string out = s.find(std::string("--min-elo 2000 --format json --limit 300 --sort ") +
                                   (highest_first ? "-elo" : "elo"));
    std::vector<int> averages;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
      const auto tags = nlohmann::json::parse(line)["tags"];
      averages.push_back(
          (std::stoi(tags.value("WhiteElo", "0")) + std::stoi(tags.value("BlackElo", "0"))) / 2);
    }
    REQUIRE(averages.size() == 300);
    if (highest_first) {
      CHECK(std::is_sorted(averages.rbegin(), averages.rend()));
      CHECK(averages.front() == *std::max_element(source_averages.begin(), source_averages.end()));
    } else {
      CHECK(std::is_sorted(averages.begin(), averages.end()));
      CHECK(averages.front() == *std::min_element(source_averages.begin(), source_averages.end()));
    }
  }
}

TEST_CASE("show draws the board pgn-extract reaches at that ply, as text and as SVG") {
  Slice& s = the_slice();
  const auto boards = pgn_extract_boards();
  REQUIRE(boards.size() == s.games.size());
  for (const std::size_t id : {std::size_t(1), std::size_t(777), s.games.size()}) {
    const auto& game = boards[id - 1];
    REQUIRE(game.size() > 10);
    for (const std::size_t ply : {std::size_t(1), std::size_t(10), game.size()}) {
      INFO("game " << id << " ply " << ply);
      const fs::path svg = s.tmp / "board.svg";
      auto r = run_command(std::string(PGNDB_BINARY) + " show --db '" + s.db.string() + "' " +
                           std::to_string(id) + " --ply " + std::to_string(ply) + " --svg '" +
                           svg.string() + "'");
      REQUIRE(r.exit_code == 0);
      // pgn-extract's FEN after `ply` moves: placement, side to move, castling.
      const std::string& board = game[ply - 1];
      CHECK(r.out.find("\nFEN: " + board + " ") != std::string::npos);
      // The material in the seeds' values, counted on pgn-extract's board.
      int material[2] = {0, 0};
      for (const char c : board.substr(0, board.find(' '))) {
        const std::string_view letters = "pnbrq";
        const int values[] = {1, 3, 3, 5, 9};
        const std::size_t at = letters.find(char(std::tolower(static_cast<unsigned char>(c))));
        if (at != std::string_view::npos)
          material[std::islower(static_cast<unsigned char>(c)) ? 1 : 0] += values[at];
      }
      CHECK(r.out.find("\nMaterial: White " + std::to_string(material[0]) + ", Black " +
                       std::to_string(material[1]) + " ") != std::string::npos);
      // The drawing, read back square by square, has the same placement.
      const std::string drawing = pgndb::test::read_file(svg);
      static const std::regex piece(
          R"re(data-square="([a-h])([1-8])" data-piece="([PNBRQKpnbrqk])")re");
      char squares[8][8] = {};
      for (std::sregex_iterator m(drawing.begin(), drawing.end(), piece), end; m != end; ++m)
        squares[std::size_t((*m)[2].str()[0] - '1') & 7][std::size_t((*m)[1].str()[0] - 'a') & 7] =
            (*m)[3].str()[0];
      std::string placement;
      for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
          if (!squares[rank][file]) {
            ++empty;
            continue;
          }
          if (empty) placement += char('0' + empty);
          empty = 0;
          placement += squares[rank][file];
        }
        if (empty) placement += char('0' + empty);
        if (rank) placement += '/';
      }
      CHECK(placement == board.substr(0, board.find(' ')));
    }
    // The PGN shown is the game as export writes it.
    auto r = run_command(std::string(PGNDB_BINARY) + " show --db '" + s.db.string() + "' " +
                         std::to_string(id));
    REQUIRE(r.exit_code == 0);
    const std::string pgn =
        s.find("--format pgn --offset " + std::to_string(id - 1) + " --limit 1");
    CHECK(r.out.rfind(pgn, 0) == 0);
  }
  // Ply 0 is the start; --flip turns the diagram: rank 1 on top, the files from h to a.
  auto start = run_command(std::string(PGNDB_BINARY) + " show --db '" + s.db.string() +
                           "' 1 --ply 0 --flip");
  REQUIRE(start.exit_code == 0);
  CHECK(start.out.find("\nFEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n") !=
        std::string::npos);
  CHECK(start.out.find("  1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖ \n") != std::string::npos);
  CHECK(start.out.find("\n     h  g  f  e  d  c  b  a \n") != std::string::npos);
  for (const char* bad : {"0", "999999", "1 --ply 100000"}) {
    INFO(bad);
    auto r = run_command(std::string(PGNDB_BINARY) + " show --db '" + s.db.string() + "' " + bad +
                         " 2>&1");
    CHECK(r.exit_code == 2);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
  }
}

TEST_CASE("find --annotated keeps the games with a comment of text or a variation") {
  TempDir tmp;
  // Games written as lichess, ChessBase and people write them, and the sample files.
  std::string text =
      "[Event \"clock only\"]\n\n1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:02:58] } 1-0\n\n"
      "[Event \"eval only\"]\n\n1. d4 { [%eval 0.2] [%clk 0:01:00] } d5 1/2-1/2\n\n"
      "[Event \"words\"]\n\n1. e4 { The best move. } e5 0-1\n\n"
      "[Event \"words after a clock\"]\n\n1. e4 { [%clk 0:03:00] Fast. } e5 *\n\n"
      "[Event \"variation\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n\n"
      "[Event \"line comment\"]\n\n1. c4 ; the English\ne5 *\n\n"
      "[Event \"NAGs only\"]\n\n1. e4! e5?! 2. Qh5?? *\n\n"
      "[Event \"arrows\"]\n\n1. e4 { [%csl Gd5][%cal Ge2e4] } e5 *\n\n"
      "[Event \"plain\"]\n\n1. Nf3 d5 *\n\n";
  for (const char* f : {"annotated-eval-comments.pgn", "annotated-variations.pgn", "Tal-100.pgn"})
    text += pgndb::test::read_file(fs::path(PGNDB_SOURCE_DIR) / "samples" / f) + "\n\n";
  pgndb::test::write_file(tmp / "games.pgn", text);

  // The test's reading of the rule: a `{...}` or `;` comment with text outside `[%...]`
  // commands, or a `(` outside comments, in the movetext.
  long expected = 0, games = 0;
  std::istringstream in(text);
  std::string line, movetext;
  auto judge = [&] {
    if (movetext.empty()) return;
    static const std::regex command(R"(\[%(clk|emt|eval) [^\]]*\])");
    bool annotated = false;
    for (std::size_t i = 0; i < movetext.size() && !annotated; ++i) {
      const char c = movetext[i];
      if (c == '(') annotated = true;
      if (c == '{' || c == ';') {
        const std::size_t end = movetext.find(c == '{' ? '}' : '\n', i);
        const std::string body =
            std::regex_replace(movetext.substr(i + 1, end - i - 1), command, "");
        annotated = body.find_first_not_of(" \t\r\n") != std::string::npos;
        i = end;
      }
    }
    ++games;
    expected += annotated;
    movetext.clear();
  };
  while (std::getline(in, line)) {
    if (line.rfind("[Event ", 0) == 0) judge();
    if (!line.empty() && line[0] != '[') movetext += line + '\n';
  }
  judge();
  REQUIRE(games == 111);
  REQUIRE(expected >= 5);

  auto r = run_command(std::string(PGNDB_BINARY) + " import --db '" + (tmp / "db").string() +
                       "' '" + (tmp / "games.pgn").string() + "' 2>&1");
  REQUIRE(r.exit_code == 0);
  auto count = [&](const std::string& args) {
    auto c = run_command(std::string(PGNDB_BINARY) + " find --db '" + (tmp / "db").string() +
                         "' --format count " + args);
    REQUIRE(c.exit_code == 0);
    return std::stol(c.out);
  };
  CHECK(count("") == games);
  CHECK(count("--annotated") == expected);
  CHECK(count("--annotated --event 'clock only'") == 0);
  CHECK(count("--annotated --event 'words after a clock'") == 1);
}

TEST_CASE("find --in-variations finds the positions pgn-extract sees inside variations") {
  TempDir tmp;
  const fs::path edge = fs::path(PGNDB_SHARED_DATA) / "edge" / "pychess";
  const std::vector<fs::path> files = {
      edge / "lessons__lichess_study_beautiful-chess-studies-1_by_thijscom_2018.03.05.pgn",
      edge / "lessons__lichess_study_beautiful-chess-studies-2_by_thijscom_2018.04.17.pgn",
      fs::path(PGNDB_SOURCE_DIR) / "samples" / "annotated-variations.pgn"};
  std::string names;
  for (const auto& f : files) names += " '" + f.string() + "'";
  const std::string db = (tmp / "db").string();
  auto r = run_command(std::string(PGNDB_BINARY) + " import --db '" + db + "'" + names + " 2>&1");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  REQUIRE(r.out.find("rejected: 0") != std::string::npos);

  // pgn-extract's boards per game: with its variations (FEN comments inside them too) and
  // without (-V). The study comments are text: only FEN-shaped comments count, and a game set
  // up from a FEN tag also stands in that position.
  static const std::regex fen_shaped(
      R"(\{ ((?:[1-8pnbrqkPNBRQK]+/){7}[1-8pnbrqkPNBRQK]+ [wb] [-KQkq]+) [^}]*\})");
  static const std::regex fen_tag(R"re(\[FEN "((?:[^ ]+) [wb] [-KQkq]+))re");
  auto boards_per_game = [&](const std::string& flags) {
    auto out =
        run_command("/usr/games/pgn-extract -s --fencomments " + flags + names + " 2>/dev/null");
    REQUIRE(out.exit_code == 0);
    std::vector<std::set<std::string>> games;
    for (const std::string& text : pgndb::test::joined_games(out.out)) {
      std::set<std::string> boards;
      for (std::sregex_iterator m(text.begin(), text.end(), fen_shaped), end; m != end; ++m)
        boards.insert((*m)[1].str());
      std::smatch tag;
      if (std::regex_search(text, tag, fen_tag)) boards.insert(tag[1].str());
      games.push_back(std::move(boards));
    }
    return games;
  };
  const auto everywhere = boards_per_game(""), main_line = boards_per_game("-V");
  REQUIRE(everywhere.size() == 104);
  REQUIRE(main_line.size() == everywhere.size());

  // Boards that stand only in variations of some game, and some of the main lines.
  std::vector<std::string> queries;
  for (std::size_t g = 0; g < everywhere.size() && queries.size() < 30; g += 3)
    for (const std::string& board : everywhere[g])
      if (!main_line[g].count(board)) {
        queries.push_back(board);
        break;
      }
  for (std::size_t g = 1; g < main_line.size() && queries.size() < 40; g += 10)
    if (!main_line[g].empty()) queries.push_back(*main_line[g].rbegin());
  REQUIRE(queries.size() >= 30);
  auto games_with = [](const std::vector<std::set<std::string>>& games, const std::string& b) {
    return long(std::count_if(games.begin(), games.end(), [&](auto& g) { return g.count(b); }));
  };
  long only_in_variations = 0;
  for (const std::string& board : queries) {
    INFO(board);
    auto count = [&](const std::string& extra) {
      auto c = run_command(std::string(PGNDB_BINARY) + " find --db '" + db + "' --fen '" + board +
                           " - 0 1' --format count " + extra);
      REQUIRE(c.exit_code == 0);
      return std::stol(c.out);
    };
    const long in_variations = count("--in-variations"), in_main_line = count("");
    CHECK(in_variations == games_with(everywhere, board));
    CHECK(in_main_line == games_with(main_line, board));
    only_in_variations += in_variations > in_main_line;
  }
  CHECK(only_in_variations >= 20);
}

TEST_CASE("show marks where the king went after castling") {
  TempDir tmp;
  pgndb::test::write_file(tmp / "castle.pgn",
                          "[Event \"c\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 *\n");
  const std::string db = (tmp / "db").string();
  REQUIRE(run_command(std::string(PGNDB_BINARY) + " import --db '" + db + "' '" +
                      (tmp / "castle.pgn").string() + "'")
              .exit_code == 0);
  auto r = run_command(std::string(PGNDB_BINARY) + " show --db '" + db + "' 1 --ply 7");
  REQUIRE(r.exit_code == 0);
  // Castling is stored as the king taking its rook; the diagram marks e1 and g1.
  INFO(r.out);
  CHECK(r.out.find("  1  ♖  ♘  ♗  ♕ [·] ♖ [♔] · \n") != std::string::npos);
}
