// The position index as generations (docs/storage.md, "Positions"): each import batch writes its
// runs as a new generation, and generations of similar sizes are merged into one, so that an
// entry is rewritten once per size tier over the database's life and never because something
// was appended. This header owns the generation keys, the list of live generations kept in the
// default family, and the policy that picks merges.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pgndb::index::positions {

// A key of a position family: the generation (4 bytes, big-endian), then the bucket (3 bytes,
// big-endian). A generation is one key range, so its table files are never mixed with another's:
// RocksDB ingests them into the last level untouched, and drops them whole once merged.
inline constexpr std::size_t generation_key_size = 7;
std::string generation_key(std::uint32_t generation, std::uint32_t bucket);
struct GenerationKey {
  std::uint32_t generation, bucket;
};
// Nothing when the bytes are not such a key (or name a bucket beyond bucket_count).
std::optional<GenerationKey> parse_generation_key(std::string_view key);

struct Generation {
  std::uint32_t id;
  std::uint64_t entries;  // (key, game) entries in its runs
  bool operator==(const Generation&) const = default;
};

// The live generations of one position index (main line, or variations), oldest first. Stored in
// the default family (value: varint next id, varint count, then per generation varint id and
// varint entries), written in the same atomic ingestion as the runs it lists: keys of a
// generation not listed are garbage of a merge stopped before it deleted them, never read.
struct Generations {
  std::uint32_t next_id = 1;
  std::vector<Generation> live;

  std::uint64_t entries() const;
  // Whether generation `id` is live.
  bool lists(std::uint32_t id) const;
  std::string encode() const;
  [[nodiscard]] static std::optional<Generations> decode(std::string_view bytes);
  bool operator==(const Generations&) const = default;
};

// Size tiers: generations of up to 4^(t+1) x 2^16 entries are of tier t (a batch of 100,000
// games, 8 M entries, is of tier 3). Once merge_fan_in generations share a tier they are
// merged into one of a higher tier, and the end of an import merges its own generations: an
// entry is rewritten about once by the tiers up to 400 M entries (5 million games), 2.8 times
// up to 8 G (10^8 games), and once more at the end of its import; a lookup reads at most 29
// runs at 5 million games, 45 at 10^8. A fan-in of 4 rewrote each entry 2.7 times up to 5
// million games, and the merges made a 227,000-game import a third slower than schema 8's
// single fold.
inline constexpr std::size_t merge_fan_in = 16;
// An import's own generations (its batches') are merged by the end of the import (settle), all
// at once: the tiers merge them among themselves only once this many share a tier, which
// bounds what a lookup reads during a long import. With a fan-in of 16 during the import, a
// 1 M-game import in batches of 50,000 rewrote 800,000 games' entries once more than needed.
inline constexpr std::size_t own_merge_fan_in = 64;
int tier_of(std::uint64_t entries);
// A `first_own` past every generation id: no import is running.
inline constexpr std::uint32_t no_import_running = UINT32_MAX;
// The generations to merge now (ids, oldest first), or none. Generations from `first_own` on
// are the running import's (own_merge_fan_in applies to them, and they are never merged with
// older ones); by default none is.
std::vector<std::uint32_t> pick_merge(const Generations& generations,
                                      std::uint32_t first_own = no_import_running);

}  // namespace pgndb::index::positions
