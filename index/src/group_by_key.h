// Groups a batch's entries (each a key over a place, as store.cpp's batch_entry) by key, keeping
// the entries' order within a key: a stable counting sort through a hash table of the distinct
// keys. For entries with few distinct keys, the material values (on the corpus, 4 million
// entries of 55,000 balances): sorting them as numbers put most in one of 256 parts (the
// balances of one White queen and two rooks), larger than the caches, and took five passes
// over it, 170 ms of the commit; two passes with a lookup each take a fifth of that.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace pgndb::index {

struct KeyGroups {
  std::vector<std::uint64_t> keys;  // the distinct keys, ascending
  // Key i's places are places[starts[i]] up to places[starts[i + 1]], in the entries' order.
  std::vector<std::size_t> starts;
  std::vector<std::uint32_t> places;
};

// `entries` are key << place_bits | place, with 0 < place_bits < 64 (a key is stored plus one)
// and places below 2^32.
[[nodiscard]] KeyGroups group_by_key(std::span<const std::uint64_t> entries, int place_bits);

}  // namespace pgndb::index
