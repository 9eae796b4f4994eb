// The query planner, linked directly: which index answers a search, in what order the sets are
// intersected, what is checked on the facts, and that the counts the plan reports are the
// games the search gives. The database is the samples, imported by the real pgndb.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "pgndb/index/store.h"
#include "pgndb/query/filters.h"
#include "pgndb/query/search.h"
#include "support.h"

namespace fs = std::filesystem;
using pgndb::index::Store;
using pgndb::query::FilterText;
using pgndb::query::Plan;
using pgndb::query::Search;

namespace {

const Store& samples_store() {
  static pgndb::test::TempDir dir;
  static const Store store = [] {
    const fs::path samples = fs::path(PGNDB_SOURCE_DIR) / "samples";
    const auto r =
        pgndb::test::run_command(std::string(PGNDB_BINARY) + " import --db '" +
                                 (dir / "db").string() + "' '" + samples.string() + "'/*.pgn");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    auto opened = Store::open((dir / "db").string(), {.create_if_missing = false});
    REQUIRE(opened);
    return std::move(*opened);
  }();
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

TEST_CASE("a name answers from the names index; result and ratings are checked on the facts") {
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

TEST_CASE("a date alone is answered by its metadata range, not by reading every summary") {
  std::uint64_t given = 0;
  FilterText text;
  text.date = "1850..1870";
  const Plan plan = run(text, given);
  REQUIRE(plan.steps.size() == 1);
  CHECK(plan.steps[0].index == "metadata: date");
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
