#include "value_postings.h"

#include <algorithm>
#include <utility>

#include "metadata_keys.h"

namespace pgndb::index::postings {

bool holds(char dimension) { return metadata::value_size(dimension) > 0; }

std::string key(std::string_view value_key, std::uint32_t block) {
  std::string out(value_key);
  out += char(block >> 8);
  out += char(block);
  return out;
}

std::optional<Key> parse_key(std::string_view key) {
  if (key.empty()) return std::nullopt;
  const std::size_t size = metadata::value_size(key[0]);
  if (size == 0 || key.size() != 1 + size + block_key_size) return std::nullopt;
  const auto high = std::uint8_t(key[1 + size]), low = std::uint8_t(key[2 + size]);
  return Key{key.substr(0, 1 + size), std::uint32_t(high) << 8 | low};
}

void sort_ids(std::vector<std::uint32_t>& ids) {
  if (std::is_sorted(ids.begin(), ids.end())) {
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return;
  }
  if (ids.size() < 4096) {
    std::sort(ids.begin(), ids.end());
  } else {
    // Least significant digit first, 16 bits a pass: two passes over the ids.
    std::vector<std::uint32_t> other(ids.size());
    std::vector<std::uint32_t> counts(1 << 16);
    for (const int shift : {0, 16}) {
      std::fill(counts.begin(), counts.end(), 0);
      for (const std::uint32_t id : ids) ++counts[(id >> shift) & 0xFFFF];
      std::uint32_t at = 0;
      for (std::uint32_t& c : counts) at += std::exchange(c, at);
      for (const std::uint32_t id : ids) other[counts[(id >> shift) & 0xFFFF]++] = id;
      ids.swap(other);
    }
  }
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

}  // namespace pgndb::index::postings
