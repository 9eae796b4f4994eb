// Layout of the `postings` family (docs/storage.md, "Postings"): the games of each player, event,
// site, date and ECO code, as lists of ids rather than a key per game, so that a range of dates
// or codes costs a few bytes a game to read instead of a key each (an ECO family at 2 M games:
// 90,000 keys, most of a 60 ms search), and so that the merges RocksDB makes of the family
// rewrite a key per value and block, not a key per game (schema 15: the names' keys of the
// metadata family, 51 MB at 3 M games, were rewritten whole by RocksDB every import or few).
//
//   epoch (2 bytes, big-endian) | dimension byte | value | block (2 bytes, big-endian)
//     -> the ascending ids of the games of the block with that value
//
// The value is written as the metadata index wrote it (metadata_keys.h: a name, 0, and for a
// player the colour; a date as year (2 bytes), month, day; an ECO code as its three
// characters); a name's value ends with its 0 or its colour, so the block is the key's last two
// bytes. A block is the game ids that share their top 16 bits: a list holds 65,536 ids at most
// (64 KB), whatever the archive's size, and a block filled once is never written again. A list
// is name_index.h's number list (LEB128 differences), and each batch adds its games as a merge
// operand (name_index::posting_merge_operator): ids only grow, so the operands in order are the
// list in order.
//
// The epoch (schema 17) is the ids' top 12 bits: 16 blocks, 1,048,576 games. Keyed by value
// first, the new lists of an import fell between the old ones all over the key space, and each
// merge RocksDB made into the last level rewrote the whole family (88 MB at 4 M games, growing
// with the database). Epoch first, an import writes the key range of its own epoch (or two),
// which RocksDB merges and moves down without rewriting older epochs. A search seeks once per
// epoch: 96 at 10^8 games.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pgndb::index::postings {

inline constexpr int block_bits = 16;
inline constexpr std::size_t block_key_size = 2;

inline constexpr int epoch_bits = 12;
inline constexpr std::size_t epoch_key_size = 2;
// An id's epoch: its top epoch_bits bits.
inline constexpr int epoch_shift = block_bits + 16 - epoch_bits;

inline std::uint32_t block_of(std::uint32_t id) { return id >> block_bits; }
inline std::uint32_t epoch_of_block(std::uint32_t block) { return block >> (16 - epoch_bits); }
// The epochs that hold the lists of games 1..`games`: 0 to the returned count - 1.
inline std::uint32_t epochs_of(std::uint32_t games) { return epoch_of_block(block_of(games)) + 1; }
// The first bytes of every key of epoch `epoch` (below 2^epoch_bits).
std::string epoch_prefix(std::uint32_t epoch);

// Whether a metadata dimension (metadata_keys.h) is kept here rather than a key per game (every
// dimension since schema 15).
bool holds(char dimension);
// The key of the games of block `block` whose value is `value_key` (the dimension byte and the
// value, as metadata_keys.h writes it without the game id), in the block's epoch.
std::string key(std::string_view value_key, std::uint32_t block);
// A bound past every list of `value` (and of the values before it), in a key that lacks or has
// the epoch alike: its blocks, then a byte more.
inline std::string past_lists_of(std::string_view value) {
  return std::string(value) + "\xFF\xFF\xFF";
}
struct Key {
  std::string_view value_key;  // the dimension byte and the value
  std::uint32_t block;         // its epoch is the key's first two bytes
};
// Nothing when the bytes are not such a key (its epoch must be its block's).
std::optional<Key> parse_key(std::string_view key);

// A value's games in a batch: its value key and their ascending ids. A view: the key and ids
// stay their owner's (the batch's metadata map, its grouped material values).
struct ValueList {
  std::string_view key;
  std::span<const std::uint32_t> ids;
};

// Calls `emit(key, ids)` for every list of a batch, in key order: `values` ascending by value
// key; the lists come epoch by epoch (a batch may cross into the next), then value by value,
// then block by block. A table file takes its keys in that order only.
template <class Emit>
void for_each_list(std::span<const ValueList> values, Emit&& emit) {
  std::uint32_t first_epoch = ~0u, last_epoch = 0;
  for (const ValueList& value : values) {
    if (value.ids.empty()) continue;
    first_epoch = std::min(first_epoch, value.ids.front() >> epoch_shift);
    last_epoch = std::max(last_epoch, value.ids.back() >> epoch_shift);
  }
  for (std::uint32_t epoch = first_epoch; epoch <= last_epoch && first_epoch != ~0u; ++epoch)
    for (const ValueList& value : values) {
      const auto& ids = value.ids;
      // The ids of this epoch (ascending: found by their bounds).
      const std::uint64_t from = std::uint64_t(epoch) << epoch_shift,
                          past = from + (1ull << epoch_shift);
      auto id = std::lower_bound(ids.begin(), ids.end(), from);
      const auto epoch_end = std::lower_bound(id, ids.end(), past);
      while (id != epoch_end) {
        const std::uint32_t block = block_of(*id);
        auto end = id;
        while (end != epoch_end && block_of(*end) == block) ++end;
        emit(key(value.key, block), std::span<const std::uint32_t>(&*id, std::size_t(end - id)));
        id = end;
      }
    }
}

// A set of ids within [first, last], a bit each: the union of many lists of one range (an
// epoch's lists of a broad material search name millions of ids, a game in the list of every
// balance it held) without gathering and sorting them. 128 KB for an epoch.
class DenseIds {
 public:
  DenseIds(std::uint32_t first, std::uint32_t last)
      : first_(first), last_(last), bits_((std::uint64_t(last) - first + 64) / 64) {}
  // False when an id is outside the range.
  [[nodiscard]] bool add(std::span<const std::uint32_t> ids) {
    for (const std::uint32_t id : ids) {
      if (id < first_ || id > last_) return false;
      const std::uint32_t at = id - first_;
      bits_[at / 64] |= std::uint64_t(1) << at % 64;
    }
    return true;
  }
  // The ids, ascending, each once; appended to `out`.
  void append_to(std::vector<std::uint32_t>& out) const;

 private:
  std::uint32_t first_, last_;
  std::vector<std::uint64_t> bits_;
};

// Sorts the ids gathered from the lists of several values (each list ascending, the lists in
// key order: by value, then block), and drops repeats: a radix sort on the block, then on the
// rest, for the hundreds of thousands of ids of a range of dates; a bitmap when they are dense
// in their range (64 ids or fewer between the lowest and the highest for each one given).
void sort_ids(std::vector<std::uint32_t>& ids);

}  // namespace pgndb::index::postings
