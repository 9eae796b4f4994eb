// Entries of the position index (docs/storage.md, "Positions"): per bucket (the top 16 bits of
// a position key), a sorted run of (the next 24 bits of the key, game id) pairs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pgn/types.h"

namespace pgndb::index::positions {

struct Entry {
  std::uint32_t suffix;  // 24 bits
  std::uint32_t game;
  auto operator<=>(const Entry&) const = default;
};

inline constexpr std::uint32_t bucket_count = 1 << 16;
inline std::uint32_t bucket_of(pgn::Key key) { return std::uint32_t(key >> 48); }
// The bucket's key in the column family: 2 bytes, big-endian.
inline std::string bucket_key_of(std::uint32_t bucket) { return {char(bucket >> 8), char(bucket)}; }
inline std::string bucket_key(pgn::Key key) { return bucket_key_of(bucket_of(key)); }
inline std::uint32_t suffix_of(pgn::Key key) { return std::uint32_t(key >> 24) & 0xFFFFFF; }

// A run: varint entry count, then per entry, in (suffix, game) order, a varint v: when v is
// odd, the entry has the previous suffix and game = previous game + v / 2; when even,
// game = v / 2 and three bytes of suffix (big-endian) follow.
void encode_run(const std::vector<Entry>& sorted, std::string& out);
// Appends the entries of `run` to `out`; false when the bytes are not a run (which includes
// entries out of order or repeated: encode_run never writes them).
[[nodiscard]] bool decode_run(std::string_view run, std::vector<Entry>& out);

// Folds runs (a bucket's runs, one per import batch) into one. Each run is sorted already, so
// they are merged, two by two, rather than sorted again: sorting took most of the compaction
// that folds the index after an import.
class RunFolder {
 public:
  // Adds a run; false when its bytes are not one, and then every run added before is dropped.
  [[nodiscard]] bool add(std::string_view run);
  // Writes the runs added since the last fold as one run (repeats dropped) into `out`.
  void fold(std::string& out);

 private:
  std::vector<Entry> entries_, merged_;
  std::vector<std::size_t> ends_;  // where each added run ends in entries_
};

}  // namespace pgndb::index::positions
