// Searches by part of a name through the name index (index/src/name_index.h): every name found
// by its fragments equals what reading every name and looking for the key in it finds, over
// names of every shape (accents, other scripts, short names, punctuation), written by several
// imports in small batches so that names come back; and the counts of names and players that
// `pgndb stats` reads.
#include <re2/re2.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "pgndb/index/importer.h"
#include "pgndb/index/names.h"
#include "pgndb/index/store.h"
#include "pgndb/index/verify.h"
#include "pgndb/query/filters.h"
#include "pgndb/query/search.h"
#include "support.h"

namespace fs = std::filesystem;
using pgndb::index::Store;
using Dimension = Store::NameDimension;

namespace {

// Names as archives write them, and the awkward ones.
const std::vector<std::string> awkward_names = {
    "Li, Chao",
    "Xu, Y",
    "Ng",
    "Ö",
    "Nepomniachtchi, Ian",
    "Carlsen, Magnus",
    "Carlsen,M.",
    "Vachier-Lagrave, Maxime",
    "Дубов, Даниил",
    "丁立人",
    "Ding Liren",
    "Ånd, Ærø",
    "Łukasz Żółw",
    "abcxbcd",
    "O'Kelly",
    "van der Wiel, John",
    "So, Wesley",
    "AAAA",
    "aaa",
    "Müller, Karl",
};

std::string game(const std::string& white, const std::string& black, const std::string& event,
                 int round) {
  return "[Event \"" + event + "\"]\n[Site \"Site " + std::to_string(round % 7) + "\"]\n[Round \"" +
         std::to_string(round) + "\"]\n[White \"" + white + "\"]\n[Black \"" + black +
         "\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
}

// What the index must answer, found the slow way: the key looked for, with std::string::find,
// in the search key of each of the dimension's names.
std::vector<std::string> by_reading_every_name(const Store& store, Dimension dimension,
                                               const std::string& key) {
  auto values = store.name_values(dimension);
  REQUIRE(values);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < (*values)->size(); ++i) {
    const std::string name((**values)[i]);
    if (pgndb::index::name_search_key(name).find(key) != std::string::npos) out.push_back(name);
  }
  return out;
}

}  // namespace

// The database of both tests: the samples and the awkward names, in three imports of batches
// of 37 games, then the awkward names imported again.
std::string names_database(const pgndb::test::TempDir& dir) {
  const fs::path samples = fs::path(PGNDB_SOURCE_DIR) / "samples";
  std::string awkward;
  std::mt19937 random(7);
  for (int round = 0; round < 120; ++round) {
    const auto& white = awkward_names[random() % awkward_names.size()];
    const auto& black = awkward_names[random() % awkward_names.size()];
    awkward +=
        game(white, black, round % 2 ? "Ölympiad " + std::to_string(round % 5) : "Open", round);
  }
  pgndb::test::write_file(dir / "awkward.pgn", awkward);
  const std::string db = (dir / "db").string();
  {
    auto store = Store::open(db, {});
    REQUIRE(store);
    pgndb::index::ImportOptions options;
    options.threads = 1;
    options.batch_games = 37;  // names come back in later batches
    for (const fs::path& file :
         {samples / "Tal-100.pgn", dir / "awkward.pgn", samples / "Morphy-100.pgn"}) {
      auto imported = pgndb::index::import_file(*store, file.string(), options);
      REQUIRE(imported);
      REQUIRE(store->settle().is_ok());
    }
  }
  // A second import of the same names adds none.
  {
    auto store = Store::open(db, {});
    REQUIRE(store);
    const auto before = store->stats();
    REQUIRE(before);
    auto imported = pgndb::index::import_file(*store, (dir / "awkward.pgn").string(), {});
    REQUIRE(imported);
    const auto after = store->stats();
    REQUIRE(after);
    CHECK(after->players == before->players);
  }
  return db;
}

TEST_CASE("a search by part of a name finds what reading every name finds") {
  pgndb::test::TempDir dir;
  const std::string db = names_database(dir);
  auto store = Store::open(db, {.create_if_missing = false, .read_only = true});
  REQUIRE(store);

  // Keys: every piece of 1 to 6 bytes of every name's search key, and keys no name holds.
  for (Dimension dimension : {Dimension::Player, Dimension::Event, Dimension::Site}) {
    auto values = store->name_values(dimension);
    REQUIRE(values);
    REQUIRE((*values)->size() > 3);
    std::set<std::string> keys = {"zzzq", "carlsenx", "abcd", "xbc", "bcx"};
    for (std::size_t i = 0; i < (*values)->size(); ++i) {
      const std::string search_key = pgndb::index::name_search_key((**values)[i]);
      for (std::size_t from = 0; from < search_key.size(); ++from)
        for (std::size_t length = 1; length <= 6 && from + length <= search_key.size(); ++length)
          keys.insert(search_key.substr(from, length));
      keys.insert(search_key);
    }
    std::size_t found_some = 0;
    for (const std::string& key : keys) {
      INFO("key '" << key << "'");
      auto found = store->names_containing(dimension, key);
      REQUIRE(found);
      CHECK(*found == by_reading_every_name(*store, dimension, key));
      found_some += !found->empty();
    }
    CHECK(found_some > keys.size() / 2);
  }
  // "abcd" has every fragment in "abcxbcd" and is not in it.
  auto abcd = store->names_containing(Dimension::Player, "abcd");
  REQUIRE(abcd);
  CHECK(abcd->empty());
  auto cyrillic = store->names_containing(
      Dimension::Player, pgndb::index::name_search_key(pgndb::index::normalize_name("Дубов")));
  REQUIRE(cyrillic);
  CHECK(*cyrillic == std::vector<std::string>{pgndb::index::normalize_name("Дубов, Даниил")});

  // The player count is the number of distinct normalised player names.
  const auto stats = store->stats();
  REQUIRE(stats);
  auto players = store->name_values(Dimension::Player);
  REQUIRE(players);
  CHECK(stats->players == (*players)->size());
  auto report = pgndb::index::verify_store(*store);
  REQUIRE(report);
  INFO(pgndb::test::listing(*report));
  CHECK(report->consistent());
  CHECK(report->name_index > 0);
}

// A regular expression is answered from the names holding the literal pieces it needs (RE2's
// FilteredRE2 names them), or from every name when it needs none: the games equal those of the
// names that reading every name and matching each finds.
TEST_CASE("a search by regular expression finds what matching every name finds") {
  pgndb::test::TempDir dir;
  const std::string db = names_database(dir);
  auto store = Store::open(db, {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  auto players = store->name_values(Dimension::Player);
  REQUIRE(players);
  std::size_t some = 0;
  for (const std::string pattern :
       {"^carlsen", "carlsen|anand", "ov(a|ic)?$", "^k.*v$", "a+b", "DING", "ding liren", "дубов",
        "x{3}", ".", "^m", "tal", "(morphy|anderssen), [a-z]", "^[^,]*$", "ze?ro", "m.ller",
        "abcd|abcx", "ng$", "o'k"}) {
    INFO("pattern '" << pattern << "'");
    pgndb::query::FilterText text;
    text.player_re = pattern;
    auto filters = pgndb::query::parse_filters(text);
    REQUIRE(filters);
    auto search = pgndb::query::Search::start(*store, *filters);
    REQUIRE(search);
    std::vector<std::uint32_t> found;
    for (;;) {
      auto id = search->next();
      REQUIRE(id);
      if (!*id) break;
      found.push_back(**id);
    }
    // Every name matched, and its games as either colour.
    std::vector<std::uint32_t> expected;
    for (std::size_t i = 0; i < (*players)->size(); ++i) {
      if (!re2::RE2::PartialMatch((**players)[i], *filters->player_re)) continue;
      auto games = store->games_named(Dimension::Player, (**players)[i]);
      REQUIRE(games);
      expected.insert(expected.end(), games->begin(), games->end());
    }
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
    CHECK(found == expected);
    some += !found.empty();
  }
  CHECK(some > 10);
}
