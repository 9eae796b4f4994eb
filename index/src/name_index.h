// Layout of the name_index family (docs/storage.md, "Name index"): what finds the names that
// contain a search key (names.h) without reading every name.
//
// Each name of the names family gets a number when a batch first writes it (the names family's
// value: 4 bytes, big-endian; 1, 2, ... in the order names arrive, over all dimensions;
// `meta:name_count` is the last one given). This family holds two kinds of keys:
//
//   'i' | number (4 bytes, big-endian)          -> the name's key in the names family
//                                                  (dimension byte, normalised name, 0)
//   'g' | dimension byte | 3 bytes of a fragment -> the numbers of the names of that dimension
//                                                  whose search key holds the fragment
//
// A fragment's list is ascending numbers as LEB128 varints, the first as it is, each next as
// the difference from the one before. Each batch adds the numbers of its new names as a RocksDB
// merge operand (posting_merge_operator); since numbers only grow, the operands in order are
// the list in order, and merging decodes and re-encodes them as one. Names whose search key is
// shorter than 3 bytes have no fragment: a search key that short reads every name instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rocksdb {
class MergeOperator;
}

namespace pgndb::index::name_index {

inline constexpr std::size_t fragment_length = 3;
inline constexpr char fragment_tag = 'g';
inline constexpr char number_tag = 'i';

// The distinct fragments of `search_key`, sorted (views into it).
[[nodiscard]] std::vector<std::string_view> fragments_of(std::string_view search_key);

// The fragments' keys of the name whose names-family key is `name_key`, sorted.
[[nodiscard]] std::vector<std::string> fragment_keys(std::string_view name_key);
[[nodiscard]] std::string fragment_key(char dimension, std::string_view fragment);
// The same as numbers, the dimension byte then the 3 bytes (big-endian: they sort as the keys
// do), for a batch that sorts hundreds of thousands of (fragment, name number) pairs.
void append_fragment_codes(std::string_view name_key, std::vector<std::uint32_t>& out);
[[nodiscard]] std::string fragment_key(std::uint32_t code);

// The key of name number `number`, and the number such a key holds (nothing when it is not one).
[[nodiscard]] std::string number_key(std::uint32_t number);
[[nodiscard]] std::optional<std::uint32_t> number_of_key(std::string_view key);

// A list of numbers (ascending) encoded, appended to `out`; decoded, appended to `out` (false
// when the bytes are not such a list: a varint cut short, a number past 2^32 - 1, or a number
// not above the one before, counting from the numbers already in `out`).
void encode_numbers(std::span<const std::uint32_t> numbers, std::string& out);
[[nodiscard]] bool decode_numbers(std::string_view bytes, std::vector<std::uint32_t>& out);

// The merge operator of the family: concatenates the operands' lists (each batch's numbers are
// above every earlier batch's), sorting them if an operand is out of order.
[[nodiscard]] std::shared_ptr<rocksdb::MergeOperator> posting_merge_operator();

}  // namespace pgndb::index::name_index
