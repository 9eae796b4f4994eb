// Entries of the position index (docs/storage.md, "Positions"): the index keeps 40 bits of each
// position key; the top 18 name one of 262,144 buckets, and per bucket a sorted run holds the
// (next 22 bits of the key, game id) pairs. This header owns that split: no other file shifts a
// position key to find a bucket or a suffix.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bit_stream.h"
#include "pgn/types.h"

namespace pgndb::index::positions {

struct Entry {
  std::uint32_t suffix;  // suffix_bits wide
  std::uint32_t game;
  auto operator<=>(const Entry&) const = default;
};

// Bits of a position key the index keeps (the top ones): 2^40 values, so that in a database of
// 10^9 positions two share them once in about a thousand lookups (a candidate is confirmed by
// replaying its game).
inline constexpr int key_bits = 40;
// 2^18 buckets: a bucket's run is about 70 entries on the 227,000-game corpus, 1,500 at 5
// million games and 30,000 (110 KB) at 100 million, each read whole by a lookup. Fewer buckets
// cost a lookup more at scale; more cost each run's header and key, which dominate while runs
// are short (2^20 buckets: 6 MB more on the corpus).
inline constexpr int bucket_bits = 18;
inline constexpr int suffix_bits = key_bits - bucket_bits;
inline constexpr std::uint32_t bucket_count = 1u << bucket_bits;
inline constexpr std::uint32_t suffix_mask = (1u << suffix_bits) - 1;

// The kept bits of a position key, as a number below 2^40.
inline std::uint64_t key40_of(pgn::Key key) { return key >> (64 - key_bits); }
inline std::uint32_t bucket_of40(std::uint64_t key40) {
  return std::uint32_t(key40 >> suffix_bits);
}
inline std::uint32_t suffix_of40(std::uint64_t key40) { return std::uint32_t(key40) & suffix_mask; }
inline std::uint64_t key40(std::uint32_t bucket, std::uint32_t suffix) {
  return std::uint64_t(bucket) << suffix_bits | suffix;
}
inline std::uint32_t bucket_of(pgn::Key key) { return bucket_of40(key40_of(key)); }
inline std::uint32_t suffix_of(pgn::Key key) { return suffix_of40(key40_of(key)); }

// The bucket's key in its column family: 3 bytes, big-endian.
inline constexpr std::size_t bucket_key_size = 3;
inline std::string bucket_key_of(std::uint32_t bucket) {
  return {char(bucket >> 16), char(bucket >> 8), char(bucket)};
}
// The bucket a family key names, or nothing when the bytes are no bucket key.
std::optional<std::uint32_t> parse_bucket_key(std::string_view key);

// A run (format of schema 25): a varint entry count n; when n > 0, a byte 0x80 | k and a byte w,
// then a bit stream, most significant bit first, padded with zero bits to a whole byte. Entries
// are in (suffix, game) order, each pair once, and come in groups, one per distinct suffix. A
// group is its suffix as a Rice code of parameter k (the quotient in unary, as that many 1 bits
// and a 0, then the k low bits: the first group's suffix itself, a later one's distance from the
// previous suffix less one), its count of games c as an Elias gamma code (z zero bits, then c in
// z + 1 bits: one bit for a position one game of the run reached), its first game in w bits,
// then each later game's distance from the one before, less one, as a Rice code of parameter
// r = bit_width((2^w - 1 - first game) / c) - 1 (or 0): the mean distance were its games spread
// evenly over the ids left, which the decoder knows without a byte of it. k is chosen from the
// mean distance between the run's suffixes and w from its largest game id, so a position new to
// the run costs about its information (4.6 bytes) and another game of a popular one about
// log2(its mean distance) + 1.5 bits.
//
// Schema 9 to 24 wrote runs without groups (the byte k without 0x80): after the first entry, a
// flag bit for each, 1 when it has the previous entry's suffix, followed by the game's distance
// from the previous game as a gamma code; 0 when its suffix is greater, followed by (suffix -
// previous suffix - 1) as a Rice code and the game in w bits. They are still read, and written
// again grouped when their generation is merged: a gamma code spent about 2 log2(distance) + 1
// bits where the Rice code spends log2 + 1.5 (the corpus's index 3.5 MB smaller).
void encode_run(const std::vector<Entry>& sorted, std::string& out);
// Appends the entries of `run` to `out`; false when the bytes are not a run (truncated, bytes or
// bits left over, a suffix beyond suffix_bits, a game id beyond 32 bits).
[[nodiscard]] bool decode_run(std::string_view run, std::vector<Entry>& out);

// A run's entries one at a time, in (suffix, game) order: a search that wants the first games of
// a popular position decodes the entries before its suffix and as many of its own as it takes,
// not the whole run. Damage past what it read goes unseen (pgndb verify decodes every run
// whole). The bytes must outlive the reader.
class RunReader {
 public:
  RunReader() = default;
  // False when the bytes do not start as a run does (see decode_run for the checks).
  [[nodiscard]] bool open(std::string_view run);
  // The next entry; false at the end of the run, or where its bytes are damaged (damaged()).
  [[nodiscard]] bool next(Entry& e);
  bool damaged() const { return damaged_; }
  // The entries not read yet.
  std::uint64_t remaining() const { return left_; }
  // Whether the run ended where its bytes do (checked after the last entry).
  bool clean_end() const;

 private:
  [[nodiscard]] bool next_grouped(Entry& e);
  [[nodiscard]] bool next_flagged(Entry& e);

  BitReader bits_;
  std::uint64_t left_ = 0;        // entries not read yet
  std::uint64_t group_left_ = 0;  // games of the current group not read yet (grouped runs)
  std::uint32_t largest_ = 0;     // the largest game id w bits hold
  std::uint8_t k_ = 0, w_ = 0, r_ = 0;
  bool grouped_ = false, first_ = true, damaged_ = false;
  Entry last_{};
};

// Folds runs (a bucket's runs, one per import batch) into one. Each run is sorted already, so
// they are merged, two by two, rather than sorted again: sorting took most of the compaction
// that folds the index.
class RunFolder {
 public:
  // Adds a run; false when its bytes are not one, and then every run added before is dropped.
  [[nodiscard]] bool add(std::string_view run);
  // The runs added since the last fold, decoded, in the order added (valid until fold()).
  std::size_t runs() const { return ends_.size(); }
  std::span<const Entry> run(std::size_t i) const {
    const std::size_t begin = i ? ends_[i - 1] : 0;
    return std::span<const Entry>(entries_).subspan(begin, ends_[i] - begin);
  }
  // Writes the runs added since the last fold as one run (repeats dropped) into `out`.
  void fold(std::string& out);

 private:
  std::vector<Entry> entries_, merged_;
  std::vector<std::size_t> ends_;  // where each added run ends in entries_
};

}  // namespace pgndb::index::positions
