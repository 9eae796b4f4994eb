// The column families of a pgndb database (docs/storage.md), in one table: what each holds and
// how RocksDB keeps it. Store::open takes their options from it, the batch writer, the merges
// and the end of an import their kinds, the verifier their names. A family added here gets its
// options, its handle and its name everywhere; its layout is owned by the header named beside it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "bytes.h"
#include "fact_group.h"
#include "position_runs.h"

namespace pgndb::index {

// In the order the handles are kept; new families go last (a database lists its families by
// name, so the order is this code's alone).
enum Family {
  Default,
  Games,
  Rejects,
  Positions,
  Sources,
  Metadata,
  Fingerprints,
  Duplicates,
  PositionsUpper,
  Summaries,
  Names,
  VariationPositions,
  Facts,
  NameIndex,
  Postings,
  Materials,
  FamilyCount
};

// Summaries are stored in groups of up to this many consecutive games (docs/storage.md,
// "Summaries"): reading a hundred thousand of them is then a few thousand values, not a hundred
// thousand keys.
inline constexpr std::uint32_t summary_group = 64;

struct FamilyTraits {
  std::string_view name;
  // ZSTD's level, or 0 for none: the facts are bit-packed and read in bulk by searches that
  // check a million candidates (decompressing the summaries for that was two thirds of a
  // search). ZSTD's level 1, not RocksDB's default 3: side by side on every family, imports
  // 4-6% faster (300,000 games 6.3-6.5 -> 6.0-6.2 s, 100,000 with a clock and an eval on every
  // move 4.1 -> 3.8-3.9 s) for a database 0.3-0.8% larger; level -1 made the corpus 6% larger. Not
  // even the games gain by more: at level 3 the corpus's were 0.26 MB smaller, the lichess-style
  // archive's 1.0 MB larger (89.6 -> 90.6 MB for 200,000 games).
  // The position runs are bit-packed hashes, which RocksDB would store raw (ZSTD saves less
  // than an eighth of their blocks): compressed, their statistics and keys took 0.71 MB less of
  // the corpus and 0.54 MB of 200,000 lichess-style games, for 3.5% more CPU in each import.
  int zstd_level;
  // RocksDB's block size, in KB (its default is 4). Tag values (events, sites, players) repeat
  // across games: 16 KB blocks hold about 80 games each, so ZSTD finds more repeats than in 4 KB
  // ones (corpus: games 23.8 -> 21.3 MB, metadata 7.7 -> 6.8 MB). Larger ones cost reads that
  // skip: in 32 KB blocks at level 3 the corpus's games took 0.6 MB less than in 16 KB and
  // exporting 2,000 games of one player 5% longer (64 KB: 1.1 MB, 14%). A trained dictionary
  // saved 0.6 MB more but slowed the import by a quarter (training per table file), so there is
  // none. The material histories: in 16 KB, 5.8 -> 5.6 MB on the corpus, and a material search
  // 2-3 ms faster (fewer blocks to find and decompress). A run of the position index is about
  // 300 bytes on the corpus: in 16 KB blocks instead of 4 KB, the table files' index entries and
  // block trailers take 0.4 MB less (of 78 MB), and a lookup reads 16 KB of one generation
  // instead of 4 KB (a few microseconds).
  std::uint32_t block_kb;
  // A value is a list of numbers that batches extend by merge operands
  // (name_index::posting_merge_operator).
  bool merges_lists;
  // Generations of position runs (position_generations.h): each a key range ingested into the
  // last level and dropped whole when merged, never compacted by RocksDB.
  bool position_index;
  // Keyed by game id, or by the first id of a group of `group` games: a batch's table file
  // overlaps no other's (Store::settle merges an import's).
  bool keyed_by_game;
  std::uint32_t group;
  // The schema that added the family; an upgrade from an older one creates it.
  std::uint32_t since_schema;
  // Merged by RocksDB's tiered ("universal") compaction instead of its levels: for keys that
  // are hashes, where every import's fall all over the key space and a leveled merge of an
  // import's file rewrote the whole last level, which grows with the database (the
  // fingerprints' merges over five 1 M-game imports into one database: 0.4, 0.4, 1.2, 2.1, 2.5 s
  // of CPU). Tiered, an import's merged file stays a sorted run until 16 stand, and runs are
  // then merged by size (the whole family when the newer runs outweigh the oldest twice over):
  // 0.4 s at each of the same five imports. A lookup, nearly always of a fingerprint not
  // stored, probes one Bloom filter per run. Both styles read the same files: a database
  // written with either opens with the other (docs/storage.md, "Files and compactions").
  bool tiered;
  // Kept for imports and `pgndb stats`, `rejects` and `verify` (duplicates found, files resumed,
  // the quarantine); no search reads it. A reader opened for searching leaves it closed
  // (StoreOptions::import_records).
  bool import_record;
};

// Layouts: games game_codec.h; positions position_runs.h and position_stats.h; metadata
// metadata_keys.h; summaries game_summary.h; facts fact_group.h; names and name_index
// name_index.h; postings value_postings.h; materials material_record.h; the others
// docs/storage.md.
inline constexpr FamilyTraits family_table[FamilyCount] = {
    {"default", 1, 4, false, false, false, 1, 0, false, false},
    {"games", 1, 16, false, false, true, 1, 0, false, false},
    {"rejects", 1, 4, false, false, false, 1, 0, false, true},
    {"positions", 0, 16, false, true, false, 1, 0, false, false},
    {"sources", 1, 4, false, false, false, 1, 0, false, true},
    {"metadata", 1, 16, false, false, false, 1, 0, false, false},
    {"fingerprints", 1, 4, false, false, false, 1, 0, true, true},
    {"duplicates", 1, 4, false, false, true, 1, 0, false, true},
    {"positions_upper", 0, 16, false, true, false, 1, 0, false, false},
    {"summaries", 1, 16, false, false, true, summary_group, 0, false, false},
    {"names", 1, 4, false, false, false, 1, 0, false, false},
    {"variation_positions", 0, 16, false, true, false, 1, 0, false, false},
    {"facts", 0, 4, false, false, true, facts::group_size, 11, false, false},
    {"name_index", 1, 4, true, false, false, 1, 12, false, false},
    {"postings", 1, 16, true, false, false, 1, 13, false, false},
    {"materials", 1, 16, false, false, true, summary_group, 22, false, false},
};

constexpr std::string_view family_name(int f) { return family_table[f].name; }
constexpr bool is_position_family(int f) { return family_table[f].position_index; }
constexpr bool is_keyed_by_game(int f) { return family_table[f].keyed_by_game; }
constexpr bool is_import_record(int f) { return family_table[f].import_record; }
// Families keyed by the first id of a group of games, which may be below an import's first id.
constexpr std::uint32_t group_size_of(int f) { return family_table[f].group; }

// The main line's position index is two families, the lower and the upper half of the buckets,
// so that a batch's runs, and a merge of generations, are written by two threads (one table file
// per family and thread).
constexpr Family position_family(std::uint32_t bucket) {
  return bucket < positions::bucket_count / 2 ? Positions : PositionsUpper;
}

// The key of a game in a family keyed by game, or of a group by its first game: the id, 4 bytes
// big-endian, so that key order is id order and a batch's keys follow every earlier batch's.
inline std::string game_key(std::uint32_t id) { return bytes::big_endian32(id); }
// The id a key of such a family starts with (`key` holds 4 bytes or more).
inline std::uint32_t game_of_key(std::string_view key) { return bytes::read_big_endian32(key); }

}  // namespace pgndb::index
