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
  while (set.size() < size) set.insert({suffix(random) * 102'000u, game(random)});
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

TEST_CASE("runs at the limits of their fields decode") {
  using pgndb::index::positions::suffix_mask;
  for (const std::vector<Entry>& run :
       {std::vector<Entry>{{0, 1}}, std::vector<Entry>{{suffix_mask, 0xFFFFFFFF}},
        std::vector<Entry>{{0, 0}, {0, 0xFFFFFFFF}, {suffix_mask, 7}},
        std::vector<Entry>{
            {3, 1}, {3, 2}, {3, 3}, {4, 1}, {suffix_mask - 1, 9}, {suffix_mask, 2}}}) {
    std::vector<Entry> decoded;
    REQUIRE(decode_run(encoded(run), decoded));
    CHECK(decoded == run);
  }
}

TEST_CASE("a run costs about the information of its entries") {
  // 70 positions of a bucket (the corpus's mean), each in one game of 227,000: 22 bits of
  // suffix spread over 70 values (about 16 bits of gap) and 18 bits of game: under 40 bits.
  std::mt19937 random(3);
  std::uniform_int_distribution<std::uint32_t> suffix(0, pgndb::index::positions::suffix_mask),
      game(1, 227'000);
  std::set<Entry> set;
  while (set.size() < 70) set.insert({suffix(random), game(random)});
  const std::string rare = encoded({set.begin(), set.end()});
  CHECK(rare.size() * 8 < 70 * 40);
  // A popular position: 10,000 games in a row cost two bits each.
  std::vector<Entry> popular;
  for (std::uint32_t g = 1; g <= 10'000; ++g) popular.push_back({12345, g});
  CHECK(encoded(popular).size() <= 2 * 10'000 / 8 + 8);
}

TEST_CASE("bytes that are not a run are refused") {
  const std::vector<Entry> run = {{5, 10}, {5, 12}, {9, 3}};
  std::vector<Entry> out;
  const std::string good = encoded(run);
  REQUIRE(decode_run(good, out));
  // Truncated, or with a byte left over.
  CHECK_FALSE(decode_run(good.substr(0, good.size() - 1), out));
  CHECK_FALSE(decode_run(good + '\0', out));
  // A count larger than the entries written, a Rice parameter beyond the suffix's width, a game
  // width of 0 or over 32 bits, padding bits that are not zero.
  std::string longer = good;
  longer[0] = char(4);
  CHECK_FALSE(decode_run(longer, out));
  for (std::size_t at : {1, 2})
    for (char bad : {char(0), char(33), char(40)}) {
      if (at == 1 && bad == 0) continue;  // k = 0 is a valid parameter
      std::string damaged = good;
      damaged[at] = bad;
      CHECK_FALSE(decode_run(damaged, out));
    }
  // The three entries take 20 bits (k = 2, w = 4: 4 + 4, then 1 + 3, then 1 + 3 + 4), so the
  // last byte ends in four bits of padding.
  REQUIRE(good.size() == 1 + 2 + 3);
  std::string padded = good;
  padded.back() = char(padded.back() | 1);
  CHECK_FALSE(decode_run(padded, out));
  // A failed decoding leaves `out` as it was.
  out = {{1, 1}};
  CHECK_FALSE(decode_run(good.substr(0, good.size() - 1), out));
  CHECK(out == std::vector<Entry>{{1, 1}});
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
