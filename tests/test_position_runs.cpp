// The position index's runs (index/src/position_runs.h): folding sorted runs gives the sorted
// union of their entries, as std::set computes it; damaged or out-of-order bytes are refused.
#include <catch2/catch.hpp>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "position_runs.h"

using pgndb::index::positions::decode_run;
using pgndb::index::positions::encode_run;
using pgndb::index::positions::Entry;
using pgndb::index::positions::RunFolder;

namespace {

// A sorted run of `size` random entries with few distinct suffixes (so that entries share
// them, as positions of one bucket do) and game ids in [first_game, first_game + span).
std::vector<Entry> random_run(std::mt19937& random, std::size_t size, std::uint32_t first_game,
                              std::uint32_t span) {
  std::uniform_int_distribution<std::uint32_t> suffix(0, 40),
      game(first_game, first_game + span - 1);
  std::set<Entry> set;
  while (set.size() < size) set.insert({suffix(random) * 409'000u, game(random)});
  return {set.begin(), set.end()};
}

std::string encoded(const std::vector<Entry>& run) {
  std::string out;
  encode_run(run, out);
  return out;
}

}  // namespace

TEST_CASE("a run decodes to the entries it was encoded from") {
  std::mt19937 random(1);
  for (std::size_t size : {0, 1, 2, 50, 300}) {
    const auto run = random_run(random, size, 1, 100'000);
    std::vector<Entry> decoded;
    REQUIRE(decode_run(encoded(run), decoded));
    CHECK(decoded == run);
  }
}

TEST_CASE("folding runs gives the sorted union of their entries, repeats once") {
  std::mt19937 random(2);
  RunFolder folder;
  for (int trial = 0; trial < 200; ++trial) {
    // Batches of an import have disjoint, rising game ids; an existing value and operands of a
    // partial merge may overlap, so some trials draw every run from the same ids.
    const bool overlapping = trial % 3 == 0;
    const int runs = 1 + trial % 13;
    std::set<Entry> expected;
    for (int r = 0; r < runs; ++r) {
      const auto run = random_run(random, 1 + std::size_t(random() % 60),
                                  overlapping ? 1 : 1 + 1000 * std::uint32_t(r), 1000);
      expected.insert(run.begin(), run.end());
      REQUIRE(folder.add(encoded(run)));
    }
    std::string out;
    folder.fold(out);
    std::vector<Entry> folded;
    REQUIRE(decode_run(out, folded));
    CHECK(folded == std::vector<Entry>(expected.begin(), expected.end()));
  }
}

TEST_CASE("bytes that are not a sorted run are refused") {
  const std::vector<Entry> run = {{5, 10}, {5, 12}, {9, 3}};
  std::vector<Entry> out;
  const std::string good = encoded(run);
  REQUIRE(decode_run(good, out));
  // Truncated, or with a byte left over.
  CHECK_FALSE(decode_run(good.substr(0, good.size() - 1), out));
  CHECK_FALSE(decode_run(good + '\0', out));
  // A suffix lower than the one before, and one repeated with the same game.
  CHECK_FALSE(decode_run(encoded({{9, 3}, {5, 10}}), out));
  CHECK_FALSE(decode_run(encoded({{5, 10}, {5, 10}}), out));
  // After a refused run the folder holds nothing of the runs added before it.
  RunFolder folder;
  REQUIRE(folder.add(good));
  CHECK_FALSE(folder.add(good.substr(0, 3)));
  REQUIRE(folder.add(encoded({{1, 1}})));
  std::string folded;
  folder.fold(folded);
  out.clear();
  REQUIRE(decode_run(folded, out));
  CHECK(out == std::vector<Entry>{{1, 1}});
}
