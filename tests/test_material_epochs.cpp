// Material and pattern searches across epochs of the postings (2^20 game ids each), which a
// search reads one at a time as it needs games (Search::read_epoch). Opt-in ([.full]): the
// database is the shared corpus imported five times, 1.1 M games in two epochs, each copy's
// games the same as the corpus's, so a search there must give the corpus's games five times,
// each copy's ids shifted by the corpus's size. The copies do not end where an epoch does: the
// second epoch starts inside the fifth copy.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "pgndb/index/store.h"
#include "pgndb/query/filters.h"
#include "search_support.h"
#include "support.h"

namespace fs = std::filesystem;
using pgndb::index::Store;
using pgndb::query::FilterText;
using pgndb::query::Plan;

namespace {

constexpr int copies = 5;

// The corpus imported into `dir` / "db" by the real pgndb `times` times, each copy a file of its
// own (a `%` line, which PGN readers skip, makes each copy's bytes differ: an import skips a file
// it has imported whole).
Store imported_corpus(const pgndb::test::TempDir& dir, int times) {
  const std::string corpus = pgndb::test::pgn_files_joined(fs::path(PGNDB_SHARED_DATA) / "corpus");
  for (int k = 0; k < times; ++k) {
    const fs::path copy = dir / "copy.pgn";
    pgndb::test::write_file(copy, "% copy " + std::to_string(k) + "\n" + corpus);
    const auto r = pgndb::test::run_command(std::string(PGNDB_BINARY) + " import --db '" +
                                            (dir / "db").string() + "' '" + copy.string() + "'");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    fs::remove(copy);
  }
  auto opened = Store::open((dir / "db").string(), {.create_if_missing = false});
  REQUIRE(opened);
  return std::move(*opened);
}

}  // namespace

TEST_CASE("material searches over two epochs give each copy's games, reading the epochs as needed",
          "[.full]") {
  pgndb::test::TempDir one_dir, five_dir;
  const Store one = imported_corpus(one_dir, 1);
  const Store five = imported_corpus(five_dir, copies);
  const std::uint32_t n = one.game_count();
  REQUIRE(five.game_count() == copies * n);
  REQUIRE(one.epochs() == 1);
  REQUIRE(five.epochs() == 2);
  struct Case {
    const char* material;
    const char* pattern;
    bool either;
  };
  for (const Case& c : {Case{"KRPvKR", "", false}, Case{"q?r*b*n*p* q#r*b*n*p*", "", true},
                        Case{"r+p* r=p#", "", false}, Case{"4 qr*b*n*p* r*b*n*p*", "", true},
                        Case{"", "*/*R*/*/*/*/*/*/*", false}}) {
    INFO(c.material << c.pattern << (c.either ? " either" : ""));
    FilterText text;
    text.material = c.material;
    text.either_colour = c.either;
    text.pattern = c.pattern;
    Plan unused, first;
    const auto in_one = pgndb::test::searched(one, text, unused);
    REQUIRE(in_one.size() > 20);
    std::vector<std::pair<std::uint32_t, unsigned>> expected;
    for (std::uint32_t k = 0; k < copies; ++k)
      for (const auto& [id, ply] : in_one) expected.emplace_back(id + k * n, ply);
    CHECK(pgndb::test::searched(five, text, first, 20) == expected);
    // The first 20 games, all in the first copy, came from the first epoch's lists alone. The
    // pattern names no more pieces than the initial position holds: it reads no lists, and
    // replays each game (Search::start says why).
    const bool lists = *c.material;
    CHECK(first.epochs_read == (lists ? 1u : 0u));
    CHECK(first.read_as_needed == lists);
  }
}
