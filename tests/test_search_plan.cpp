// The query planner, linked directly: which index answers a search, in what order the sets are
// intersected, what is checked on the facts, and that the counts the plan reports are the
// games the search gives. The database is the samples, imported by the real pgndb.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "pgn/fen.h"
#include "pgn/fen_pattern.h"
#include "pgn/game.h"
#include "pgn/material_balance.h"
#include "pgn/material_spec.h"
#include "pgndb/index/store.h"
#include "pgndb/query/filters.h"
#include "pgndb/query/search.h"
#include "search_support.h"
#include "support.h"

namespace fs = std::filesystem;
using pgndb::index::Store;
using pgndb::query::FilterText;
using pgndb::query::Plan;
using pgndb::query::Search;

namespace {

// A database of `dir`, made by the real pgndb running each of `imports` (the arguments after
// `import --db DIR`) in turn.
Store imported(const pgndb::test::TempDir& dir, const std::vector<std::string>& imports) {
  for (const std::string& arguments : imports) {
    const auto r = pgndb::test::run_command(std::string(PGNDB_BINARY) + " import --db '" +
                                            (dir / "db").string() + "' " + arguments);
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
  }
  auto opened = Store::open((dir / "db").string(), {.create_if_missing = false});
  REQUIRE(opened);
  return std::move(*opened);
}

const Store& samples_store() {
  static pgndb::test::TempDir dir;
  static const Store store =
      imported(dir, {"'" + (fs::path(PGNDB_SOURCE_DIR) / "samples").string() + "'/*.pgn"});
  return store;
}

// Runs the search to its end; its plan, with the games it gave in `given`.
Plan run(const FilterText& text, std::uint64_t& given,
         pgndb::query::Order order = pgndb::query::Order::Id) {
  auto filters = pgndb::query::parse_filters(text);
  REQUIRE(filters);
  auto search = Search::start(samples_store(), *filters, order);
  REQUIRE(search);
  given = 0;
  for (;;) {
    auto id = search->next();
    REQUIRE(id);
    if (!*id) break;
    ++given;
  }
  return search->plan();
}

}  // namespace

TEST_CASE("without filters every game is a candidate and passes") {
  std::uint64_t given = 0;
  const Plan plan = run({}, given);
  CHECK(plan.every_game);
  CHECK(plan.steps.empty());
  CHECK(plan.candidates == samples_store().game_count());
  CHECK(plan.examined == plan.candidates);
  CHECK(plan.passed == given);
  CHECK(given == samples_store().game_count());
}

TEST_CASE("a name answers from the names index, and result and ratings are checked on the facts") {
  std::uint64_t given = 0;
  FilterText text;
  text.player = "gukesh";
  text.result = "1-0";
  text.min_elo = 2000;
  const Plan plan = run(text, given);
  REQUIRE(plan.steps.size() == 1);
  CHECK(plan.steps[0].index == "names: player");
  CHECK(plan.candidates == plan.steps[0].games);
  CHECK(plan.checked == std::vector<std::string>{"result", "ratings"});
  CHECK(plan.examined == plan.candidates);
  CHECK(plan.passed == given);
  CHECK(given > 0);
  CHECK(given < plan.candidates);
}

TEST_CASE("a date alone is answered by its lists of games, not by reading every summary") {
  std::uint64_t given = 0;
  FilterText text;
  text.date = "1850..1870";
  const Plan plan = run(text, given);
  REQUIRE(plan.steps.size() == 1);
  CHECK(plan.steps[0].index == "postings: date");
  CHECK(plan.checked.empty());
  CHECK(plan.passed == given);
  CHECK(given == plan.steps[0].games);
  CHECK(given > 0);
}

TEST_CASE("sets are intersected smallest first, and the candidates are their intersection") {
  std::uint64_t given = 0;
  FilterText text;
  text.moves = "1.e4";
  text.player = "morphy";
  const Plan plan = run(text, given);
  REQUIRE(plan.steps.size() == 2);
  CHECK(plan.steps[0].games <= plan.steps[1].games);
  const bool names_first = plan.steps[0].index == "names: player";
  CHECK(names_first);
  CHECK(plan.steps[1].index.starts_with("positions ("));
  CHECK(plan.candidates <= plan.steps[0].games);
  CHECK(plan.passed == given);
  CHECK(given == plan.candidates);
}

TEST_CASE("a sorted search examines every candidate before the first game") {
  std::uint64_t given = 0;
  FilterText text;
  text.player = "gukesh";
  text.min_elo = 2500;
  const Plan plan = run(text, given, pgndb::query::Order::DateDescending);
  CHECK(plan.order == "date, latest first");
  CHECK(plan.examined == plan.candidates);
  CHECK(plan.passed == given);
}

TEST_CASE(
    "a sorted material or pattern search counts each candidate once, and passes what it gives") {
  for (bool pattern : {false, true}) {
    INFO((pattern ? "pattern" : "material"));
    std::uint64_t given = 0;
    FilterText text;
    (pattern ? text.pattern : text.material) = pattern ? "*/*/*/*/4P3/*/*/*" : "r+p* r=p#";
    const Plan plan = run(text, given, pgndb::query::Order::DateDescending);
    CHECK(plan.examined == plan.candidates);
    CHECK(plan.passed == given);
    CHECK(given > 0);
    CHECK(given < plan.candidates);
  }
}

namespace {

// Six corpus files imported by three imports in batches of 150: several generations.
const Store& corpus_store() {
  static pgndb::test::TempDir dir;
  static const Store store = [] {
    const fs::path corpus = fs::path(PGNDB_SHARED_DATA) / "corpus";
    std::vector<std::string> imports;
    for (const auto& [a, b] :
         {std::pair{"Akobian.pgn", "Alekhine.pgn"}, std::pair{"Alekseev.pgn", "Almasi.pgn"},
          std::pair{"Morphy.pgn", "Breyer.pgn"}})
      imports.push_back("--batch 150 '" + (corpus / a).string() + "' '" + (corpus / b).string() +
                        "'");
    return imported(dir, imports);
  }();
  return store;
}

unsigned rating(const pgn::GameRecord& game, std::string_view tag) {
  const std::string* value = game.tag(tag);
  return value && !value->empty() && std::isdigit(static_cast<unsigned char>((*value)[0]))
             ? unsigned(std::stoul(*value))
             : 0;
}

}  // namespace

TEST_CASE("a position alone reads its games as needed: the same games as replaying every game") {
  const Store& store = corpus_store();
  REQUIRE(store.position_generations() >= 2);
  // The oracle: every game replayed, for the positions of the first plies of a few openings.
  const std::vector<std::string> openings = {"",        "1.e4",          "1.d4",
                                             "1.e4 c5", "1.d4 Nf6 2.c4", "1.e4 e5 2.Nf3 Nc6 3.Bb5"};
  std::vector<pgn::Position> positions;
  for (const std::string& moves : openings) {
    FilterText text;
    text.moves = moves;
    auto filters = pgndb::query::parse_filters(text);
    REQUIRE(filters);
    positions.push_back(filters->position.value_or(pgn::Position()));
  }
  std::vector<std::vector<std::uint32_t>> reaching(positions.size()), strong(positions.size());
  for (std::uint32_t id = 1; id <= store.game_count(); ++id) {
    auto game = store.game(id);
    REQUIRE(game);
    if (!(game->start == pgn::Position())) continue;
    std::vector<pgn::Key> keys = {pgn::repetition_key(game->start)};
    pgn::Position at = game->start;
    for (const auto& node : game->moves) {
      at.play_or_pass(node.move);
      keys.push_back(pgn::repetition_key(at));
    }
    const bool rated = rating(*game, "WhiteElo") >= 2600 && rating(*game, "BlackElo") >= 2600;
    for (std::size_t p = 0; p < positions.size(); ++p)
      if (std::find(keys.begin(), keys.end(), pgn::repetition_key(positions[p])) != keys.end()) {
        reaching[p].push_back(id);
        if (rated) strong[p].push_back(id);
      }
  }
  for (std::size_t p = 0; p < positions.size(); ++p) {
    INFO(openings[p]);
    for (const bool with_ratings : {false, true}) {
      FilterText text;
      text.moves = openings[p];
      text.fen = openings[p].empty() ? pgn::to_fen(pgn::Position()) : "";
      text.min_elo = with_ratings ? 2600 : 0;
      std::uint64_t given = 0;
      auto filters = pgndb::query::parse_filters(text);
      REQUIRE(filters);
      auto search = Search::start(store, *filters);
      REQUIRE(search);
      std::vector<std::uint32_t> ids;
      for (;;) {
        auto id = search->next();
        REQUIRE(id);
        if (!*id) break;
        ids.push_back(**id);
        // The first 20 games: only the candidates that gave them were read.
        if (ids.size() == 20 && reaching[p].size() > 2000) {
          CHECK(search->plan().read_as_needed);
          CHECK(search->plan().candidates < reaching[p].size() / 2);
        }
      }
      given = ids.size();
      CHECK(ids == (with_ratings ? strong[p] : reaching[p]));
      CHECK(search->plan().candidates == reaching[p].size());
      CHECK(search->plan().passed == given);
      // Counted without reading the games one by one.
      auto counted = Search::start(store, *filters);
      REQUIRE(counted);
      auto n = counted->count();
      REQUIRE(n);
      CHECK(*n == given);
    }
  }
}

namespace {

// The games of the samples whose replayed main line `accepts`, and the ply it gives for each.
std::vector<std::pair<std::uint32_t, unsigned>> replayed_matches(
    const std::function<std::optional<unsigned>(const pgn::GameRecord&)>& accepts) {
  std::vector<std::pair<std::uint32_t, unsigned>> out;
  const Store& store = samples_store();
  for (std::uint32_t id = 1; id <= store.game_count(); ++id) {
    auto game = store.game(id);
    REQUIRE(game);
    if (auto ply = accepts(*game)) out.emplace_back(id, *ply);
  }
  return out;
}

// The games and plies a search of the samples gives.
std::vector<std::pair<std::uint32_t, unsigned>> searched(const FilterText& text, Plan& plan) {
  return pgndb::test::searched(samples_store(), text, plan);
}

}  // namespace

TEST_CASE("a material search reads the balances' lists, then the histories: what replaying gives") {
  for (const char* spec : {"r*p* r*p*", "KRPvKR", "q*r*b2n0p* q=r=b0n2p=", "p3- p3-"}) {
    for (const bool either : {false, true}) {
      INFO(spec << (either ? " either colour" : ""));
      FilterText text;
      text.material = spec;
      text.either_colour = either;
      Plan plan;
      const auto found = searched(text, plan);
      const auto parsed = pgn::MaterialSpec::parse(spec);
      REQUIRE(parsed);
      const auto expected = replayed_matches([&](const pgn::GameRecord& game) {
        pgn::MaterialTracker tracker;
        pgn::Position pos = game.start;
        tracker.start(pos);
        for (const auto& node : game.moves) {
          pos.play_or_pass(node.move);
          tracker.played(pos);
        }
        return pgn::first_material_match(tracker.history(), *parsed, 2, either);
      });
      CHECK(found == expected);
      REQUIRE(!plan.steps.empty());
      CHECK(plan.steps.front().index == "postings: material");
      // The lists gave candidates the histories then refused (balances too short-lived), or none.
      CHECK(plan.candidates >= found.size());
      CHECK(plan.candidates < samples_store().game_count());
    }
  }
}

TEST_CASE("material lists are read an epoch at a time, among the games the other indexes give") {
  // The games of a search without material (no match ply), in order.
  const auto ids_of = [](const FilterText& text) {
    auto filters = pgndb::query::parse_filters(text);
    REQUIRE(filters);
    auto search = Search::start(samples_store(), *filters);
    REQUIRE(search);
    std::vector<std::uint32_t> out;
    for (;;) {
      auto id = search->next();
      REQUIRE(id);
      if (!*id) return out;
      out.push_back(**id);
    }
  };
  FilterText material;
  material.material = "r*p* r*p*";
  Plan alone;
  const auto with_material = searched(material, alone);
  REQUIRE(with_material.size() > 5);
  CHECK(alone.read_as_needed);
  CHECK(alone.epochs_read == samples_store().epochs());
  for (const char* player : {"Morphy", "Tal", "nobody of that name"}) {
    INFO(player);
    FilterText named;
    named.player = player;
    const auto games = ids_of(named);
    FilterText both = material;
    both.player = player;
    Plan plan;
    const auto found = searched(both, plan);
    std::vector<std::pair<std::uint32_t, unsigned>> expected;
    for (const auto& match : with_material)
      if (std::ranges::binary_search(games, match.first)) expected.push_back(match);
    CHECK(found == expected);
    REQUIRE(plan.steps.size() == 2);
    CHECK(plan.steps.front().index == "names: player");
    CHECK(plan.steps.back().index == "postings: material");
    // No game of the name: the material lists are not read.
    if (games.empty())
      CHECK(plan.steps.back().games == 0);
    else
      CHECK(plan.steps.back().games == alone.steps.front().games);
    CHECK(plan.candidates <= std::min<std::uint64_t>(games.size(), alone.candidates));
  }
  // A position's games read as needed are confirmed without the lists.
  FilterText at_position = material;
  at_position.moves = "e4 e5";
  Plan plan;
  const auto found = searched(at_position, plan);
  FilterText position;
  position.moves = "e4 e5";
  const auto games = ids_of(position);
  std::vector<std::pair<std::uint32_t, unsigned>> expected;
  for (const auto& match : with_material)
    if (std::ranges::binary_search(games, match.first)) expected.push_back(match);
  CHECK(found == expected);
  CHECK(!expected.empty());
  CHECK(std::ranges::none_of(
      plan.steps, [](const Plan::Step& s) { return s.index.starts_with("postings: material"); }));
}

TEST_CASE(
    "a pattern search prunes by material, pawns' squares, rooks' ranks and home pawns, then "
    "finds the board replaying") {
  struct Case {
    const char* pattern;
    bool either;
    const char* to_move;
  };
  for (const Case& c :
       {Case{"?????rk?/?????ppp/*/*/*/*/*/*", false, ""},
        Case{"*/*/*/*/*/*/*/??KR????", true, "black"}, Case{"6k1/5ppp/8/8/8/8/5PPP/6K1", false, ""},
        Case{"*/*/*/*/2P1P3/*/*/*", false, "white"}, Case{"*/*/*/[Pp]*[Pp]/*/*/*/*", false, ""},
        Case{"*/*/*/*/*/2P5/*/*", true, ""}, Case{"*/*R*/*/*/*/*/*/*", false, ""},
        Case{"*/*/*/*/*/*/r*/*", true, "white"}}) {
    INFO(c.pattern << (c.either ? " either" : "") << " " << c.to_move);
    FilterText text;
    (c.either ? text.pattern_either : text.pattern) = c.pattern;
    text.to_move = c.to_move;
    Plan plan;
    const auto found = searched(text, plan);
    const auto parsed = pgn::FenPattern::parse(c.pattern);
    REQUIRE(parsed);
    const pgn::FenPattern inverted = parsed->inverted();
    const auto expected =
        replayed_matches([&](const pgn::GameRecord& game) -> std::optional<unsigned> {
          pgn::Position pos = game.start;
          for (unsigned ply = 0;; ++ply) {
            const bool side = !*c.to_move || (std::string(c.to_move) == "white") ==
                                                 (pos.side_to_move() == pgn::White);
            if (side && (parsed->matches(pos) || (c.either && inverted.matches(pos)))) return ply;
            if (ply == game.moves.size()) return std::nullopt;
            pos.play_or_pass(game.moves[ply].move);
          }
        });
    CHECK(found == expected);
    // Only games whose pawns stood on each square the pattern needs a pawn on (of its colour,
    // or of either for `[Pp]`), and whose rooks on each rank it needs a rook on, at some ply,
    // were replayed: the squares read from the boards.
    std::size_t covering = 0;
    replayed_matches([&](const pgn::GameRecord& game) -> std::optional<unsigned> {
      pgn::Bitboard stood[2] = {0, 0};
      unsigned rook_ranks[2] = {0, 0};
      pgn::Position pos = game.start;
      for (unsigned ply = 0;; ++ply) {
        for (int sq = 0; sq < 64; ++sq) {
          const pgn::Piece piece = pos.piece_on(pgn::Square(sq));
          if (piece == pgn::NoPiece) continue;
          if (pgn::type_of(piece) == pgn::Pawn)
            stood[pgn::color_of(piece)] |= pgn::Bitboard(1) << sq;
          if (pgn::type_of(piece) == pgn::Rook) rook_ranks[pgn::color_of(piece)] |= 1u << sq / 8;
        }
        if (ply == game.moves.size()) break;
        pos.play_or_pass(game.moves[ply].move);
      }
      const auto reached = [&](const pgn::FenPattern& p) {
        return !(p.required(pgn::White, pgn::Pawn) & ~stood[pgn::White]) &&
               !(p.required(pgn::Black, pgn::Pawn) & ~stood[pgn::Black]) &&
               !(p.required_pawns() & ~(stood[pgn::White] | stood[pgn::Black])) &&
               !(p.required_ranks(pgn::White, pgn::Rook) & ~rook_ranks[pgn::White]) &&
               !(p.required_ranks(pgn::Black, pgn::Rook) & ~rook_ranks[pgn::Black]);
      };
      covering += reached(*parsed) || (c.either && reached(inverted));
      return std::nullopt;
    });
    INFO("replayed " << plan.replayed << ", pawns' squares and rooks' ranks reached " << covering);
    CHECK(plan.replayed >= found.size());
    CHECK(plan.replayed <= covering);
    // A game whose white rooks stood on the seventh has a board with one there: only the games
    // found are replayed.
    if (std::string_view(c.pattern) == "*/*R*/*/*/*/*/*/*") {
      CHECK(plan.replayed == found.size());
      CHECK(found.size() > 10);
    }
  }
}
