// The position index's generations (index/src/position_generations.h): the stored list reads
// back, damaged lists are refused, and the merge policy keeps both the rewrites of an entry and
// the generations a lookup reads within their logarithmic bounds as a database grows.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "position_generations.h"
#include "position_runs.h"

namespace positions = pgndb::index::positions;
using positions::Generation;
using positions::Generations;

TEST_CASE("a generation key holds its generation and bucket, in key order") {
  const std::string a = positions::generation_key(7, 5), b = positions::generation_key(7, 6),
                    c = positions::generation_key(8, 0);
  CHECK(a.size() == positions::generation_key_size);
  CHECK((a < b && b < c));
  auto parsed = positions::parse_generation_key(positions::generation_key(0x01020304, 0x3FFFF));
  REQUIRE(parsed);
  CHECK(parsed->generation == 0x01020304);
  CHECK(parsed->bucket == 0x3FFFF);
  CHECK_FALSE(positions::parse_generation_key(a.substr(0, 6)));
  CHECK_FALSE(positions::parse_generation_key(a + '\0'));
  // A bucket beyond the 2^18 there are.
  CHECK_FALSE(positions::parse_generation_key(std::string("\0\0\0\1\x04\0\0", 7)));
}

TEST_CASE("a list of generations reads back, and damaged lists are refused") {
  Generations g;
  g.next_id = 300;
  g.live = {{1, 5'000'000'000}, {17, 3}, {299, 1'600'000}};
  auto read = Generations::decode(g.encode());
  REQUIRE(read);
  CHECK(*read == g);
  CHECK(read->entries() == 5'001'600'003);
  const std::string bytes = g.encode();
  CHECK_FALSE(Generations::decode(bytes.substr(0, bytes.size() - 1)));
  CHECK_FALSE(Generations::decode(bytes + '\0'));
  // Ids out of order, or not below the next id.
  CHECK_FALSE(Generations::decode(Generations{10, {{5, 1}, {4, 1}}}.encode()));
  CHECK_FALSE(Generations::decode(Generations{5, {{5, 1}}}.encode()));
  CHECK(Generations::decode(Generations{}.encode()));
}

TEST_CASE("size tiers are powers of 4 of 2^16 entries") {
  CHECK(positions::tier_of(0) == 0);
  CHECK(positions::tier_of((4 << 16) - 1) == 0);
  CHECK(positions::tier_of(4 << 16) == 1);
  CHECK(positions::tier_of((16 << 16) - 1) == 1);
  CHECK(positions::tier_of(16 << 16) == 2);
  CHECK(positions::tier_of(1'600'000) == 2);  // a batch of 20,000 games
  CHECK(positions::tier_of(std::uint64_t(1) << 40) == 12);
}

namespace {

// Grows an index batch by batch as an import does (committing, then merging what the policy
// picks), and reports the most generations a lookup saw and how often an entry was rewritten.
struct Growth {
  std::size_t most_generations = 0;
  double rewrites_per_entry = 0;
  Generations final;
};

Growth grow(std::uint64_t batches, std::uint64_t entries_per_batch) {
  Growth growth;
  Generations g;
  std::uint64_t written = 0, rewritten = 0;
  for (std::uint64_t b = 0; b < batches; ++b) {
    g.live.push_back({g.next_id++, entries_per_batch});
    written += entries_per_batch;
    for (auto ids = positions::pick_merge(g); !ids.empty(); ids = positions::pick_merge(g)) {
      REQUIRE(ids.size() >= positions::merge_fan_in);
      std::uint64_t merged = 0;
      for (auto id : ids) {
        auto at = std::find_if(g.live.begin(), g.live.end(),
                               [id](const Generation& l) { return l.id == id; });
        REQUIRE(at != g.live.end());
        merged += at->entries;
        g.live.erase(at);
      }
      rewritten += merged;
      g.live.push_back({g.next_id++, merged});
    }
    growth.most_generations = std::max(growth.most_generations, g.live.size());
  }
  growth.rewrites_per_entry = double(rewritten) / double(written);
  growth.final = g;
  return growth;
}

}  // namespace

TEST_CASE("merges keep lookups and rewrites logarithmic as the index grows") {
  // 5 million games in batches of 20,000 (1.6 M entries each): 250 batches.
  const Growth five_million = grow(250, 1'600'000);
  CHECK(five_million.final.entries() == 250 * 1'600'000ull);
  // Tiers 2 to 6 (1.6 M to 400 M entries), at most 15 generations in each.
  CHECK(five_million.most_generations <= 30);
  CHECK(five_million.rewrites_per_entry <= 1.0);
  // 100 million games: each entry rewritten about log16(8e9 / 1.6e6) = 3 times.
  const Growth hundred_million = grow(5000, 1'600'000);
  CHECK(hundred_million.most_generations <= 46);
  CHECK(hundred_million.rewrites_per_entry <= 3.0);
  // The corpus, 12 batches: no merge before the import's end.
  CHECK(grow(12, 1'540'000).rewrites_per_entry == 0);
  // Small appends (1,000 games, 81,000 entries) merge among themselves, not into the big ones.
  Generations g = five_million.final;
  const std::size_t before = g.live.size();
  g.live.push_back({g.next_id++, 81'000});
  CHECK(positions::pick_merge(g).empty());
  CHECK(g.live.size() == before + 1);
}

TEST_CASE("an import's own generations wait for its end, unless 64 of them share a tier") {
  // An older generation and 15 of a running import, all of one tier: the older one merges with
  // none of them, and the import's 15 wait.
  Generations g;
  for (int i = 0; i < 16; ++i) g.live.push_back({g.next_id++, 4'000'000});
  const std::uint32_t first_own = 2;
  CHECK(positions::pick_merge(g, first_own).empty());
  CHECK(positions::pick_merge(g).size() == 16);  // no import running: the tier's 16 merge
  // 63 own ones of one tier wait; the 64th makes them merge, and only them.
  for (int i = 0; i < 48; ++i) g.live.push_back({g.next_id++, 4'000'000});
  CHECK(g.live.size() == 64);
  CHECK(positions::pick_merge(g, first_own).empty());
  g.live.push_back({g.next_id++, 4'000'000});
  const auto ids = positions::pick_merge(g, first_own);
  CHECK(ids.size() == positions::own_merge_fan_in);
  CHECK(std::all_of(ids.begin(), ids.end(), [&](std::uint32_t id) { return id >= first_own; }));
  // Older generations still merge among themselves while an import runs.
  Generations older;
  for (int i = 0; i < 16; ++i) older.live.push_back({older.next_id++, 100'000});
  older.live.push_back({older.next_id++, 100'000});
  CHECK(positions::pick_merge(older, 17).size() == 16);
}
