// The batch's in-place sort (index/src/sort_numbers.h) against std::sort, on the shapes a batch
// gives it and on the ones that stress its two steps: every number in one part of the top 8
// bits, all numbers equal, parts of one number, the extremes of 64 bits, and a batch of
// position entries (popular keys over many games, places ascending).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "sort_numbers.h"

using pgndb::index::sort_in_place;

namespace {

void check_sorts(std::vector<std::uint64_t> numbers) {
  std::vector<std::uint64_t> expected = numbers;
  std::sort(expected.begin(), expected.end());
  sort_in_place(numbers);
  REQUIRE(numbers == expected);
}

}  // namespace

TEST_CASE("sort_in_place sorts as std::sort does", "[sort]") {
  std::mt19937_64 random(20261205);
  SECTION("nothing, one number, two") {
    check_sorts({});
    check_sorts({42});
    check_sorts({std::numeric_limits<std::uint64_t>::max(), 0});
  }
  SECTION("random numbers over all 64 bits") {
    std::vector<std::uint64_t> numbers(200'000);
    for (auto& n : numbers) n = random();
    check_sorts(numbers);
  }
  SECTION("all in one part of the top 8 bits, differing only in their lowest bits") {
    std::vector<std::uint64_t> numbers(100'000);
    for (auto& n : numbers) n = (std::uint64_t(0xA7) << 56) | (random() & 0xFFF);
    check_sorts(numbers);
  }
  SECTION("all equal, and each part a single value") {
    check_sorts(std::vector<std::uint64_t>(50'000, 0x0123456789ABCDEFull));
    std::vector<std::uint64_t> numbers;
    for (int i = 0; i < 60'000; ++i) numbers.push_back(std::uint64_t(random() % 256) << 56 | 7);
    check_sorts(numbers);
  }
  SECTION("already sorted, and sorted backwards") {
    std::vector<std::uint64_t> numbers(100'000);
    for (auto& n : numbers) n = random();
    std::sort(numbers.begin(), numbers.end());
    check_sorts(numbers);
    std::reverse(numbers.begin(), numbers.end());
    check_sorts(numbers);
  }
  SECTION("a batch's position entries: 40 key bits over the place, popular keys repeated") {
    std::vector<std::uint64_t> popular(500);
    for (auto& key : popular) key = random() >> 24;
    std::vector<std::uint64_t> numbers;
    for (std::uint64_t place = 0; place < 20'000; ++place)
      for (int ply = 0; ply < 60; ++ply) {
        const std::uint64_t key = ply < 12 ? popular[random() % (1 + ply * 40)] : random() >> 24;
        numbers.push_back(key << 24 | place);
      }
    check_sorts(numbers);
  }
}
