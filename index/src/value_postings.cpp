#include "value_postings.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <utility>

#include "bytes.h"
#include "metadata_keys.h"

namespace pgndb::index::postings {

bool holds(char dimension) {
  using namespace metadata;
  return dimension == Date || dimension == Eco || dimension == Player || dimension == Event ||
         dimension == Site || dimension == Material;
}

namespace {

// Whether `value` (a dimension byte and a value) is a name's value as metadata_keys.h writes it:
// the name, 0, and for a player the colour (0 or 1).
bool is_name_value(std::string_view value) {
  using namespace metadata;
  if (value.size() < 2) return false;
  if (value[0] == Player)
    return value.size() >= 3 && value[value.size() - 2] == '\0' && std::uint8_t(value.back()) <= 1;
  return (value[0] == Event || value[0] == Site) && value.back() == '\0';
}

}  // namespace

std::string epoch_prefix(std::uint32_t epoch) { return {char(epoch >> 8), char(epoch)}; }

std::string key(std::string_view value_key, std::uint32_t block) {
  std::string out = epoch_prefix(epoch_of_block(block));
  out += value_key;
  out += char(block >> 8);
  out += char(block);
  return out;
}

std::optional<Key> parse_key(std::string_view key) {
  if (key.size() <= epoch_key_size + block_key_size || !holds(key[epoch_key_size]))
    return std::nullopt;
  const std::string_view value =
      key.substr(epoch_key_size, key.size() - epoch_key_size - block_key_size);
  // A date's or an ECO code's value has its fixed size; a name's ends as a name's value does.
  const std::size_t size = metadata::value_size(value[0]);
  if (size ? value.size() != 1 + size : !is_name_value(value)) return std::nullopt;
  const std::uint32_t block = bytes::read_big_endian16(key.substr(key.size() - block_key_size));
  if (key.substr(0, epoch_key_size) != epoch_prefix(epoch_of_block(block))) return std::nullopt;
  return Key{value, block};
}

void DenseIds::append_to(std::vector<std::uint32_t>& out) const {
  for (std::size_t word = 0; word < bits_.size(); ++word)
    for (std::uint64_t w = bits_[word]; w; w &= w - 1)
      out.push_back(first_ + std::uint32_t(64 * word + std::size_t(std::countr_zero(w))));
}

void sort_ids(std::vector<std::uint32_t>& ids) {
  if (std::is_sorted(ids.begin(), ids.end())) {
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return;
  }
  const auto [low, high] = std::minmax_element(ids.begin(), ids.end());
  if (ids.size() >= 4096 && std::uint64_t(*high) - *low < 64 * std::uint64_t(ids.size())) {
    // Dense in their range (a broad material search's lists): set as bits and read back in
    // order. Two radix passes took 8% of such a search's first page at 5M games.
    DenseIds dense(*low, *high);
    [[maybe_unused]] const bool added = dense.add(ids);
    assert(added);
    ids.clear();
    dense.append_to(ids);
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
