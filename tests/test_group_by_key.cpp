// group_by_key (index/src/group_by_key.h) against std::stable_sort of the same entries.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "group_by_key.h"

namespace {

constexpr int place_bits = 24;

void require_groups_of(const std::vector<std::uint64_t>& entries) {
  std::vector<std::uint64_t> sorted = entries;
  std::stable_sort(sorted.begin(), sorted.end(), [](std::uint64_t a, std::uint64_t b) {
    return (a >> place_bits) < (b >> place_bits);
  });
  const auto groups = pgndb::index::group_by_key(entries, place_bits);
  REQUIRE(groups.starts.size() == groups.keys.size() + 1);
  REQUIRE(groups.places.size() == entries.size());
  CHECK(groups.starts.front() == 0);
  // The groups laid out again as entries: they must be the stably sorted entries.
  std::vector<std::uint64_t> laid_out;
  for (std::size_t k = 0; k < groups.keys.size(); ++k) {
    if (k) CHECK(groups.keys[k - 1] < groups.keys[k]);
    CHECK(groups.starts[k] < groups.starts[k + 1]);  // a key has at least one place
    for (std::size_t at = groups.starts[k]; at < groups.starts[k + 1]; ++at)
      laid_out.push_back(groups.keys[k] << place_bits | groups.places[at]);
  }
  CHECK(laid_out == sorted);
}

}  // namespace

TEST_CASE("group_by_key groups places by key, in their order within a key", "[batch]") {
  SECTION("nothing") { require_groups_of({}); }
  SECTION("one key") { require_groups_of({5ull << place_bits | 3, 5ull << place_bits | 1}); }
  std::mt19937_64 random(17);
  for (const std::uint64_t distinct : {3ull, 300ull, 100000ull}) {
    // Keys of 40 bits, a few of them most of the entries (as the material balances are), and
    // more distinct keys than the table's first size, so that it grows while counting.
    std::vector<std::uint64_t> keys(distinct);
    for (auto& key : keys) key = random() >> 24;
    std::vector<std::uint64_t> entries;
    for (std::uint32_t place = 0; place < 200000; ++place) {
      const std::uint64_t pick =
          random() % 4 ? random() % std::min<std::uint64_t>(distinct, 3) : random() % distinct;
      entries.push_back(keys[pick] << place_bits | (random() & ((1u << place_bits) - 1)));
    }
    INFO(distinct << " distinct keys");
    require_groups_of(entries);
  }
}
