// pgndb serve: the query string, the answers to bad requests, games as JSON checked against
// pgn-extract's boards (an independent rules engine: its FEN comment after every move, in
// variations too), the API against the commands it mirrors, and games imported while the
// server runs. The lichess-format explorer is checked against pgn-extract in test_query.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "pgndb/serve/query_string.h"
#include "serve_process.h"
#include "support.h"

namespace fs = std::filesystem;
using nlohmann::json;
using pgndb::test::run_command;
using pgndb::test::ServeProcess;
using pgndb::test::TempDir;

namespace {

const fs::path samples = fs::path(PGNDB_SOURCE_DIR) / "samples";

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

void import(const fs::path& db, const std::string& files) {
  auto r =
      run_command(std::string(PGNDB_BINARY) + " import --db " + quoted(db) + " " + files + " 2>&1");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
}

// pgn-extract's boards (placement, side to move, castling) in the order its FEN comments stand
// in the text of each game of `file`: after each move, a variation's moves where it is written.
std::vector<std::vector<std::string>> pgn_extract_boards(const fs::path& file) {
  auto r = run_command("/usr/games/pgn-extract -s --fencomments " + quoted(file) + " 2>/dev/null");
  REQUIRE(r.exit_code == 0);
  static const std::regex fen_comment(R"(\{ ([^ ]+ [wb] [^ ]+) [^}]*\})");
  std::vector<std::vector<std::string>> games;
  for (const std::string& text : pgndb::test::joined_games(r.out)) {
    games.emplace_back();
    for (std::sregex_iterator m(text.begin(), text.end(), fen_comment), end; m != end; ++m)
      games.back().push_back((*m)[1].str());
  }
  return games;
}

// The move tokens pgn-extract writes of each game of `file` with `letters` (its -Wsan: pawn,
// knight, bishop, rook, queen, king), variations' moves in place, without move numbers.
std::vector<std::vector<std::string>> pgn_extract_san(const fs::path& file,
                                                      const std::string& letters) {
  auto r = run_command("/usr/games/pgn-extract -s -C -N -Wsan" + letters + " " + quoted(file) +
                       " 2>/dev/null");
  REQUIRE(r.exit_code == 0);
  std::vector<std::vector<std::string>> games;
  for (const std::string& text : pgndb::test::joined_games(r.out)) {
    games.emplace_back();
    // The tags (in brackets) left out, and the variations' parentheses.
    std::string moves;
    bool in_tag = false;
    for (const char c : text) {
      if (c == '[' || c == ']')
        in_tag = c == '[';
      else if (!in_tag)
        moves += c == '(' || c == ')' ? ' ' : c;
    }
    std::istringstream words(moves);
    for (std::string w; words >> w;) {
      // Move numbers ("12.", "12...") and the result are not moves.
      if (w.find_first_not_of("0123456789.") == std::string::npos || w == "1-0" || w == "0-1" ||
          w == "1/2-1/2" || w == "*")
        continue;
      games.back().push_back(w);
    }
  }
  return games;
}

// The SAN of /api/game's moves in the order PGN writes them.
void flatten_san(const json& moves, std::vector<std::string>& out) {
  for (const auto& m : moves) {
    out.push_back(m["san"]);
    if (m.contains("variations"))
      for (const auto& line : m["variations"]) flatten_san(line, out);
  }
}

// The first three fields of a FEN.
std::string board(const std::string& fen) {
  std::size_t at = 0;
  for (int spaces = 0; spaces < 3 && at != std::string::npos; ++spaces) at = fen.find(' ', at + 1);
  return fen.substr(0, at);
}

// The boards of /api/game's moves in the order PGN writes them: a move, then its variations.
void flatten(const json& moves, std::vector<std::string>& out) {
  for (const auto& m : moves) {
    out.push_back(board(m["fen"]));
    if (m.contains("variations"))
      for (const auto& line : m["variations"]) flatten(line, out);
  }
}

}  // namespace

TEST_CASE("a query string is split at & and =, with + and %XX decoded") {
  using pgndb::serve::parse_query_string;
  auto p = parse_query_string("fen=rnbqkbnr%2Fpp+w&play=e2e4,c7c5&flag&&empty=&x=%41%62");
  REQUIRE(p);
  REQUIRE(p->size() == 5);
  CHECK((*p)[0].name == "fen");
  CHECK((*p)[0].value == "rnbqkbnr/pp w");
  CHECK((*p)[1].value == "e2e4,c7c5");
  CHECK((*p)[2].name == "flag");
  CHECK((*p)[2].value.empty());
  CHECK((*p)[3].name == "empty");
  CHECK((*p)[4].value == "Ab");
  CHECK(parse_query_string("")->empty());

  auto bad = parse_query_string("a=1&b=%4");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("offset 6") != std::string::npos);
  CHECK_FALSE(parse_query_string("a=%zz"));
  auto nameless = parse_query_string("a=1&=2");
  REQUIRE_FALSE(nameless);
  CHECK(nameless.error().find("without a name at offset 4") != std::string::npos);
}

TEST_CASE("serve answers bad requests with 400 or 404 and a JSON error, never a 5xx") {
  TempDir tmp;
  import(tmp / "db", quoted(samples / "Tal-100.pgn"));
  const ServeProcess server((tmp / "db").string());
  struct Case {
    std::string path;
    int status;
    std::string error;  // a part of the message
  };
  const Case cases[] = {
      {"/masters?fen=not+a+fen", 400, "fen: 'not a fen' is not a position"},
      {"/masters?play=e2e5", 400, "play: 'e2e5' is not a legal move"},
      {"/masters?play=e2e4,,e7e5", 400, "play: '' is not a legal move"},
      {"/masters?play=0000", 400, "play: '0000' is not a legal move"},
      {"/masters?moves=many", 400, "moves: 'many' is not a number"},
      {"/masters?topGames=-1", 400, "topGames"},
      {"/masters?since=1990&since=1991", 400, "since: given more than once"},
      {"/masters?until=19", 400, "until: '19' is not a year"},
      {"/masters?variant=atomic", 400, "only standard chess"},
      {"/masters?play=e2e4%zz", 400, "not followed by two hex digits"},
      {"/api/find?player=Tal&colour=white", 400, "unknown parameter 'colour'"},
      {"/api/find?date=1990..1980", 400, "date: the range 1990..1980 is inverted"},
      {"/api/find?min-elo=abc", 400, "min-elo: 'abc' is not a number"},
      {"/api/find?limit=0", 400, "limit"},
      {"/api/find?sort=name", 400, "sort: 'name'"},
      {"/api/find?player-re=(", 400, "player-re"},
      {"/api/tree?moves=e4&in-variations=1", 400, "main lines only"},
      {"/api/game/0", 404, "no game 0"},
      {"/api/game/101", 404, "no game 101 (the database holds games 1 to 100)"},
      {"/api/game/x1", 404, "no such path"},
      {"/api/game/1?format=xml", 400, "format: 'xml'"},
      {"/api/export?compress=gzip", 400, "compress: 'gzip' is not zst"},
      {"/etc/passwd", 404, "no such path"},
      {"/?x=1", 400, "the page takes no parameters"},
      {"/api/board.svg?fen=nonsense", 400, "fen: 'nonsense' is not a position"},
      {"/api/board.svg?lastmove=e9e4", 400, "lastmove: 'e9e4' is not a move in UCI"},
      {"/api/board.svg?size=3", 400, "unknown parameter 'size'"},
      {"/api/tree?moves=e4&play=e2e4", 400, "play: give either moves or play"},
      {"/api/tree?play=e2e5", 400, "play: 'e2e5' is not a legal move"},
      {"/../../etc/passwd", 404, ""},
  };
  for (const Case& c : cases) {
    INFO(c.path);
    const auto answer = server.get(c.path);
    CHECK(answer.status == c.status);
    CHECK(answer.content_type == "application/json");
    INFO(answer.body);
    if (!c.error.empty()) CHECK_THAT(std::string(answer.json()["error"]), Catch::Contains(c.error));
  }
  // lichess ignores the parameters it does not know; so does its format.
  CHECK(server.get("/masters?play=e2e4&token=abc").status == 200);
  // A request line past httplib's bound is refused before any handler runs.
  CHECK(server.get("/masters?fen=" + std::string(10000, 'x')).status == 414);
  // Only GET.
  httplib::Client client("127.0.0.1", server.port());
  auto post = client.Post("/api/find", "x", "text/plain");
  REQUIRE(post);
  CHECK(post->status >= 400);
  CHECK(post->status < 500);
  // And the server still answers.
  CHECK(server.get("/api/stats").json()["games"] == 100);
}

namespace {

// The pieces of an SVG board (board_diagram.h: each piece a text element with data-square and
// data-piece), and those of a FEN's placement, as square -> FEN letter.
std::map<std::string, char> svg_pieces(const std::string& svg) {
  static const std::regex piece(R"re(data-square="([a-h][1-8])" data-piece="([pnbrqkPNBRQK])")re");
  std::map<std::string, char> out;
  for (std::sregex_iterator m(svg.begin(), svg.end(), piece), end; m != end; ++m)
    out[(*m)[1].str()] = (*m)[2].str()[0];
  return out;
}
std::map<std::string, char> fen_pieces(const std::string& fen) {
  std::map<std::string, char> out;
  int rank = 7, file = 0;
  for (char c : fen.substr(0, fen.find(' '))) {
    if (c == '/') {
      --rank;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
    } else {
      out[std::string{char('a' + file), char('1' + rank)}] = c;
      ++file;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("the page and the board drawing are served, the board showing the FEN it is given") {
  TempDir tmp;
  import(tmp / "db", quoted(samples / "Morphy-100.pgn"));
  const ServeProcess server((tmp / "db").string());
  const auto page = server.get("/");
  CHECK(page.status == 200);
  CHECK(page.content_type == "text/html; charset=utf-8");
  CHECK_THAT(page.body, Catch::Contains("<title>pgndb explorer</title>"));
  // Offline: nothing loaded from elsewhere.
  CHECK_THAT(page.body, !Catch::Contains("http://") && !Catch::Contains("https://"));
  for (const std::string fen :
       {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4",
        "8/8/8/4k3/8/8/4K3/7Q w - - 0 60"}) {
    INFO(fen);
    std::string encoded = fen;
    std::replace(encoded.begin(), encoded.end(), ' ', '+');
    for (const char* flip : {"0", "1"}) {
      const auto svg = server.get("/api/board.svg?fen=" + encoded + "&lastmove=e2e4&flip=" + flip);
      CHECK(svg.status == 200);
      CHECK(svg.content_type == "image/svg+xml");
      CHECK(svg_pieces(svg.body) == fen_pieces(fen));
    }
  }
  // The start when no FEN is given.
  CHECK(svg_pieces(server.get("/api/board.svg").body) ==
        fen_pieces("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  // `play` (UCI, as the explorer) and `moves` (SAN) name the same position.
  const json by_play = server.get("/api/tree?play=e2e4,e7e5,g1f3").json();
  const json by_moves = server.get("/api/tree?moves=e4+e5+Nf3").json();
  CHECK(by_play == by_moves);
  CHECK(by_play["games"] > 0);
}

TEST_CASE("/api/game gives every move with the board pgn-extract reaches, variations included") {
  TempDir tmp;
  const fs::path files[] = {samples / "annotated-variations.pgn", samples / "Morphy-100.pgn"};
  import(tmp / "db", quoted(files[0]) + " " + quoted(files[1]));
  const ServeProcess server((tmp / "db").string());
  std::vector<std::vector<std::string>> expected;
  for (const auto& f : files)
    for (auto& g : pgn_extract_boards(f)) expected.push_back(std::move(g));
  REQUIRE(expected.size() == 101);
  std::size_t variations = 0;
  for (std::size_t id = 1; id <= expected.size(); ++id) {
    INFO("game " << id);
    const auto answer = server.get("/api/game/" + std::to_string(id));
    REQUIRE(answer.status == 200);
    const json game = answer.json();
    CHECK(game["id"] == id);
    std::vector<std::string> boards;
    flatten(game["moves"], boards);
    CHECK(boards == expected[id - 1]);
    for (const auto& m : game["moves"]) variations += m.contains("variations");
    // The PGN form is the game as `pgndb show` writes it.
    const auto pgn = server.get("/api/game/" + std::to_string(id) + "?format=pgn");
    CHECK(pgn.content_type == "application/x-chess-pgn");
    CHECK_THAT(pgn.body, Catch::Contains(std::string(game["tags"]["White"])));
  }
  CHECK(variations > 10);
  // ?lang writes the moves with a language's letters as pgn-extract -Wsan does (Czech, French,
  // Hungarian here); ?figurine with figurines, one per piece letter of the English SAN.
  for (const auto& [lang, letters] :
       {std::pair{"cs", "PJSVDK"}, std::pair{"fr", "PCFTDR"}, std::pair{"hu", "PHFBVK"}}) {
    INFO(lang);
    std::vector<std::vector<std::string>> theirs;
    for (const auto& f : files)
      for (auto& g : pgn_extract_san(f, letters)) theirs.push_back(std::move(g));
    REQUIRE(theirs.size() == 101);
    for (std::size_t id = 1; id <= theirs.size(); id += 10) {
      INFO("game " << id);
      const json game = server.get("/api/game/" + std::to_string(id) + "?lang=" + lang).json();
      std::vector<std::string> ours;
      flatten_san(game["moves"], ours);
      CHECK(ours == theirs[id - 1]);
    }
  }
  {
    std::vector<std::string> english, figurines;
    flatten_san(server.get("/api/game/2").json()["moves"], english);
    flatten_san(server.get("/api/game/2?figurine=true").json()["moves"], figurines);
    REQUIRE(english.size() == figurines.size());
    std::size_t pieces = 0;
    for (std::size_t i = 0; i < english.size(); ++i) {
      const bool piece = std::string_view("NBRQK").find(english[i][0]) != std::string_view::npos;
      pieces += piece;
      // A figurine is three bytes in UTF-8 where the letter was one.
      CHECK(figurines[i].size() == english[i].size() + (piece ? 2 : 0));
    }
    CHECK(pieces > 10);
    CHECK(server.get("/api/game/2?lang=xx").status == 400);
    // /api/export writes the same moves, as `pgndb export --lang` does.
    const auto exported = server.get("/api/export?lang=cs&result=0-1");
    const auto cli = run_command(std::string(PGNDB_BINARY) + " export --db " + quoted(tmp / "db") +
                                 " --lang cs --result 0-1");
    CHECK(exported.status == 200);
    CHECK(exported.body == cli.out);
    CHECK_THAT(exported.body, Catch::Contains("Jf3"));
    CHECK(server.get("/api/game/2?lang=de&figurine=true").status == 400);
  }
  // The NAGs stay with their moves: the first game's 17. Ne4 $3.
  const json first = server.get("/api/game/1").json();
  const auto& ne4 = first["moves"][32];
  CHECK(ne4["san"] == "Ne4");
  CHECK(ne4["nags"] == json::array({3}));
}

TEST_CASE("/api/find and /api/export give the games find and export give") {
  TempDir tmp;
  import(tmp / "db", quoted(samples / "Tal-100.pgn") + " " + quoted(samples / "Gukesh-100.pgn"));
  const ServeProcess server((tmp / "db").string());
  const std::string cli = std::string(PGNDB_BINARY) + " find --db " + quoted(tmp / "db");
  struct Case {
    std::string query, options;
  };
  const Case cases[] = {
      {"player=Tal", "--player Tal"},
      {"moves=d4&min-elo=2000", "--moves d4 --min-elo 2000"},
      {"date=2015..2020&result=1-0", "--date 2015..2020 --result 1-0"},
      // A material and a pattern search also give the ply where each game matched.
      {"material=r%2Bp*+r=p%23", "--material 'r+p* r=p#'"},
      {"pattern=*/*/*/*/4P3/*/*/*", "--pattern '*/*/*/*/4P3/*/*/*'"},
  };
  for (const Case& c : cases) {
    INFO(c.query);
    auto listed = run_command(cli + " " + c.options + " --format json");
    REQUIRE(listed.exit_code == 0);
    std::vector<unsigned> ids;
    std::vector<int> match_plies;  // -1 where a game has none
    std::istringstream lines(listed.out);
    for (std::string line; std::getline(lines, line);) {
      const json g = json::parse(line);
      ids.push_back(g["id"]);
      match_plies.push_back(g.value("match_ply", -1));
    }
    REQUIRE(ids.size() >= 3);
    // Page by page, two at a time.
    std::vector<unsigned> paged;
    std::vector<int> paged_plies;
    json page;
    unsigned offset = 0;
    do {
      page =
          server.get("/api/find?" + c.query + "&limit=2&count=1&offset=" + std::to_string(offset))
              .json();
      CHECK(page["total"] == ids.size());
      for (const auto& g : page["games"]) {
        paged.push_back(g["id"]);
        paged_plies.push_back(g.value("match_ply", -1));
      }
      if (!page["next_offset"].is_null()) offset = page["next_offset"];
    } while (!page["next_offset"].is_null());
    CHECK(paged == ids);
    CHECK(paged_plies == match_plies);
    if (c.options.find("--material") != std::string::npos ||
        c.options.find("--pattern") != std::string::npos)
      CHECK(std::count(match_plies.begin(), match_plies.end(), -1) == 0);

    auto exported = run_command(std::string(PGNDB_BINARY) + " export --db " + quoted(tmp / "db") +
                                " " + c.options);
    REQUIRE(exported.exit_code == 0);
    const auto streamed = server.get("/api/export?" + c.query);
    CHECK(streamed.status == 200);
    CHECK(streamed.body == exported.out);
    // Compressed on request: the zstd command reads back the same games.
    const auto compressed = server.get("/api/export?" + c.query + "&compress=zst");
    CHECK(compressed.status == 200);
    CHECK(compressed.content_type == "application/zstd");
    CHECK(compressed.body.size() < exported.out.size());
    pgndb::test::write_file(tmp / "export.pgn.zst", compressed.body);
    CHECK(run_command("zstd -dc " + quoted(tmp / "export.pgn.zst")).out == exported.out);
  }
}

TEST_CASE("games imported while serve runs are answered within seconds") {
  TempDir tmp;
  import(tmp / "db", quoted(samples / "Tal-100.pgn"));
  const ServeProcess server((tmp / "db").string());
  CHECK(server.get("/api/stats").json()["games"] == 100);
  CHECK(server.get("/api/find?player=Morphy&count=1").json()["total"] == 0);
  import(tmp / "db", quoted(samples / "Morphy-100.pgn"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  json stats;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stats = server.get("/api/stats").json();
  } while (stats["games"] != 200 && std::chrono::steady_clock::now() < deadline);
  CHECK(stats["games"] == 200);
  CHECK(server.get("/api/find?player=Morphy&count=1").json()["total"] == 100);
}

namespace {

// The PGN text's games (each game's lines joined), read by the test, not by pgndb.
struct TaggedGame {
  std::string event, result, first_move;
  unsigned white_elo = 0, black_elo = 0;
};
std::vector<TaggedGame> tagged_games(const fs::path& file) {
  static const std::regex event(R"re(\[Event "([^"]*)"\])re"),
      result(R"re(\[Result "([^"]*)"\])re"), white_elo(R"re(\[WhiteElo "(\d+)"\])re"),
      black_elo(R"re(\[BlackElo "(\d+)"\])re"), first(R"re(\]\s+1\.\s*([^\s.]+))re");
  std::vector<TaggedGame> out;
  for (const std::string& text : pgndb::test::joined_games(pgndb::test::read_file(file))) {
    TaggedGame g;
    std::smatch m;
    if (std::regex_search(text, m, event)) g.event = m[1].str();
    if (std::regex_search(text, m, result)) g.result = m[1].str();
    if (std::regex_search(text, m, white_elo)) g.white_elo = unsigned(std::stoul(m[1].str()));
    if (std::regex_search(text, m, black_elo)) g.black_elo = unsigned(std::stoul(m[1].str()));
    if (std::regex_search(text, m, first)) g.first_move = m[1].str();
    out.push_back(g);
  }
  return out;
}

// The explorer's totals and its moves' counts by SAN, as the test expects them.
struct Tally {
  std::uint64_t white = 0, draws = 0, black = 0;
  std::map<std::string, std::uint64_t> moves;
  void add(const TaggedGame& g) {
    white += g.result == "1-0";
    draws += g.result == "1/2-1/2";
    black += g.result == "0-1";
    ++moves[g.first_move];
  }
};
void check_answer(const json& answer, const Tally& expected) {
  CHECK(answer["white"] == expected.white);
  CHECK(answer["draws"] == expected.draws);
  CHECK(answer["black"] == expected.black);
  std::map<std::string, std::uint64_t> moves;
  for (const auto& m : answer["moves"])
    moves[m["san"]] = m["white"].get<std::uint64_t>() + m["draws"].get<std::uint64_t>() +
                      m["black"].get<std::uint64_t>();
  CHECK(moves == expected.moves);
}

}  // namespace

TEST_CASE("/lichess selects by speed as lichess's own Event tags name it, and by rating group") {
  TempDir tmp;
  const fs::path lichess_file = samples / "lichess-2013-100.pgn";
  import(tmp / "db", quoted(lichess_file) + " " + quoted(samples / "Tal-100.pgn"));
  const ServeProcess server((tmp / "db").string());
  const auto lichess_games = tagged_games(lichess_file);
  const auto tal_games = tagged_games(samples / "Tal-100.pgn");
  REQUIRE(lichess_games.size() == 100);

  // lichess named each game's speed in its Event tag when it was played (in 2012 its classical
  // began at today's rapid); Tal's games have no TimeControl: their speed is unknown.
  const std::pair<std::string, std::string> speeds[] = {
      {"bullet", "Rated Bullet game"},
      {"blitz", "Rated Blitz game"},
      {"rapid,classical", "Rated Classical game"},
  };
  for (const auto& [speed, event] : speeds) {
    INFO("speeds=" << speed);
    Tally expected;
    for (const auto& g : lichess_games)
      if (g.event == event) expected.add(g);
    REQUIRE(expected.moves.size() > 1);
    const auto answer = server.get("/lichess?moves=256&speeds=" + speed);
    REQUIRE(answer.status == 200);
    const json body = answer.json();
    check_answer(body, expected);
    // Its top and recent games are of that speed, rated, as their Event tag says.
    CHECK(body["topGames"].size() == 4);  // lichess's default
    CHECK(body["recentGames"].size() == 4);
    for (const char* list : {"topGames", "recentGames"})
      for (const auto& g : body[list]) {
        CHECK_THAT(speed, Catch::Contains(g["speed"].get<std::string>()));
        CHECK(g["mode"] == "rated");
        // `Date "????.??.??"`: the date of UTCDate.
        CHECK(g["year"] == 2012);
        CHECK(g["month"] == "2012-12");
      }
  }
  Tally unknown;
  for (const auto& g : tal_games) unknown.add(g);
  check_answer(server.get("/lichess?moves=256&speeds=unknown").json(), unknown);

  // Rating groups: the players' average, from 1600 up to 1800, both ratings known.
  Tally group_1600, both_groups;
  for (const auto* games : {&lichess_games, &tal_games})
    for (const auto& g : *games) {
      if (!g.white_elo || !g.black_elo) continue;
      const unsigned average = (g.white_elo + g.black_elo) / 2;
      if (average >= 1600 && average < 1800) group_1600.add(g);
      if ((average >= 1600 && average < 1800) || average >= 2500) both_groups.add(g);
    }
  REQUIRE(group_1600.moves.size() > 1);
  check_answer(server.get("/lichess?moves=256&ratings=1600").json(), group_1600);
  check_answer(server.get("/lichess?moves=256&ratings=2500,1600").json(), both_groups);

  // The same filters in pgndb's API, by the CLI's names.
  const json found = server.get("/api/find?speed=blitz&count=true&limit=1").json();
  std::uint64_t blitz = 0;
  for (const auto& g : lichess_games) blitz += g.event == "Rated Blitz game";
  CHECK(found["total"] == blitz);

  for (const auto& [path, error] :
       {std::pair{"/lichess?speeds=hyper", "speeds: 'hyper' is not ultraBullet"},
        std::pair{"/lichess?ratings=1500", "ratings: '1500' is not a group"},
        std::pair{"/lichess?speeds=blitz,", "speeds: '' is not"},
        std::pair{"/lichess?recentGames=16", "recentGames"},
        std::pair{"/player?player=x&color=white&speeds=slow", "speeds: 'slow'"},
        std::pair{"/api/find?speed=fast", "speed: 'fast'"}}) {
    INFO(path);
    const auto answer = server.get(path);
    CHECK(answer.status == 400);
    CHECK_THAT(std::string(answer.json()["error"]), Catch::Contains(error));
  }
}

namespace {

// Fields lichess documents as null or an object (or a string): either side may hold null. And
// two pgndb leaves null where a game's tags do not say: `year` and `month` (docs/serve.md).
bool nullable(const std::string& key) {
  return key == "game" || key == "opening" || key == "winner" || key == "month" || key == "year";
}

// Whether `ours` has the shape of lichess's `example`: the same keys (both ways, but for the
// optional ones lichess's example shows), and the same JSON types, all the way down; each
// element of an array against each of the example's.
void check_shape(const json& example, const json& ours, const std::string& where,
                 const std::vector<std::string>& optional) {
  INFO(where);
  if (example.is_object()) {
    REQUIRE(ours.is_object());
    for (const auto& [key, value] : example.items()) {
      if (std::find(optional.begin(), optional.end(), key) != optional.end()) continue;
      INFO(key);
      REQUIRE(ours.contains(key));
      if (nullable(key) && (value.is_null() || ours[key].is_null())) continue;
      check_shape(value, ours[key], where + "." + key, optional);
    }
    for (const auto& [key, value] : ours.items()) {
      INFO("pgndb's " << key);
      CHECK(example.contains(key));
    }
  } else if (example.is_array()) {
    REQUIRE(ours.is_array());
    for (std::size_t i = 0; i < ours.size(); ++i)
      for (const auto& e : example)
        check_shape(e, ours[i], where + "[" + std::to_string(i) + "]", optional);
  } else if (example.is_number()) {
    CHECK(ours.is_number());
  } else if (example.is_string()) {
    CHECK(ours.is_string());
  } else {
    CHECK(ours.type() == example.type());
  }
}

// The first move of `answer` played by one game (its `game` an object), to check that object too.
bool has_single_game(const json& answer) {
  return std::any_of(answer["moves"].begin(), answer["moves"].end(),
                     [](const json& m) { return m["game"].is_object(); });
}

}  // namespace

TEST_CASE("/masters and /lichess answer with the field names and types of lichess's examples") {
  TempDir tmp;
  import(tmp / "db", quoted(samples / "Tal-100.pgn") + " " + quoted(samples / "Gukesh-100.pgn") +
                         " " + quoted(samples / "lichess-2013-100.pgn"));
  const ServeProcess server((tmp / "db").string());
  const fs::path examples = fs::path(PGNDB_SOURCE_DIR) / "tests" / "data" / "lichess-explorer";
  const json masters_example = json::parse(pgndb::test::read_file(examples / "masters.json"));
  const json lichess_example = json::parse(pgndb::test::read_file(examples / "lichess.json"));

  const json masters = server.get("/masters?play=e2e4&moves=256").json();
  REQUIRE(has_single_game(masters));
  REQUIRE(!masters["topGames"].empty());
  check_shape(masters_example, masters, "/masters", {});
  // lichess's `history` is asked for with history=true, which pgndb does not keep.
  const json lichess = server.get("/lichess?play=e2e4&moves=256&speeds=blitz,bullet").json();
  REQUIRE(has_single_game(lichess));
  REQUIRE(!lichess["topGames"].empty());
  REQUIRE(!lichess["recentGames"].empty());
  check_shape(lichess_example, lichess, "/lichess", {"history"});
  // The game objects of the lichess games explorer have lichess's `speed` and `mode` too.
  CHECK(lichess["topGames"][0].contains("speed"));
  CHECK(lichess["topGames"][0].contains("mode"));
}
