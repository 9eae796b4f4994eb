// The position index's runs (index/src/position_runs.h): folding sorted runs gives the sorted
// union of their entries, as std::set computes it; damaged or out-of-order bytes are refused; a
// run read entry by entry, and generations' ids merged a few at a time (ascending_merge.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ascending_merge.h"
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
  // A position 1,000 of the 227,000 games reached, spread over them: distances of about 227
  // cost log2(227) + 1.5, under 10 bits each (the gamma codes of schema 24 spent about 16).
  std::set<std::uint32_t> ids;
  while (ids.size() < 1'000) ids.insert(game(random));
  std::vector<Entry> spread;
  for (std::uint32_t id : ids) spread.push_back({777, id});
  CHECK(encoded(spread).size() * 8 < 1'000 * 10);
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
  // The three entries take 21 bits (k = 2, w = 4; the group of suffix 5: 4 + 3 + 4, then its
  // second game's distance less one, 1, as a Rice code of r = bit_width((15 - 10) / 2) - 1 = 1:
  // 2; the group of suffix 9: 3 + 1 + 4), so the last byte ends in three bits of padding.
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

TEST_CASE("runs of schema 9 to 24, without groups, are still read and fold into grouped ones") {
  // {5, 10}, {5, 12}, {9, 3} as schema 24 wrote them, worked out by hand from its layout: count
  // 3, k = 2, w = 4, then 1001 (suffix 5: quotient 1, low bits 01) 1010 (game 10), 1 010 (same
  // suffix, the distance 2 as a gamma code), 0 011 0011 (suffix 9: gap 3; game 3), padding.
  const std::string schema24("\x03\x02\x04\x9A\xA3\x30", 6);
  const std::vector<Entry> entries = {{5, 10}, {5, 12}, {9, 3}};
  std::vector<Entry> decoded;
  REQUIRE(decode_run(schema24, decoded));
  CHECK(decoded == entries);
  // The encoder writes groups now: the same entries, another byte k.
  const std::string grouped = encoded(entries);
  CHECK(grouped != schema24);
  CHECK(std::uint8_t(grouped[1]) == (0x80 | 2));
  RunFolder folder;
  REQUIRE(folder.add(schema24));
  REQUIRE(folder.add(encoded({{5, 11}, {7, 1}})));
  std::string folded;
  folder.fold(folded);
  decoded.clear();
  REQUIRE(decode_run(folded, decoded));
  CHECK(decoded == std::vector<Entry>{{5, 10}, {5, 11}, {5, 12}, {7, 1}, {9, 3}});
  // Cut short, it is refused.
  CHECK_FALSE(decode_run(schema24.substr(0, 5), decoded));
}

TEST_CASE("a group's count and games are checked against the run") {
  // One group of three games: more games than the run's count, or a distance past the largest
  // id w bits hold, are refused.
  const std::string good = encoded({{7, 1}, {7, 2}, {7, 3}});
  std::vector<Entry> out;
  REQUIRE(decode_run(good, out));
  std::string fewer = good;
  fewer[0] = char(2);  // the group says 3 games, the run 2
  CHECK_FALSE(decode_run(fewer, out));
  // A width of 1 instead of 2 reads the bits otherwise and runs out of them.
  std::string narrower = good;
  narrower[2] = char(1);
  CHECK_FALSE(decode_run(narrower, out));
}

TEST_CASE("a run read entry by entry gives its entries in order, and stops where it is damaged") {
  using pgndb::index::positions::RunReader;
  std::mt19937 random(4);
  const auto run = random_run(random, 200, 1, 50'000);
  const std::string bytes = encoded(run);
  RunReader reader;
  REQUIRE(reader.open(bytes));
  CHECK(reader.remaining() == run.size());
  std::vector<Entry> read;
  Entry e;
  // Stopped half-way, it has given the first half and reads on from there.
  while (read.size() < 100 && reader.next(e)) read.push_back(e);
  CHECK(std::equal(read.begin(), read.end(), run.begin()));
  CHECK_FALSE(reader.clean_end());
  while (reader.next(e)) read.push_back(e);
  CHECK(read == run);
  CHECK(reader.clean_end());
  CHECK_FALSE(reader.damaged());
  // Cut short, it gives the entries its bytes hold whole, then reports the damage.
  REQUIRE(reader.open(std::string_view(bytes).substr(0, bytes.size() / 2)));
  read.clear();
  while (reader.next(e)) read.push_back(e);
  CHECK(reader.damaged());
  CHECK(read.size() < run.size());
  CHECK(std::equal(read.begin(), read.end(), run.begin()));
  CHECK_FALSE(reader.open(std::string(1, char(5))));  // a count, and nothing after it
}

namespace {

// A stream of take_ascending over a sorted vector; `fail_at` ids in, it cannot be read.
struct VectorStream {
  std::vector<std::uint32_t> ids;
  std::size_t at = 0, fail_at = ~std::size_t(0);
  std::uint32_t head = 0;
  bool live = false;
  bool advance() {
    if (at == fail_at) return false;
    live = at < ids.size();
    if (live) head = ids[at++];
    return true;
  }
};

}  // namespace

TEST_CASE("ascending streams of different ids merge into one ascending list, a few at a time") {
  using pgndb::index::take_ascending;
  std::mt19937 random(5);
  for (int trial = 0; trial < 300; ++trial) {
    // Ids dealt to 1-8 streams: in stretches (as generations hold them) or one by one at random
    // (interleaved, as merges of generations that were not neighbours leave them).
    const std::size_t streams = 1 + random() % 8, total = random() % 400;
    std::vector<std::unique_ptr<VectorStream>> s;
    for (std::size_t i = 0; i < streams; ++i) s.push_back(std::make_unique<VectorStream>());
    std::set<std::uint32_t> all;
    while (all.size() < total) all.insert(std::uint32_t(random()));
    const bool stretches = trial % 2 == 0;
    std::size_t dealt = 0;
    for (const std::uint32_t id : all) {
      const std::size_t to =
          stretches ? dealt * streams / std::max<std::size_t>(total, 1) : random() % streams;
      s[to]->ids.push_back(id);
      ++dealt;
    }
    if (stretches) std::shuffle(s.begin(), s.end(), random);
    for (auto& stream : s) REQUIRE(stream->advance());
    std::erase_if(s, [](const auto& stream) { return !stream->live; });
    std::vector<std::uint32_t> merged;
    const std::size_t chunk = 1 + random() % 50;
    for (;;) {
      std::size_t taken = 0;
      REQUIRE(take_ascending(s, chunk, merged, taken));
      CHECK(taken <= chunk);
      if (taken < chunk) break;
    }
    CHECK(merged == std::vector<std::uint32_t>(all.begin(), all.end()));
  }
  // A stream that cannot be read stops the merge with false.
  std::vector<std::unique_ptr<VectorStream>> s;
  s.push_back(std::make_unique<VectorStream>(VectorStream{{1, 2, 3}, 0, 2}));
  REQUIRE(s[0]->advance());
  std::vector<std::uint32_t> merged;
  std::size_t taken = 0;
  CHECK_FALSE(take_ascending(s, 10, merged, taken));
  CHECK(merged == std::vector<std::uint32_t>{1, 2});
}
