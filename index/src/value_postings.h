// Layout of the `postings` family (docs/storage.md, "Postings"): the games of each player, event,
// site, date and ECO code, as lists of ids rather than a key per game, so that a range of dates
// or codes costs a few bytes a game to read instead of a key each (an ECO family at 2 M games:
// 90,000 keys, most of a 60 ms search), and so that the merges RocksDB makes of the family
// rewrite a key per value and block, not a key per game (schema 15: the names' keys of the
// metadata family, 51 MB at 3 M games, were rewritten whole by RocksDB every import or few).
//
//   dimension byte | value | block (2 bytes, big-endian)
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
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pgndb::index::postings {

inline constexpr int block_bits = 16;
inline constexpr std::size_t block_key_size = 2;

inline std::uint32_t block_of(std::uint32_t id) { return id >> block_bits; }

// Whether a metadata dimension (metadata_keys.h) is kept here rather than a key per game (every
// dimension since schema 15).
bool holds(char dimension);
// The key of the games of block `block` whose value is `value_key` (the dimension byte and the
// value, as metadata_keys.h writes it without the game id).
std::string key(std::string_view value_key, std::uint32_t block);
struct Key {
  std::string_view value_key;  // the dimension byte and the value
  std::uint32_t block;
};
// Nothing when the bytes are not such a key.
std::optional<Key> parse_key(std::string_view key);

// Sorts the ids gathered from the lists of several values (each list ascending, the lists in
// key order: by value, then block), and drops repeats: a radix sort on the block, then on the
// rest, for the hundreds of thousands of ids of a range of dates.
void sort_ids(std::vector<std::uint32_t>& ids);

}  // namespace pgndb::index::postings
