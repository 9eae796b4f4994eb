#include "pgndb/index/store.h"

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/sst_partitioner.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <unordered_map>
#include <vector>

#include "ascending_merge.h"
#include "bytes.h"
#include "column_families.h"
#include "fact_group.h"
#include "game_facts.h"
#include "group_by_key.h"
#include "huge_pages.h"
#include "log_file.h"
#include "material_record.h"
#include "metadata_keys.h"
#include "name_index.h"
#include "pgn/game.h"
#include "pgn/game_ending.h"
#include "pgn/openings.h"
#include "pgn/text.h"
#include "pgn/time_control.h"
#include "pgndb/index/game_codec.h"
#include "pgndb/index/game_summary.h"
#include "pgndb/index/names.h"
#include "position_generations.h"
#include "position_runs.h"
#include "position_stats.h"
#include "sort_numbers.h"
#include "source_record.h"
#include "store_access.h"
#include "value_postings.h"

namespace pgndb::index {

namespace {

// Keys of the default column family (docs/storage.md). Values are 4 bytes, big-endian.
constexpr std::string_view version_key = "meta:schema_version";
// Written by the upgrade to 20 with its rewritten groups, deleted with the version it writes
// last (Store::Impl::add_speeds_and_endings).
constexpr std::string_view endings_written_key = "meta:endings_written";
constexpr std::string_view game_count_key = "meta:game_count";
constexpr std::string_view reject_count_key = "meta:reject_count";
// The distinct normalised player names (the names family's players), for `pgndb stats`.
constexpr std::string_view player_count_key = "meta:player_count";
// The last number given to a name (name_index.h).
constexpr std::string_view name_count_key = "meta:name_count";
// The games marked duplicates (the duplicates family's keys), for `pgndb stats`.
constexpr std::string_view duplicate_count_key = "meta:duplicate_count";
// The live generations of the position index, of the main line and of the variations
// (position_generations.h).
constexpr std::string_view generations_key = "meta:position_generations";
constexpr std::string_view variation_generations_key = "meta:variation_generations";

// What each thread of a merge of position generations keeps of the summaries it reads
// (GroupedReader): two threads merge side by side.
constexpr std::size_t summary_cache_bytes = 48 << 20;

std::string hash_key(std::uint64_t hash) {
  return bytes::big_endian32(std::uint32_t(hash >> 32)) + bytes::big_endian32(std::uint32_t(hash));
}

bool exists(const std::string& path) {
  std::error_code error;
  return std::filesystem::exists(path, error);
}

// A database is created whole or not at all: in a directory beside its path, renamed to it once
// every column family and the schema version are on disk. Created in place, a process killed
// in its first tenth of a second left a directory that every reader refused as "not a pgndb
// database" (the crash test found it). Each process creates under its own name, so that two
// imports creating the same database at once do not share a half-made one; the one that
// renames second finds the database there and opens it (or finds it locked).
constexpr std::string_view creating_infix = ".pgndb-creating-";

// Whether a process holds the RocksDB lock of the database at `dir` (a POSIX record lock on its
// LOCK file, which F_GETLK reports without taking it).
bool lock_held(const std::filesystem::path& dir) {
  const int fd = ::open((dir / "LOCK").c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return false;
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  const bool held = ::fcntl(fd, F_GETLK, &lock) == 0 && lock.l_type != F_UNLCK;
  ::close(fd);
  return held;
}

// Where the database for `path` is created, or nothing when it is created in place (an empty
// directory is there already: a mount point, or a folder in a parent the user cannot write)
// or not at all (`path` holds something: opening it says what). Leftovers of processes killed
// while creating it, which no process holds any more, are removed.
std::optional<std::filesystem::path> creation_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(path, error) || path.find(creating_infix) != std::string::npos)
    return std::nullopt;
  const fs::path target = fs::absolute(path, error).lexically_normal();
  const fs::path parent = target.parent_path();
  const std::string prefix = target.filename().string() + std::string(creating_infix);
  if (target.filename().empty()) return std::nullopt;
  for (const auto& entry : fs::directory_iterator(parent, error))
    if (entry.path().filename().string().starts_with(prefix) && !lock_held(entry.path()))
      fs::remove_all(entry.path(), error);
  return parent / (prefix + std::to_string(::getpid()));
}

// Makes its directory entry (a rename) durable: without it, a power loss could leave the
// committed batches under the creation name, which the next import removes.
void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// RocksDB reports a full disk and a read-only file system as I/O errors whose message ends with
// the system's text (its Env keeps no errno): those two are told apart by that text, so that a
// user reads what to do rather than which file RocksDB was writing.
Status from_rocksdb(const rocksdb::Status& s, std::string_view context) {
  using Code = Status::Code;
  const std::string text = s.ToString();
  if (s.IsIOError()) {
    if (s.IsNoSpace() || text.find(std::strerror(ENOSPC)) != std::string::npos)
      return Status::error(Code::NoSpace, pgn::cat(context, ": the disk is full"));
    if (text.find(std::strerror(EROFS)) != std::string::npos)
      return Status::error(Code::ReadOnly, pgn::cat(context, ": the file system is read-only"));
  }
  Code code = s.IsNotFound()     ? Code::NotFound
              : s.IsCorruption() ? Code::Corruption
              : s.IsIOError()    ? Code::IoError
                                 : Code::InvalidArgument;
  return Status::error(code, pgn::cat(context, ": ", text));
}

// Our error inside RocksDB's (table contents report through rocksdb::Status), back out through
// from_rocksdb with its message.
rocksdb::Status to_rocksdb(const Status& s) {
  switch (s.code()) {
    case Status::Code::Ok: return rocksdb::Status::OK();
    case Status::Code::IoError: return rocksdb::Status::IOError(s.message());
    case Status::Code::NoSpace: return rocksdb::Status::NoSpace(s.message());
    default: return rocksdb::Status::Corruption(s.message());
  }
}

// Asks `collector` for the statistics of the popular positions of a bucket's run (sorted by
// suffix, then game): those with `threshold` games or more, sliced from `cells_threshold`.
void request_popular(std::uint32_t bucket, std::span<const positions::Entry> run,
                     std::uint64_t threshold, std::uint64_t cells_threshold,
                     positions::StatisticsCollector& collector) {
  if (run.size() < threshold) return;
  for (std::size_t a = 0; a < run.size();) {
    std::size_t b = a;
    while (b < run.size() && run[b].suffix == run[a].suffix) ++b;
    if (b - a >= threshold)
      for (std::size_t i = a; i < b; ++i)
        collector.request(run[i].game, positions::key40(bucket, run[a].suffix),
                          b - a >= cells_threshold);
    a = b;
  }
}

// Moves the complete statistics worth keeping into `sealed`, in their stored form (a tenth of
// the memory of their slices as counted), and forgets `statistics`.
void seal_statistics(std::map<std::uint64_t, positions::Statistics>& statistics,
                     std::uint64_t cells_threshold, std::map<std::uint64_t, std::string>& sealed) {
  for (auto& [key40, of_key] : statistics) {
    // Summed from inputs and counted from games: the unread ids of both, interleaved.
    std::sort(of_key.unread.begin(), of_key.unread.end());
    if (!of_key.worth_keeping()) continue;
    // In place, so that encoding copies no cells.
    positions::as_written(of_key, cells_threshold);
    positions::encode_statistics(of_key, sealed[key40], cells_threshold);
  }
  statistics.clear();
}

// Writes the sealed statistics of generation `generation`, in key order (after its runs).
rocksdb::Status put_statistics(rocksdb::SstFileWriter& writer, std::uint32_t generation,
                               const std::map<std::uint64_t, std::string>& sealed) {
  for (const auto& [key40, value] : sealed)
    if (auto s = writer.Put(positions::statistics_key(generation, key40), value); !s.ok()) return s;
  return rocksdb::Status::OK();
}

// A reader of summaries or facts goes through them in order and reads each block once: its
// blocks are not put into the block cache, where they would push out the index blocks of other
// searches.
rocksdb::ReadOptions bulk_read_options(bool fill_cache = false) {
  rocksdb::ReadOptions options;
  options.fill_cache = fill_cache;
  return options;
}

// Reads a family grouped by summary_group games (the summaries, the material histories) by id,
// in ascending order of ids, through one iterator: the group holding an id is found by stepping
// when it is near, by a seek otherwise. With a cache budget, the
// groups read are kept (decompressed, up to that many bytes) for later passes: a merge resolves
// its statistics in passes that each ask for games all over the import (a 1 M-game import's end
// made 22 such passes, each decompressing nearly every block of summaries again: a third of its
// merge's time).
class GroupedReader {
 public:
  // `fill_cache`: the blocks read go into the block cache (StoreOptions::cache_game_data).
  GroupedReader(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* family, std::size_t cache_bytes = 0,
                bool fill_cache = false)
      : it_(db.NewIterator(bulk_read_options(fill_cache), family)),
        it_family_(family->GetName()),
        cache_budget_(cache_bytes) {}

  std::expected<GameSummary, Status> get(std::uint32_t id) {
    if (!(id >= first_ && id - first_ < entries_.size())) {
      if (Status s = find_group(id); !s.is_ok()) return std::unexpected(s);
      if (!(id >= first_ && id - first_ < entries_.size()))
        return std::unexpected(
            Status::error(Status::Code::Corruption, pgn::cat("no summary of game ", id)));
    }
    return decode_summary(entries_[id - first_]);
  }
  // The bytes kept for game `id` in a family grouped as the summaries are (the materials).
  std::expected<std::string_view, Status> entry(std::uint32_t id) {
    if (!(id >= first_ && id - first_ < entries_.size())) {
      if (Status s = find_group(id); !s.is_ok()) return std::unexpected(s);
      if (!(id >= first_ && id - first_ < entries_.size()))
        return std::unexpected(
            Status::error(Status::Code::Corruption, pgn::cat("no entry of game ", id)));
    }
    return entries_[id - first_];
  }

 private:
  Status find_group(std::uint32_t id) {
    // A group of the cache: the last one that starts at or before `id`, parsed when it holds
    // `id` (a group may end early, at a batch's end).
    if (auto after = cache_.upper_bound(id); after != cache_.begin()) {
      const auto& [first, group] = *std::prev(after);
      if (id - first < group.games) return parse(first, group.bytes);
    }
    const bool near = it_->Valid() && id > it_first_ && id - it_first_ < 8 * summary_group;
    if (near) {
      // Groups follow one another without gaps, and end at batch ends too, so a group may be
      // short: step forward while the group does not reach `id`, each group's end told from its
      // entries. Stepping to the first group past `id` and back read the block before again when
      // the step crossed blocks: two thirds of a material count at 5M games.
      for (;;) {
        // A damaged group on the way is not `id`'s to report: the seek finds `id`'s own group,
        // as it does from afar.
        if (!parse(it_first_, it_->value().ToStringView()).is_ok()) {
          it_->SeekForPrev(game_key(id));
          break;
        }
        if (id - it_first_ < entries_.size()) break;
        entries_.clear();  // they view the value that the step releases
        it_->Next();
        if (!it_->Valid()) {
          if (!it_->status().ok()) return from_rocksdb(it_->status(), "reading " + it_family_);
          it_->SeekToLast();
          break;
        }
        it_first_ = group_start();
        if (it_first_ >= id) break;
      }
    } else {
      it_->SeekForPrev(game_key(id));
    }
    entries_.clear();
    if (!it_->Valid())
      return it_->status().ok() ? Status::ok()
                                : from_rocksdb(it_->status(), "reading " + it_family_);
    it_first_ = group_start();
    const std::string_view value = it_->value().ToStringView();
    if (cache_used_ + value.size() <= cache_budget_) {
      auto [at, added] = cache_.try_emplace(it_first_);
      if (added) {  // (a damaged group stays cached with no games, and is read again)
        at->second.bytes = value;
        cache_used_ += value.size();
      }
      Status parsed = parse(it_first_, at->second.bytes);
      at->second.games = parsed.is_ok() ? std::uint32_t(entries_.size()) : 0;
      return parsed;
    }
    // The entries view the iterator's value, which stays valid until the iterator moves.
    return parse(it_first_, value);
  }
  Status parse(std::uint32_t first, std::string_view group) {
    first_ = first;
    entries_.clear();
    bytes::Reader in(group);
    std::string_view entry;
    while (!in.empty()) {
      if (!in.view(entry)) return Status::error(Status::Code::Corruption, "summaries damaged");
      entries_.push_back(entry);
    }
    return Status::ok();
  }
  std::uint32_t group_start() const { return game_of_key(it_->key().ToStringView()); }

  std::unique_ptr<rocksdb::Iterator> it_;
  std::string it_family_;       // its family's name, for errors
  std::uint32_t it_first_ = 0;  // the id that starts the group the iterator stands at
  std::uint32_t first_ = 0;     // the id of entries_[0]
  std::vector<std::string_view> entries_;
  struct CachedGroup {
    std::string bytes;
    std::uint32_t games = 0;  // how many summaries it holds
  };
  std::map<std::uint32_t, CachedGroup> cache_;  // by the id that starts each group
  std::size_t cache_used_ = 0, cache_budget_ = 0;
};

// Reads facts by id through one iterator, best in ascending order of ids: the group holding
// the last id read stays parsed, and the next group is one step away.
class FactsReader {
 public:
  FactsReader(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* family, bool fill_cache = false)
      : it_(db.NewIterator(bulk_read_options(fill_cache), family)) {}

  std::expected<SearchFacts, Status> get(std::uint32_t id) {
    if (Status s = reach(id); !s.is_ok()) return std::unexpected(s);
    return group_.at(id - first_);
  }
  std::expected<bool, Status> passes(std::uint32_t id, const FactsFilter& filter) {
    if (Status s = reach(id); !s.is_ok()) return std::unexpected(s);
    return group_.passes(id - first_, filter);
  }

 private:
  // Makes game `id`'s group the current one.
  Status reach(std::uint32_t id) {
    if (id >= first_ && id - first_ < group_.size()) return Status::ok();
    if (Status s = find_group(id); !s.is_ok()) return s;
    if (!(id >= first_ && id - first_ < group_.size()))
      return Status::error(Status::Code::Corruption, pgn::cat("no facts of game ", id));
    return Status::ok();
  }
  Status find_group(std::uint32_t id) {
    // Groups follow each other without gaps: the game after this group's last is the next
    // group's first, one step away; any other is a seek.
    if (group_.size() > 0 && id == first_ + group_.size()) {
      it_->Next();
      if (!(it_->Valid() && group_start() == id)) it_->SeekForPrev(game_key(id));
    } else {
      it_->SeekForPrev(game_key(id));
    }
    group_ = {};
    if (!it_->Valid())
      return it_->status().ok() ? Status::ok() : from_rocksdb(it_->status(), "reading facts");
    if (it_->key().size() != 4)
      return Status::error(Status::Code::Corruption, "facts damaged: a key is not a game id");
    first_ = group_start();
    // The view reads the iterator's value, which stays valid until the iterator moves.
    auto group = facts::GroupView::parse(it_->value().ToStringView());
    if (!group) return group.error();
    group_ = *group;
    return Status::ok();
  }
  std::uint32_t group_start() const { return game_of_key(it_->key().ToStringView()); }

  std::unique_ptr<rocksdb::Iterator> it_;
  std::uint32_t first_ = 0;  // the id of the group's first game
  facts::GroupView group_;
};

// Older versions a writer upgrades in place (Store::Impl::upgrade); a reader refuses them,
// naming the command that upgrades.
bool is_upgradable(std::uint32_t version) { return version >= 9 && version < schema_version; }

Status version_mismatch(const std::string& path, std::uint32_t found) {
  // A database of an older version is rebuilt from its sources: the pgndb that wrote it can
  // export it (`pgndb export --db OLD -o all.pgn`), and this one imports that file. Versions 9
  // to 12 are upgraded in place by any writer.
  const std::string what =
      is_upgradable(found) ? pgn::cat("; upgrade it in place: `pgndb upgrade --db ", path, "`")
      : found < schema_version
          ? pgn::cat(
                "; rebuild it: `pgndb import --db NEW FILE...` with its PGN files (or the "
                "`pgndb export --db ",
                path, "` of the pgndb that wrote it)")
          : std::string("; it was written by a newer pgndb");
  return Status::error(Status::Code::IncompatibleVersion,
                       pgn::cat(path, " holds schema version ", found,
                                ", this pgndb reads version ", schema_version, what));
}

// The error for a database whose column families are not this schema's: another version
// (named, read from its default family) or not a pgndb database.
// The schema version stored in the default family of the database at `path`, read without
// opening its other families.
std::expected<std::uint32_t, Status> stored_version(const rocksdb::DBOptions& options,
                                                    const std::string& path) {
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::OpenForReadOnly(
      options, path, {rocksdb::ColumnFamilyDescriptor()}, &handles, &raw);
  if (!s.ok()) return std::unexpected(from_rocksdb(s, "opening " + path));
  std::unique_ptr<rocksdb::DB> db(raw);
  std::string value;
  s = db->Get(rocksdb::ReadOptions(), handles[0], version_key, &value);
  for (auto* h : handles) db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
  if (!s.ok() || value.size() != 4)
    return std::unexpected(
        Status::error(Status::Code::Corruption, path + " is not a pgndb database"));
  return bytes::read_big_endian32(value);
}

// The environment of a read-only open: RocksDB's own, except that an open does not start the
// background threads a writer's flushes and compactions run on. RocksDB starts
// max_background_jobs of them at every open, and a reader schedules no such work: a query
// command started and joined four threads around a search of a few milliseconds (a tenth of its
// CPU, more of its time on a loaded machine). Work scheduled all the same would start a thread
// as RocksDB's pools do when they have none. Never destroyed: databases may close at exit.
rocksdb::Env* reader_env() {
  class ReaderEnv : public rocksdb::EnvWrapper {
   public:
    ReaderEnv() : EnvWrapper(rocksdb::Env::Default()) {}
    const char* Name() const override { return "pgndb-reader"; }
    void IncBackgroundThreadsIfNeeded(int, Priority) override {}
  };
  static ReaderEnv* const env = new ReaderEnv();
  return env;
}

Status other_schema(const rocksdb::DBOptions& options, const std::string& path) {
  auto version = stored_version(options, path);
  if (!version) return version.error();
  if (*version == schema_version)  // this version, a family missing
    return Status::error(Status::Code::Corruption,
                         pgn::cat(path, " is damaged: a column family of schema version ",
                                  schema_version, " is missing"));
  return version_mismatch(path, *version);
}

// What `path` holds, checked before RocksDB touches it: a writer must not create a database
// among a user's files, nor add this schema's column families to a database of another version
// (or of another program) before finding out. Nothing there yet is fine.
Status check_path(const std::string& path, const rocksdb::DBOptions& db_options, bool read_only) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) return Status::ok();
  if (!fs::is_directory(status))
    return Status::error(Status::Code::NotADatabase,
                         pgn::cat(path, " is not a pgndb database: it is a file"));
  if (!fs::exists(fs::path(path) / "CURRENT", error)) {
    // RocksDB's LOCK and LOG are written before anything else: they alone are no user's files.
    bool only_rocksdb_files = true;
    for (const auto& entry : fs::directory_iterator(path, error)) {
      const std::string name = entry.path().filename().string();
      only_rocksdb_files &= name == "LOCK" || name.starts_with("LOG");
    }
    if (only_rocksdb_files) return Status::ok();
    return Status::error(
        Status::Code::NotADatabase,
        pgn::cat(path, " is not a pgndb database: it is a directory holding other files"));
  }
  if (read_only) return Status::ok();  // the read-only open checks the families itself
  std::vector<std::string> existing;
  if (!rocksdb::DB::ListColumnFamilies(db_options, path, &existing).ok()) return Status::ok();
  bool lacks_added = false;
  for (const FamilyTraits& family : family_table)
    if (std::find(existing.begin(), existing.end(), family.name) == existing.end()) {
      if (!family.since_schema) return other_schema(db_options, path);
      lacks_added = true;
    }
  // Older versions lack families the writer adds (Store::Impl::upgrade).
  if (lacks_added) {
    auto version = stored_version(db_options, path);
    if (!version || !is_upgradable(*version)) return other_schema(db_options, path);
  }
  return Status::ok();
}

std::string encode_reject(const Reject& r) {
  std::string out;
  bytes::put_string(out, r.source);
  bytes::put_varint(out, r.location.line);
  bytes::put_varint(out, r.location.column);
  bytes::put_string(out, r.error);
  bytes::put_string(out, r.text);
  return out;
}

// A position entry of a batch: the top 40 bits of the key over the game's place in the batch
// (batch_game_bits: a batch holds at most WriteBatch::max_games), so that ordering the numbers
// orders by key, then game, and an entry takes 8 bytes: they are the largest part of a batch.
constexpr int batch_game_bits = 24;
static_assert(WriteBatch::max_games < (std::size_t(1) << batch_game_bits));
std::uint64_t batch_entry(std::uint64_t key40, std::uint32_t place) {
  return key40 << batch_game_bits | place;
}
std::uint64_t key40_of_entry(std::uint64_t entry) { return entry >> batch_game_bits; }
std::uint32_t place_of_entry(std::uint64_t entry) {
  return std::uint32_t(entry) & ((std::uint32_t(1) << batch_game_bits) - 1);
}

// A key and value to write.
struct Row {
  std::string key, value;
};

// What a batch writes into one family's table file: a function that adds the entries in key
// order, or none when the batch has nothing for that family. The bulk of a batch (position
// runs, metadata keys) is written straight from the batch's own structures, with no row built
// per key.
using TableContent = std::function<rocksdb::Status(rocksdb::SstFileWriter&)>;

// The lists of values (each an entry: its value key and the ascending ids of its games; the
// entries ascending by value key) as merge operands of the postings family, one a value and
// block (value_postings.h). `values` must outlive the content.
using ValueLists = std::vector<postings::ValueList>;
TableContent merged_lists(const ValueLists& values) {
  return [&values](rocksdb::SstFileWriter& writer) {
    std::string list;
    rocksdb::Status s;
    postings::for_each_list(values,
                            [&](const std::string& key, std::span<const std::uint32_t> ids) {
                              if (!s.ok()) return;
                              list.clear();
                              name_index::encode_numbers(ids, list);
                              s = writer.Merge(key, list);
                            });
    return s;
  };
}

// Writes `rows` (sorted here when they are not; keys unique).
template <class Rows>
TableContent rows_content(Rows& rows) {
  if (rows.empty()) return {};
  return [&rows](rocksdb::SstFileWriter& writer) {
    auto by_key = [](const Row& a, const Row& b) { return a.key < b.key; };
    if (!std::is_sorted(rows.begin(), rows.end(), by_key))
      std::sort(rows.begin(), rows.end(), by_key);
    rocksdb::Status s;
    for (std::size_t i = 0; s.ok() && i < rows.size(); ++i)
      s = writer.Put(rows[i].key, rows[i].value);
    return s;
  };
}

// Names new to the database, as a batch or a part of an upgrade writes them: each name's key in
// the names family with its number, the number's key in the name index with the name, and the
// (fragment code << 32 | number) of each of its fragments (index_content).
struct NewNames {
  // In huge pages (huge_pages.h): a batch of lichess games has hundreds of thousands of names.
  LargeVector<Row> names, numbers;
  LargeVector<std::uint64_t> postings;
  std::vector<std::uint32_t> codes;  // scratch
  // Numbers come ascending (index_content relies on it).
  void add(std::string_view name, std::uint32_t number) {
    names.push_back({std::string(name), bytes::big_endian32(number)});
    numbers.push_back({name_index::number_key(number), std::string(name)});
    codes.clear();
    name_index::append_fragment_codes(name, codes);
    for (std::uint32_t code : codes) postings.push_back(std::uint64_t(code) << 32 | number);
  }
  void clear() {
    names.clear();
    numbers.clear();
    postings.clear();
  }
};

// What a batch (or a part of an upgrade) adds to the name index (name_index.h): `postings`,
// each a fragment's code (name_index::append_fragment_codes) above a name's number, become one
// merge operand per fragment; `numbers`, the rows of the new names' numbers, ascending, follow
// (their tag sorts after the fragments').
TableContent index_content(LargeVector<std::uint64_t>& postings, LargeVector<Row>& numbers) {
  if (numbers.empty()) return {};
  return [&postings, &numbers](rocksdb::SstFileWriter& writer) {
    static_assert(name_index::fragment_tag < name_index::number_tag);
    // By fragment, then number: a stable sort on the top 40 bits keeps each fragment's numbers
    // in the order they were added, ascending.
    sort_in_place(postings);
    rocksdb::Status s;
    std::vector<std::uint32_t> list;
    std::string value;
    for (std::size_t i = 0; s.ok() && i < postings.size();) {
      const std::uint32_t code = std::uint32_t(postings[i] >> 32);
      list.clear();
      for (; i < postings.size() && postings[i] >> 32 == code; ++i)
        list.push_back(std::uint32_t(postings[i]));
      value.clear();
      name_index::encode_numbers(list, value);
      s = writer.Merge(name_index::fragment_key(code), value);
    }
    for (std::size_t i = 0; s.ok() && i < numbers.size(); ++i)
      s = writer.Put(numbers[i].key, numbers[i].value);
    return s;
  };
}

}  // namespace

// One generation's run of a bucket, pinned where RocksDB holds it, with a reader standing on the
// next game of the wanted suffix (a stream of take_ascending).
struct Store::PositionGames::Runs {
  struct Stream {
    rocksdb::PinnableSlice value;
    positions::RunReader reader;
    std::uint32_t suffix = 0;
    std::uint32_t head = 0;  // the next game, while `live`
    bool live = false;

    // Opens the run in `value` and stands on its first game of the suffix; false when the run
    // is damaged.
    bool start() { return reader.open(value.ToStringView()) && advance(); }
    // Moves to the next game of the suffix; false when the run is damaged.
    bool advance() {
      positions::Entry e;
      while (reader.next(e)) {
        if (e.suffix < suffix) continue;  // only before the stretch: runs are sorted by suffix
        live = e.suffix == suffix;
        head = e.game;
        return true;
      }
      live = false;
      return !reader.damaged();
    }
  };
  std::vector<std::unique_ptr<Stream>> streams;
};

struct Store::Impl {
  std::unique_ptr<rocksdb::DB> db;
  std::string path;
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyOptions> family_options;
  std::vector<rocksdb::ColumnFamilyHandle*> families;
  std::uint32_t version = 0;
  std::uint32_t upgraded_from = 0;       // Store::upgraded_from
  std::uint32_t games = 0, rejects = 0;  // committed counts
  // The epochs of the postings family that hold lists (value_postings.h).
  std::uint32_t epochs() const { return postings::epochs_of(games); }
  std::uint32_t players = 0;             // distinct player names committed
  std::uint32_t name_count = 0;          // the last number given to a name (name_index.h)
  std::uint32_t duplicates = 0;          // games marked duplicates
  std::uint64_t small_family_bytes = 0;  // StoreOptions::small_family_bytes
  bool cache_game_data = false;          // StoreOptions::cache_game_data
  // The names family's values of each name dimension, read once (a store opened read-only sees
  // no later import; a writer's commit empties it).
  std::mutex names_mutex;
  std::map<char, std::shared_ptr<const PackedStrings>> names;
  // The live generations of the two position indexes (main line, variations): read at open,
  // replaced by each commit and merge, on the committing thread.
  mutable std::mutex generations_mutex;
  positions::Generations generations[2];
  // The first generation ids this store gave (an import's own generations are those from here),
  // and the first game id.
  std::uint32_t first_new_generation[2] = {1, 1};
  std::uint32_t first_new_game = 1;
  // Whether this store wrote a table file with LZ4 (write_table): settle() rewrites the
  // import's game files then, whatever their number. Set by commits, read after them.
  std::atomic<bool> light_files_written = false;

  // Ok when this store opened `f`; an error naming `what` for an import record that a reader
  // for searching left closed (StoreOptions::import_records).
  Status require_open(Family f, std::string_view what) const {
    if (families[f]) return Status::ok();
    return Status::error(Status::Code::InvalidArgument,
                         pgn::cat(what, ": the database was opened without its import records"));
  }
  ~Impl() {
    for (auto* f : families)
      if (db && f) db->DestroyColumnFamilyHandle(f).PermitUncheckedError();
  }

  // Where a batch's table file for family `f` is written before it is ingested.
  std::string ingest_path(int f) const {
    return pgn::cat(path, "/ingest-", family_name(f), ".sst");
  }

  // Writes a table file of family `f`.
  // `light`: a file that settle() rewrites, written with LZ4 where the family's compression is
  // ZSTD (WriteBatch::set_games_rewritten_later).
  Status write_table(int f, const TableContent& content, const std::string& file,
                     bool light = false) {
    rocksdb::Options options(db_options, family_options[f]);
    if (light && options.compression == rocksdb::kZSTD) {
      options.compression = rocksdb::kLZ4Compression;
      light_files_written = true;
    }
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options, families[f]);
    rocksdb::Status s = writer.Open(file);
    if (s.ok()) s = content(writer);
    if (s.ok()) s = writer.Finish();
    return s.ok() ? Status::ok() : from_rocksdb(s, pgn::cat("writing ", file));
  }

  // Table files of one atomic step, one per family, each written on a thread of its own from
  // the moment its content is given, then ingested together (ingest_tables). A commit gives
  // each family's content as soon as it is complete: the games' file, the longest to write
  // (ZSTD over every game), starts at once rather than after the position entries are sorted
  // and the batch's new names looked up. The last commit of an import, which nothing else
  // overlaps, waited for those with a core idle (100,000 lichess-style games: 0.3 s of 1.1).
  // Contract: what a content refers to outlives the TableFiles (its destructor waits for every
  // file); a family is given once.
  class TableFiles {
   public:
    // `light_keyed_by_game`: the families keyed by game are written light (write_table).
    TableFiles(Impl& store, bool light_keyed_by_game)
        : store_(store), light_keyed_by_game_(light_keyed_by_game) {}
    TableFiles(const TableFiles&) = delete;
    TableFiles& operator=(const TableFiles&) = delete;
    ~TableFiles() { join(); }

    // Starts writing family `f`'s file; none when `content` is empty.
    void write(int f, TableContent content) {
      if (!content) return;
      given_[f] = true;
      contents_[f] = std::move(content);
      threads_[f] = std::thread([this, f] {
        status_[f] = store_.write_table(f, contents_[f], store_.ingest_path(f),
                                        light_keyed_by_game_ && is_keyed_by_game(f));
      });
    }

    // Waits for every file given; the first failure.
    [[nodiscard]] Status wait() {
      join();
      for (int f = 0; f < FamilyCount; ++f)
        if (given_[f] && !status_[f].is_ok()) return status_[f];
      return Status::ok();
    }

    // Waits, then ingests every file given in one atomic step.
    [[nodiscard]] Status ingest() {
      if (Status s = wait(); !s.is_ok()) return s;
      return store_.ingest_tables(given_);
    }

   private:
    void join() {
      for (std::thread& t : threads_)
        if (t.joinable()) t.join();
    }

    Impl& store_;
    const bool light_keyed_by_game_;
    bool given_[FamilyCount] = {};
    TableContent contents_[FamilyCount];
    Status status_[FamilyCount];
    std::thread threads_[FamilyCount];
  };

  // Writes each family's content as one table file, side by side (TableFiles).
  Status write_tables(const TableContent (&contents)[FamilyCount],
                      bool light_keyed_by_game = false) {
    TableFiles files(*this, light_keyed_by_game);
    for (int f = 0; f < FamilyCount; ++f) files.write(f, contents[f]);
    return files.wait();
  }

  // Runs `work(f)` for each family `wanted(f)` names, a thread each, and gives the first
  // failure.
  template <class Wanted, class Work>
  static Status side_by_side(Wanted wanted, Work work) {
    Status status[FamilyCount];
    std::vector<std::thread> threads;
    for (int f = 0; f < FamilyCount; ++f) {
      status[f] = Status::ok();
      if (wanted(f)) threads.emplace_back([&, f] { status[f] = work(f); });
    }
    for (auto& t : threads) t.join();
    for (const Status& s : status)
      if (!s.is_ok()) return s;
    return Status::ok();
  }

  // Ingests the files written for the families of `written` in one atomic step: after a crash
  // either every file of the batch is in the database or none is.
  Status ingest_tables(const bool (&written)[FamilyCount]) {
    std::vector<rocksdb::IngestExternalFileArg> args;
    for (int f = 0; f < FamilyCount; ++f) {
      if (!written[f]) continue;
      rocksdb::IngestExternalFileArg arg;
      arg.column_family = families[f];
      arg.external_files = {ingest_path(f)};
      arg.options.move_files = true;
      args.push_back(std::move(arg));
    }
    if (args.empty()) return Status::ok();
    rocksdb::Status s = db->IngestExternalFiles(args);
    return s.ok() ? Status::ok() : from_rocksdb(s, "ingesting a batch");
  }

  Status ingest(const TableContent (&contents)[FamilyCount]) {
    TableFiles files(*this, false);
    for (int f = 0; f < FamilyCount; ++f) files.write(f, contents[f]);
    return files.ingest();
  }

  // Brings a database of version 9 to 19 to this schema, in place: what each later version
  // added (add_facts, add_name_index, add_postings, the statistics' slices, the postings' epochs).
  // Version 9 lacks the statistics of popular positions too, which the merge of the slices
  // counts. Killed part-way, it is done again: each step writes whole, the deletions repeat, and
  // the version is written last. A database of 15 or before stopped part-way has a family its
  // pgndb does not know already, so that pgndb can no longer open it: only this one finishes the
  // upgrade. One of 16 stopped part-way still has its lists as 16 keys them (17's are beside
  // them, which 16 does not read): add_epochs_to_postings deletes them as it writes the version.
  // Writes this schema's version. Into a table file at once: every other write is an ingested
  // table file, so the write-ahead log is left empty, and a reader opening the database beside
  // an importer (which may be replaying and deleting that log) never misses anything. Written
  // again, the same, at the end of each import (release_logs).
  // `upgraded`: the key of an upgrade's progress (add_speeds_and_endings) goes, in the same write.
  Status write_schema_version(bool upgraded = false) {
    rocksdb::WriteBatch batch;
    rocksdb::Status s =
        batch.Put(families[Default], version_key, bytes::big_endian32(schema_version));
    if (s.ok() && upgraded) s = batch.Delete(families[Default], endings_written_key);
    if (s.ok()) s = db->Write(rocksdb::WriteOptions(), &batch);
    if (s.ok()) s = db->Flush(rocksdb::FlushOptions(), families[Default]);
    return s.ok() ? Status::ok() : from_rocksdb(s, "writing the schema version");
  }

  // Lets RocksDB delete the write-ahead logs of earlier writers. Every other write of pgndb is
  // an ingested table file, so no family ever flushes, and RocksDB 7.8 keeps every log from the
  // one each family had when it last flushed: each writer's open left an empty log, which every
  // reader then opens (102 after 100 small imports). The flush of one write moves the families
  // with nothing unflushed past the logs too (RocksDB 8.3 does so on reopen). A reader opening
  // meanwhile may find a log gone, and Store::open then reads the list of files again.
  Status release_logs() { return write_schema_version(); }

  Status upgrade() {
    if (version < 11)
      if (Status s = add_facts(); !s.is_ok()) return s;
    // Schema 19 keeps each game's speed (from its TimeControl tag) in its summary and facts,
    // schema 20 how its main line ended, 21 its opening. Before the steps below:
    // add_epochs_to_postings writes the version, after which no step may be left to do.
    if (version < 21)
      if (Status s = add_speeds_and_endings(version < 11   ? 11
                                            : version < 19 ? 8
                                            : version < 20 ? 9
                                                           : 10);
          !s.is_ok())
        return s;
    if (version < 12)
      if (Status s = add_name_index(); !s.is_ok()) return s;
    if (version < 13)
      if (Status s = add_postings({metadata::Date, metadata::Eco},
                                  "deleting the dates' and ECO codes' keys");
          !s.is_ok())
        return s;
    // Schema 14 slices the statistics of the most popular positions by rating band and year:
    // the main line's generations are merged into one, which counts them from the summaries.
    if (version < 14) {
      std::vector<std::uint32_t> ids;
      for (const positions::Generation& g : generations_of(MainLine).live) ids.push_back(g.id);
      if (!ids.empty())
        if (Status s = merge_generations(MainLine, ids); !s.is_ok()) return s;
    }
    // Schema 15 keeps the games of each player, event and site as lists too: RocksDB's merges
    // of the metadata family rewrote a key per game (51 MB at 3 M games) every import or few.
    if (version < 15)
      if (Status s = add_postings({metadata::Event, metadata::Player, metadata::Site},
                                  "deleting the names' keys");
          !s.is_ok())
        return s;
    // Schema 16 writes games in format 3 (comments of clocks and evals as numbers); the games
    // of format 2 stay as they are, read as before: nothing to do for it.
    // Schema 17 puts the epoch in front of the postings' keys.
    if (version < 17)
      if (Status s = add_epochs_to_postings(); !s.is_ok()) return s;
    // Schema 18 keeps the best-rated games of popular positions: the generations of 17 keep
    // none, and merges count them (merge_statistics). Nothing to do now.
    // Schema 22: every game's material, after the postings have their epochs (its lists are
    // written with them).
    // Schema 23 keeps the squares each game's pawns stood on in its history: the histories of
    // 22 are written again, their lists kept.
    // Schema 24 keeps the ranks each side's rooks stood on too: the histories are written again.
    if (version < 24)
      if (Status s = add_materials(/*lists=*/version < 22); !s.is_ok()) return s;
    // Schema 25 codes position runs by groups; the runs of 24 and before are read as they are
    // (position_runs.h): nothing to do.
    if (Status written = write_schema_version(true); !written.is_ok()) return written;
    upgraded_from = version;
    version = schema_version;
    return Status::ok();
  }

  // Schema 22: each game's material history (the `materials` family) and the lists of the
  // balances it held (postings, metadata::Material), its main line played
  // again, a million games at a time: memory stays bounded, and each part is one ingestion of
  // both. Killed part-way and done again, the histories are written again under their keys and
  // the lists' merge drops the repeated ids. Without `lists`, the histories alone (schemas 23
  // and 24).
  Status add_materials(bool lists) {
    if (games == 0) return Status::ok();
    // The histories of 22 and 23 go first: their groups, as each import batch ended them, need not
    // start where these do, and a group left would hold a game twice. Killed after this, the
    // database still says its old version and the next writer writes them all from the games.
    if (!lists)
      if (rocksdb::Status s = db->DeleteRange(rocksdb::WriteOptions(), families[Materials],
                                              std::string(), std::string(5, '\xFF'));
          !s.ok())
        return from_rocksdb(s, "deleting the material histories of schema 22 or 23");
    constexpr std::size_t part = 1 << 20;
    // Groups as the summaries' (material_record.h): the first id and the entries.
    std::vector<std::pair<std::string, std::string>> histories;
    std::map<std::string, std::vector<std::uint32_t>> values;
    std::uint32_t group_first = 0, group_games = 0;
    std::string group;
    std::size_t in_part = 0;
    auto end_group = [&] {
      if (group_games) histories.emplace_back(game_key(group_first), std::move(group));
      group.clear();
      group_games = 0;
    };
    auto write = [&]() -> Status {
      TableContent contents[FamilyCount];
      contents[Materials] = [&histories](rocksdb::SstFileWriter& writer) {
        rocksdb::Status s;
        for (const auto& [key, value] : histories)
          if (s = writer.Put(key, value); !s.ok()) break;
        return s;
      };
      ValueLists lists;
      for (const auto& [value, ids] : values) lists.push_back({value, ids});
      if (!lists.empty()) contents[Postings] = merged_lists(lists);
      end_group();
      Status s = histories.empty() ? Status::ok() : ingest(contents);
      histories.clear();
      values.clear();
      in_part = 0;
      return s;
    };
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(bulk_read_options(), families[Games]));
    std::vector<std::uint64_t> game_values;
    std::string encoded;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::uint32_t id = game_of_key(it->key().ToStringView());
      if (id == 0 || id > games) continue;
      // A group holds consecutive games and ends before a multiple of summary_group.
      if (group_games && (id != group_first + group_games || id % summary_group == 0)) end_group();
      if (!group_games) group_first = id;
      ++group_games;
      // A game that does not decode (verify reports it) has an empty entry, no history.
      encoded.clear();
      if (auto game = decode_game(it->value().ToStringView())) {
        const pgn::MaterialHistory history = material_of(*game);
        material::encode_history(history, encoded);
        if (lists) {
          material_values_of(history, game_values);
          for (std::uint64_t value : game_values)
            values[material::value_of_packed(value)].push_back(id);
        }
      }
      bytes::put_string(group, encoded);
      if (++in_part >= part && id % summary_group == summary_group - 1)
        if (Status s = write(); !s.is_ok()) return s;
    }
    if (!it->status().ok()) return from_rocksdb(it->status(), "reading the games");
    return write();
  }

  // Schema 11: the facts of every game, from its summary (the same fields), and the metadata
  // keys of results and plies deleted (the facts answer those filters).
  Status add_facts() {
    if (games > 0) {
      TableContent contents[FamilyCount];
      Status read = Status::ok();
      contents[Facts] = [this, &read](rocksdb::SstFileWriter& writer) {
        GroupedReader summaries(*db, families[Summaries]);
        std::vector<SearchFacts> group;
        std::string value;
        rocksdb::Status s;
        for (std::uint32_t id = 1; s.ok() && id <= games; ++id) {
          auto summary = summaries.get(id);
          if (summary) {
            group.push_back(summary->facts());
          } else {
            // A summary damaged or missing: the facts from the game itself (verify reports
            // the summary).
            auto stored = read_game(id);
            GameFacts from_game = stored ? game_facts(id, *stored) : GameFacts{};
            if (!stored || !from_game.error.empty()) {
              read = summary.error();
              return rocksdb::Status::Aborted("reading the summaries");
            }
            group.push_back(from_game.summary.facts());
          }
          const std::uint32_t first = id + 1 - std::uint32_t(group.size());
          if (group.size() < facts::group_capacity(first) && id != games) continue;
          value.clear();
          facts::encode_group(group, value);
          s = writer.Put(game_key(first), value);
          group.clear();
        }
        return s;
      };
      if (Status s = ingest(contents); !s.is_ok()) return read.is_ok() ? s : read;
    }
    return delete_dimensions({metadata::RetiredPlies, metadata::RetiredResult},
                             "deleting the retired metadata keys");
  }

  // Schemas 19 to 21: every game's speed, from the TimeControl tag of the stored game, how its
  // main line ended (its moves played again: pgn::EndingTracker) and its opening (the first 40
  // plies' positions: pgn::classify_opening), written into its summary (the speed in bits 4-6
  // of the first byte, the ending in a byte of its own, the opening in two) and its facts (the
  // ninth to eleventh columns). Each group is written again under its key with its games, so the
  // groups' bounds stay; what was found is kept meanwhile, 3 bytes a game (300 MB at 10^8
  // games). `facts_columns`: how many columns the facts groups have now (8 before schema 19, 9
  // in 19, 10 in 20; add_facts wrote those of 9 and 10 just now, with all 11).
  // The groups are written with a key of the default family, `meta:endings_written`, in one
  // atomic ingestion; its value is the schema they were written for (4 bytes, big-endian; empty
  // when a pgndb of schema 20 wrote it). An upgrade killed after it and before the version is
  // written finds the groups rewritten already, and leaves them; one for an older schema (the
  // upgrade to 20 stopped there, 10 columns) is done again from those groups (read as groups of
  // fewer columns they would be damaged). The key goes with the version written.
  Status add_speeds_and_endings(std::size_t facts_columns) {
    if (games == 0) return Status::ok();
    constexpr std::string_view written_key = endings_written_key;
    {
      std::string value;
      const rocksdb::Status s =
          db->Get(rocksdb::ReadOptions(), families[Default], written_key, &value);
      if (s.ok()) {
        // Written for 21 or later: the groups have this schema's layout (22 added no field).
        if (value.size() == 4 && bytes::read_big_endian32(value) >= 21) return Status::ok();
        if (value.empty()) facts_columns = 10;  // written by the upgrade to 20
      } else if (!s.IsNotFound()) {
        return from_rocksdb(s, "reading the upgrade's progress");
      }
    }
    // The speed in bits 0-2, SearchFacts::ending_code in bits 3-7; the opening.
    std::vector<std::uint8_t> found(std::size_t(games) + 1, 0);
    std::vector<pgn::OpeningId> found_openings(std::size_t(games) + 1, 0);
    {
      std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(bulk_read_options(), families[Games]));
      std::vector<pgn::Key> keys;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const std::uint32_t id = game_of_key(it->key().ToStringView());
        if (id == 0 || id > games) continue;
        // A game that does not decode (verify reports it) keeps an unknown speed, ending None.
        auto game = decode_game(it->value().ToStringView());
        if (!game) continue;
        SearchFacts facts;
        if (const std::string* tag = game->tag("TimeControl"))
          facts.speed = pgn::speed_of_time_control(*tag);
        pgn::EndingTracker tracker(game->start);
        pgn::Position pos = game->start;
        keys.assign(1, pgn::repetition_key(pos));
        for (const pgn::MoveNode& node : game->moves) {
          pos.play_or_pass(node.move);
          tracker.after_move(pos);
          if (keys.size() <= pgn::opening_plies) keys.push_back(pgn::repetition_key(pos));
        }
        const pgn::GameEnding ending = tracker.finish(pos);
        facts.ending = ending.ending;
        facts.repetition = ending.repetition;
        facts.fifty_moves = ending.fifty_moves;
        found[id] = std::uint8_t(unsigned(facts.speed) | facts.ending_code() << 3);
        found_openings[id] = pgn::classify_opening(keys, game->start == pgn::Position());
      }
      if (!it->status().ok()) return from_rocksdb(it->status(), "reading the games");
    }
    Status read = Status::ok();
    auto rewrite = [&](int family, auto&& regroup) {
      return [this, family, regroup, &read](rocksdb::SstFileWriter& writer) {
        std::unique_ptr<rocksdb::Iterator> it(
            db->NewIterator(bulk_read_options(), families[family]));
        std::string value;
        rocksdb::Status s;
        for (it->SeekToFirst(); s.ok() && it->Valid(); it->Next()) {
          value.clear();
          read = regroup(game_of_key(it->key().ToStringView()), it->value().ToStringView(), value);
          if (!read.is_ok()) return rocksdb::Status::Aborted("rewriting a group");
          s = writer.Put(it->key(), value);
        }
        return s.ok() ? it->status() : s;
      };
    };
    // Sets the speed, the ending and the opening found for game `id`.
    auto set = [&found, &found_openings](std::uint32_t id, auto& facts) {
      const unsigned v = id < found.size() ? found[id] : 0;
      SearchFacts in;
      in.set_ending_code(v >> 3);
      facts.speed = pgn::Speed(v & 7);
      facts.ending = in.ending;
      facts.repetition = in.repetition;
      facts.fifty_moves = in.fifty_moves;
      facts.opening_id = id < found_openings.size() ? found_openings[id] : 0;
    };
    TableContent contents[FamilyCount];
    contents[Summaries] =
        rewrite(Summaries, [&](std::uint32_t first, std::string_view group, std::string& out) {
          bytes::Reader in(group);
          std::string_view entry;
          std::string summary;
          for (std::uint32_t id = first; !in.empty(); ++id) {
            if (!in.view(entry))
              return Status::error(Status::Code::Corruption, "summaries damaged");
            auto decoded = decode_summary(entry);
            if (!decoded) return decoded.error();
            set(id, *decoded);
            summary.clear();
            encode_summary(*decoded, summary);
            bytes::put_string(out, summary);
          }
          return Status::ok();
        });
    contents[Facts] =
        rewrite(Facts, [&](std::uint32_t first, std::string_view group, std::string& out) {
          auto old = facts_columns == 8    ? facts::GroupView::parse_schema_18(group)
                     : facts_columns == 9  ? facts::GroupView::parse_schema_19(group)
                     : facts_columns == 10 ? facts::GroupView::parse_schema_20(group)
                                           : facts::GroupView::parse(group);
          if (!old) return old.error();
          std::vector<SearchFacts> games(old->size());
          for (std::size_t i = 0; i < games.size(); ++i) {
            games[i] = old->at(i);
            set(first + std::uint32_t(i), games[i]);
          }
          facts::encode_group(games, out);
          return Status::ok();
        });
    contents[Default] = [written_key](rocksdb::SstFileWriter& writer) {
      return writer.Put(written_key, bytes::big_endian32(schema_version));
    };
    if (Status s = ingest(contents); !s.is_ok()) return read.is_ok() ? s : read;
    return read;
  }

  // Deletes every metadata key of the dimensions `dimensions` (ascending), then compacts once
  // over them all (the metadata's files span every dimension: compacting each range alone
  // rewrote them once per range).
  Status delete_dimensions(std::initializer_list<char> dimensions, std::string_view what) {
    rocksdb::Status deleted;
    for (const char dimension : dimensions) {
      const std::string from(1, dimension), to(1, char(dimension + 1));
      if (deleted.ok())
        deleted = db->DeleteRange(rocksdb::WriteOptions(), families[Metadata], from, to);
    }
    if (deleted.ok()) deleted = db->Flush(rocksdb::FlushOptions(), families[Metadata]);
    if (deleted.ok()) {
      const std::string from(1, *dimensions.begin()), to(1, char(*std::prev(dimensions.end()) + 1));
      const rocksdb::Slice begin(from), end(to);
      rocksdb::CompactRangeOptions options;
      options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
      deleted = db->CompactRange(options, families[Metadata], &begin, &end);
    }
    return deleted.ok() ? Status::ok() : from_rocksdb(deleted, what);
  }

  // Ingests `lists` (keys of the postings family, each with a list of ids encoded as
  // name_index.h's number lists) as merge operands in one table file, sorted by key, and
  // empties it. The upgrades write lists in the order they read them: by value, which the epoch
  // in front of a key (value_postings.h) breaks across epochs.
  Status ingest_lists(std::vector<std::pair<std::string, std::string>>& lists) {
    if (lists.empty()) return Status::ok();
    std::sort(lists.begin(), lists.end());
    TableContent contents[FamilyCount];
    contents[Postings] = [&lists](rocksdb::SstFileWriter& writer) {
      rocksdb::Status s;
      for (const auto& [key, list] : lists)
        if (s = writer.Merge(key, list); !s.ok()) break;
      return s;
    };
    Status s = ingest(contents);
    lists.clear();
    return s;
  }

  // Schema 13 (dates and ECO codes) and 15 (players, events, sites): the keys of `dimensions`
  // (ascending) in the metadata family, a key per game, become lists of ids (value_postings.h),
  // a million ids at a time (memory stays bounded): a list that straddles two parts is two merge
  // operands, which the compaction at the end merges. Killed part-way and done again, the ids
  // are written again and the merge drops the repeats.
  Status add_postings(std::initializer_list<char> dimensions, std::string_view what) {
    std::vector<std::pair<std::string, std::vector<std::uint32_t>>> lists;
    std::size_t buffered = 0;
    auto write = [&]() -> Status {
      std::vector<std::pair<std::string, std::string>> encoded(lists.size());
      for (std::size_t i = 0; i < lists.size(); ++i) {
        encoded[i].first = std::move(lists[i].first);
        name_index::encode_numbers(lists[i].second, encoded[i].second);
      }
      lists.clear();
      buffered = 0;
      return ingest_lists(encoded);
    };
    for (const char dimension : dimensions) {
      // An iterator per dimension: its error, checked before the keys are deleted, is this
      // dimension's (a seek clears an iterator's error).
      std::unique_ptr<rocksdb::Iterator> it(
          db->NewIterator(bulk_read_options(), families[Metadata]));
      const std::string prefix(1, dimension);
      for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
        const std::string_view key = it->key().ToStringView();
        // The value, then the id; a list's key must read back as one of this dimension.
        const auto id = metadata::game_id_of(key);
        const std::string_view value = key.substr(0, key.size() - 4);
        std::string list_key = id ? postings::key(value, postings::block_of(*id)) : std::string();
        const auto parsed = postings::parse_key(list_key);
        if (!parsed || parsed->value_key != value)
          return Status::error(
              Status::Code::Corruption,
              pgn::cat("metadata damaged: a key of ", dimension, " of ", key.size(), " bytes"));
        if (lists.empty() || lists.back().first != list_key)
          lists.emplace_back(std::move(list_key), std::vector<std::uint32_t>());
        lists.back().second.push_back(*id);
        if (++buffered >= (std::size_t(1) << 20))
          if (Status s = write(); !s.is_ok()) return s;
      }
      if (!it->status().ok()) return from_rocksdb(it->status(), "reading the metadata");
    }
    if (Status s = write(); !s.is_ok()) return s;
    rocksdb::CompactRangeOptions options;
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    if (rocksdb::Status s = db->CompactRange(options, families[Postings], nullptr, nullptr);
        !s.ok())
      return from_rocksdb(s, "compacting the postings");
    // The keys the lists replace.
    return delete_dimensions(dimensions, what);
  }

  // Schema 17: each list of the postings family under its key with the epoch in front
  // (value_postings.h). The older keys start with their dimension byte, above every epoch's first
  // byte (below 0x10): their lists are written again under the new keys, 64 MB at a time, sorted
  // (memory stays bounded), then deleted, and one compaction merges the family. Killed part-way
  // and done again, a list is written again and the merge drops the repeated ids.
  Status add_epochs_to_postings() {
    const std::string old_from(1, '\x10'), old_past(1, '\xFF');
    std::vector<std::pair<std::string, std::string>> lists;
    std::size_t buffered = 0;
    auto write = [&]() -> Status {
      buffered = 0;
      return ingest_lists(lists);
    };
    bool found = false;
    {
      std::unique_ptr<rocksdb::Iterator> it(
          db->NewIterator(bulk_read_options(), families[Postings]));
      for (it->Seek(old_from); it->Valid() && it->key().ToStringView() < old_past; it->Next()) {
        found = true;
        // The value, then the block.
        const std::string_view key = it->key().ToStringView();
        std::string list_key;
        if (key.size() > postings::block_key_size) {
          const std::size_t at = key.size() - postings::block_key_size;
          list_key = postings::key(key.substr(0, at), bytes::read_big_endian16(key.substr(at)));
        }
        if (!postings::parse_key(list_key))
          return Status::error(Status::Code::Corruption,
                               pgn::cat("postings damaged: a key of ", key.size(), " bytes"));
        buffered += list_key.size() + it->value().size();
        lists.emplace_back(std::move(list_key), it->value().ToString());
        if (buffered >= (std::size_t(64) << 20))
          if (Status s = write(); !s.is_ok()) return s;
      }
      if (!it->status().ok()) return from_rocksdb(it->status(), "reading the postings");
    }
    if (!found) return Status::ok();
    if (Status s = write(); !s.is_ok()) return s;
    // The old keys go with the version written, in one atomic write: a pgndb of schema 16 then
    // never opens the database with its lists gone (it refuses 17), and one stopped before it
    // still has them.
    rocksdb::WriteBatch deletion;
    rocksdb::Status s = deletion.DeleteRange(families[Postings], old_from, old_past);
    if (s.ok())
      s = deletion.Put(families[Default], version_key, bytes::big_endian32(schema_version));
    if (s.ok()) s = deletion.Delete(families[Default], endings_written_key);
    if (s.ok()) s = db->Write(rocksdb::WriteOptions(), &deletion);
    if (s.ok()) s = db->Flush(rocksdb::FlushOptions(), {families[Postings], families[Default]});
    rocksdb::CompactRangeOptions options;
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    if (s.ok()) s = db->CompactRange(options, families[Postings], nullptr, nullptr);
    return s.ok() ? Status::ok() : from_rocksdb(s, "deleting the postings' older keys");
  }

  // Schema 12: a number for every name of the names family, in key order, and the name index
  // (name_index.h); the counts of names, players and duplicates. Written a million fragments at a
  // time (memory stays bounded whatever the number of names): each part's lists are merge operands
  // above the earlier parts' numbers, and one compaction merges them. Killed part-way and done
  // again, the names get the same numbers, and the merge drops the repeated ones.
  Status add_name_index() {
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(bulk_read_options(), families[Names]));
    NewNames added;
    std::uint32_t count = 0, player_names = 0;
    auto write = [&]() -> Status {
      if (added.names.empty()) return Status::ok();
      TableContent contents[FamilyCount];
      contents[Names] = rows_content(added.names);
      contents[NameIndex] = index_content(added.postings, added.numbers);
      Status s = ingest(contents);
      added.clear();
      return s;
    };
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view name = it->key().ToStringView();
      player_names += name.starts_with(char(metadata::Player));
      added.add(name, ++count);
      if (added.postings.size() >= (std::size_t(1) << 20))
        if (Status s = write(); !s.is_ok()) return s;
    }
    if (!it->status().ok()) return from_rocksdb(it->status(), "reading the names");
    it.reset();
    if (Status s = write(); !s.is_ok()) return s;
    rocksdb::CompactRangeOptions options;
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    for (Family f : {Names, NameIndex})
      if (rocksdb::Status s = db->CompactRange(options, families[f], nullptr, nullptr); !s.ok())
        return from_rocksdb(s, "compacting the names");
    // Written with the schema version (write_schema_version flushes the default family).
    for (auto [key, value] :
         {std::pair{player_count_key, player_names}, std::pair{name_count_key, count}})
      if (rocksdb::Status s =
              db->Put(rocksdb::WriteOptions(), families[Default], key, bytes::big_endian32(value));
          !s.ok())
        return from_rocksdb(s, "writing the name counts");
    players = player_names;
    name_count = count;
    // The duplicates, counted once.
    std::uint32_t marked = 0;
    std::unique_ptr<rocksdb::Iterator> dup(
        db->NewIterator(bulk_read_options(), families[Duplicates]));
    for (dup->SeekToFirst(); dup->Valid(); dup->Next()) ++marked;
    if (!dup->status().ok()) return from_rocksdb(dup->status(), "reading the duplicates");
    if (rocksdb::Status s = db->Put(rocksdb::WriteOptions(), families[Default], duplicate_count_key,
                                    bytes::big_endian32(marked));
        !s.ok())
      return from_rocksdb(s, "writing the duplicate count");
    duplicates = marked;
    return Status::ok();
  }

  // --- The position index's generations (position_generations.h) ---

  enum Kind { MainLine, InVariations };
  // The families that hold a kind's runs, each with the buckets [from, to) it holds.
  struct Part {
    Family family;
    std::uint32_t from, to;
  };
  static std::vector<Part> parts_of(int kind) {
    if (kind == InVariations) return {{VariationPositions, 0, positions::bucket_count}};
    return {{Positions, 0, positions::bucket_count / 2},
            {PositionsUpper, positions::bucket_count / 2, positions::bucket_count}};
  }
  static std::string_view generations_key_of(int kind) {
    return kind == MainLine ? generations_key : variation_generations_key;
  }

  positions::Generations generations_of(int kind) const {
    std::lock_guard lock(generations_mutex);
    return generations[kind];
  }

  // Writes into `writer` the runs of generations `ids` (of one part of the index) folded bucket
  // by bucket, as generation `id`; adds their entries to `entries`. With `with_statistics`,
  // then the statistics of the new generation's popular positions: the inputs' where they kept
  // them, and for the others counted from their games (position_stats.h).
  rocksdb::Status merge_part(const Part& part, const std::vector<std::uint32_t>& ids,
                             std::uint32_t id, rocksdb::SstFileWriter& writer,
                             std::uint64_t& entries, bool with_statistics,
                             std::uint64_t cells_threshold) const {
    rocksdb::ReadOptions read;
    read.fill_cache = false;  // each block is read once
    // 2 MB read ahead an input, 32 MB at most for them all: the merge of an import's 50
    // generations (1 M games with --batch-mb 20) read 100 MB ahead on each of its two threads,
    // and that import's peak was its merge's (731 MiB; the reading 260-340).
    read.readahead_size = std::clamp<std::size_t>((std::size_t(32) << 20) / ids.size(),
                                                  std::size_t(256) << 10, std::size_t(2) << 20);
    // The inputs' statistics of the bucket being folded, by input, each read when its bucket
    // comes (those of a whole import's batches took a hundred megabytes read at once).
    std::vector<std::unordered_map<std::uint64_t, std::string>> kept(ids.size());
    std::vector<std::unique_ptr<rocksdb::Iterator>> kept_at;  // each input's next statistics
    // Without the runs' read-ahead (2 MB an iterator): statistics are a few percent of them.
    rocksdb::ReadOptions read_kept_options;
    read_kept_options.fill_cache = false;
    if (with_statistics)
      for (const std::uint32_t g : ids) {
        kept_at.emplace_back(db->NewIterator(read_kept_options, families[part.family]));
        kept_at.back()->Seek(positions::statistics_key(g, positions::key40(part.from, 0)));
      }
    // Reads into `kept` the statistics input `i` keeps in `bucket`, passing those before it.
    auto read_kept = [&](std::size_t i, std::uint32_t bucket) -> rocksdb::Status {
      kept[i].clear();
      for (auto& it = kept_at[i]; it->Valid(); it->Next()) {
        const auto key = positions::parse_statistics_key(it->key().ToStringView());
        if (!key || key->generation != ids[i]) break;
        const std::uint32_t at = positions::bucket_of40(key->key40);
        if (at > bucket) break;
        if (at == bucket) kept[i].emplace(key->key40, it->value().ToString());
      }
      return kept_at[i]->status();
    };
    std::vector<std::unique_ptr<rocksdb::Iterator>> runs;
    for (const std::uint32_t g : ids) {
      runs.emplace_back(db->NewIterator(read, families[part.family]));
      runs.back()->Seek(positions::generation_key(g, part.from));
    }
    // The bucket iterator i stands at in generation ids[i]; nothing past its runs or the part.
    bool damaged = false;
    auto bucket_at = [&](std::size_t i) -> std::optional<std::uint32_t> {
      const auto& it = runs[i];
      if (!it->Valid() || !it->key().starts_with(game_key(ids[i]))) return {};
      if (positions::is_statistics_key(it->key().ToStringView())) return {};
      auto key = positions::parse_generation_key(it->key().ToStringView());
      if (!key) damaged = true;
      if (!key || key->bucket >= part.to) return {};
      return key->bucket;
    };
    positions::RunFolder folder;
    positions::StatisticsCollector collector;
    // The games' summaries, for the statistics counted from games; kept across the passes
    // that resolve them (a 1 M-game import's are 30 MB).
    GroupedReader summaries(*db, families[Summaries], summary_cache_bytes);
    std::map<std::uint64_t, positions::Statistics> statistics;  // of the buckets not sealed yet
    std::map<std::uint64_t, std::string> sealed;
    std::vector<std::size_t> inputs;  // the input of each run added to the folder
    std::string folded;
    rocksdb::Status s;
    for (;;) {
      std::uint32_t bucket = positions::bucket_count;
      for (std::size_t i = 0; i < runs.size(); ++i)
        if (auto b = bucket_at(i)) bucket = std::min(bucket, *b);
      if (damaged) return rocksdb::Status::Corruption("a key of the position index is damaged");
      if (bucket == positions::bucket_count) break;
      inputs.clear();
      for (std::size_t i = 0; i < runs.size(); ++i) {
        if (bucket_at(i) != bucket) continue;
        if (!folder.add(runs[i]->value().ToStringView()))
          return rocksdb::Status::Corruption("a run of the position index is damaged");
        inputs.push_back(i);
        runs[i]->Next();
      }
      if (with_statistics) {
        for (const std::size_t i : inputs)
          if (s = read_kept(i, bucket); !s.ok()) return s;
        if (s = merge_statistics(bucket, folder, inputs, kept, cells_threshold, collector,
                                 statistics);
            !s.ok())
          return s;
      }
      folded.clear();
      folder.fold(folded);
      std::uint64_t count = 0;
      bytes::Reader(folded).varint(count);
      entries += count;
      if (s = writer.Put(positions::generation_key(id, bucket), folded); !s.ok()) return s;
      // Bounded memory: the statistics of the buckets folded so far are kept in their stored
      // form as soon as they are complete (their games counted: the requests are resolved
      // every quarter of a million, or when a thousand positions wait for them).
      if (collector.requests() == 0) {
        seal_statistics(statistics, cells_threshold, sealed);
      } else if (collector.requests() >= (std::size_t(1) << 18) || statistics.size() >= 1000) {
        if (s = resolve_statistics(collector, summaries, statistics); !s.ok()) return s;
        seal_statistics(statistics, cells_threshold, sealed);
      }
    }
    for (const auto& it : runs)
      if (!it->status().ok()) return it->status();
    if (!with_statistics) return s;
    if (s = resolve_statistics(collector, summaries, statistics); !s.ok()) return s;
    seal_statistics(statistics, cells_threshold, sealed);
    return put_statistics(writer, id, sealed);
  }

  // For the popular positions of a bucket about to be folded (the runs `folder` holds, from the
  // inputs `inputs`): adds the inputs' statistics into `statistics`, and asks `collector` for
  // the games of the inputs that keep none.
  static rocksdb::Status merge_statistics(
      std::uint32_t bucket, const positions::RunFolder& folder,
      const std::vector<std::size_t>& inputs,
      const std::vector<std::unordered_map<std::uint64_t, std::string>>& kept,
      std::uint64_t cells_threshold, positions::StatisticsCollector& collector,
      std::map<std::uint64_t, positions::Statistics>& statistics) {
    std::size_t total = 0;
    for (std::size_t r = 0; r < folder.runs(); ++r) total += folder.run(r).size();
    if (total < positions::statistics_threshold) return rocksdb::Status::OK();
    // The suffixes with enough games over all the runs (a game is in one generation only).
    // Entries are counted by their suffix's low bits first (suffixes are bits of a hash): only
    // those of a slot with enough entries are sorted and counted. Sorting every entry of every
    // bucket took a tenth of the merge at the end of a 1 M-game import; most buckets have no
    // popular position.
    const std::size_t slots = std::bit_ceil(std::max<std::size_t>(total / 4, 64));
    thread_local std::vector<std::uint32_t> per_slot;
    per_slot.assign(slots, 0);
    for (std::size_t r = 0; r < folder.runs(); ++r)
      for (const positions::Entry& e : folder.run(r)) ++per_slot[e.suffix & (slots - 1)];
    std::vector<std::uint32_t> suffixes;
    for (std::size_t r = 0; r < folder.runs(); ++r)
      for (const positions::Entry& e : folder.run(r))
        if (per_slot[e.suffix & (slots - 1)] >= positions::statistics_threshold)
          suffixes.push_back(e.suffix);
    std::sort(suffixes.begin(), suffixes.end());
    positions::Statistics decoded;
    for (std::size_t a = 0; a < suffixes.size();) {
      std::size_t b = a;
      while (b < suffixes.size() && suffixes[b] == suffixes[a]) ++b;
      const std::uint32_t suffix = suffixes[a];
      const std::size_t games_here = b - a;  // the games of the 40 bits in the new generation
      const bool popular = games_here >= positions::statistics_threshold;
      a = b;
      if (!popular) continue;
      const std::uint64_t key40 = positions::key40(bucket, suffix);
      positions::Statistics& sum = statistics[key40];
      for (std::size_t r = 0; r < folder.runs(); ++r) {
        const auto run = folder.run(r);
        auto first = std::lower_bound(run.begin(), run.end(), positions::Entry{suffix, 0});
        if (first == run.end() || first->suffix != suffix) continue;
        const auto& of_input = kept[inputs[r]];
        if (auto found = of_input.find(key40); found != of_input.end()) {
          if (!positions::decode_statistics(found->second, key40, decoded))
            return rocksdb::Status::Corruption("statistics of the position index damaged");
          // A position the new generation slices (by rating band and year) whose input kept
          // no slices (fewer games there, or written by schema 13) is counted from the games:
          // at most cells_threshold of them per input, each walked once for all its positions.
          // So is one whose input keeps no best-rated games (written before schema 18).
          const bool sliced_here = games_here >= cells_threshold;
          if (decoded.all_ranked() && (!sliced_here || decoded.all_sliced())) {
            positions::add_statistics(sum, decoded);
            continue;
          }
        }
        for (; first != run.end() && first->suffix == suffix; ++first)
          collector.request(first->game, key40, games_here >= cells_threshold);
      }
    }
    return rocksdb::Status::OK();
  }

  // Counts the games `collector` was asked for from their summaries (and games).
  static rocksdb::Status resolve_statistics(
      positions::StatisticsCollector& collector, GroupedReader& summaries,
      std::map<std::uint64_t, positions::Statistics>& statistics) {
    Status s =
        collector.resolve([&](std::uint32_t game) { return summaries.get(game); }, statistics);
    return to_rocksdb(s);
  }

  // Merges generations `ids` of `kind` into one new generation: its runs and the new list of
  // generations are ingested in one atomic step, then the table files of the merged ones are
  // deleted (a crash between the two leaves them unlisted, and the next writer deletes them).
  Status merge_generations(int kind, const std::vector<std::uint32_t>& ids) {
    positions::Generations next = generations_of(kind);
    const std::uint32_t id = next.next_id++;
    TableContent contents[FamilyCount];
    std::uint64_t entries[FamilyCount] = {};
    const std::vector<Part> parts = parts_of(kind);
    // The new generation's entries are its inputs': its threshold for slices follows.
    std::uint64_t merged_entries = 0;
    for (const positions::Generation& g : next.live)
      if (std::find(ids.begin(), ids.end(), g.id) != ids.end()) merged_entries += g.entries;
    const std::uint64_t cells_threshold = positions::cells_threshold(merged_entries);
    for (const Part& part : parts)
      contents[part.family] = [this, &part, &ids, id, &entries, kind,
                               cells_threshold](rocksdb::SstFileWriter& writer) {
        return merge_part(part, ids, id, writer, entries[part.family], kind == MainLine,
                          cells_threshold);
      };
    if (Status s = write_tables(contents); !s.is_ok()) return s;
    std::uint64_t total = 0;
    for (const Part& part : parts) total += entries[part.family];
    std::erase_if(next.live, [&](const positions::Generation& g) {
      return std::find(ids.begin(), ids.end(), g.id) != ids.end();
    });
    next.live.push_back({id, total});
    std::vector<Row> manifest = {{std::string(generations_key_of(kind)), next.encode()}};
    TableContent listing[FamilyCount];
    listing[Default] = rows_content(manifest);
    if (Status s = write_tables(listing); !s.is_ok()) return s;
    bool written[FamilyCount] = {};
    written[Default] = true;
    for (const Part& part : parts) written[part.family] = true;
    if (Status s = ingest_tables(written); !s.is_ok()) return s;
    {
      std::lock_guard lock(generations_mutex);
      generations[kind] = next;
    }
    for (const Part& part : parts)
      for (const std::uint32_t g : ids)
        if (Status s = delete_generation(part.family, g); !s.is_ok()) return s;
    return Status::ok();
  }

  // Appends to `ids` the games generation `g`'s run of `bucket` (in family `f`) lists at
  // `suffix`. Nothing when the generation has no such run.
  Status add_games_at(Family f, std::uint32_t g, std::uint32_t bucket, std::uint32_t suffix,
                      std::vector<std::uint32_t>& ids) const {
    PositionGames::Runs::Stream stream;
    stream.suffix = suffix;
    rocksdb::Status s = db->Get(rocksdb::ReadOptions(), families[f],
                                positions::generation_key(g, bucket), &stream.value);
    if (s.IsNotFound()) return Status::ok();
    if (!s.ok()) return from_rocksdb(s, "reading the position index");
    for (bool read = stream.start(); read; read = stream.advance()) {
      if (!stream.live) return Status::ok();
      ids.push_back(stream.head);
    }
    return Status::error(Status::Code::Corruption, "position index damaged");
  }

  // Deletes the table files of generation `g` (a key range of its own) from family `f`.
  Status delete_generation(Family f, std::uint32_t g) {
    const std::string begin = bytes::big_endian32(g), end = bytes::big_endian32(g + 1);
    const rocksdb::Slice from(begin), to(end);
    rocksdb::Status s = rocksdb::DeleteFilesInRange(db.get(), families[f], &from, &to, false);
    return s.ok() ? Status::ok() : from_rocksdb(s, "deleting merged position runs");
  }

  // Merges generations while the policy finds some to merge (pick_merge). While importing,
  // the generations this store wrote are left to settle() (but for own_merge_fan_in of them).
  Status merge_generations(bool importing) {
    for (int kind : {MainLine, InVariations})
      for (;;) {
        const auto ids =
            positions::pick_merge(generations_of(kind), importing ? first_new_generation[kind]
                                                                  : positions::no_import_running);
        if (ids.empty()) break;
        if (Status s = merge_generations(kind, ids); !s.is_ok()) return s;
      }
    return Status::ok();
  }

  // Level-0 files of the families whose batches each add one (names, metadata, ...), there
  // when this store was opened: the others are this store's.
  std::vector<std::string> level0_at_open[FamilyCount];
  std::uint64_t bytes_at_open[FamilyCount] = {};  // each family's table files' size at open

  static std::vector<std::string> level0_files(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* f) {
    rocksdb::ColumnFamilyMetaData meta;
    db.GetColumnFamilyMetaData(f, &meta);
    std::vector<std::string> names;
    if (!meta.levels.empty())
      for (const auto& file : meta.levels[0].files) names.push_back(file.db_path + file.name);
    return names;
  }

  // Merges the level-0 files this store's batches left (one per batch and family, each
  // overlapping the others) into one per family, leaving older ones be: a reader of a name
  // or of a metadata range merges every level-0 file (15 files of names, left by a 1 M-game
  // import, made `pgndb stats` 0.40 s instead of 0.16 s), and RocksDB merges them into the
  // level below only every 16. The work is bounded by what was imported: an earlier import's
  // file is not rewritten, and each import adds one file that RocksDB's merges take down.
  // A family no larger than small_family_bytes is merged whole into its last level instead
  // (StoreOptions::small_family_bytes): a bounded rewrite that drops the sequence numbers.
  //
  // The families are merged side by side, a thread each (as write_tables writes them): each
  // merge is one family's, and together they took a second at the end of a 100,000-game import.
  Status merge_own_level0() {
    return side_by_side([](int f) { return !is_position_family(f) && !is_keyed_by_game(f); },
                        [this](int f) { return merge_own_level0(f); });
  }
  Status merge_own_level0(int f) {
    std::vector<std::string> own = level0_files(*db, families[f]);
    std::erase_if(own, [&](const std::string& name) {
      return std::find(level0_at_open[f].begin(), level0_at_open[f].end(), name) !=
             level0_at_open[f].end();
    });
    // A small family that this import made at least a quarter of: the rewrite costs at most
    // four times what the import wrote to it (an import of a few games into a large database
    // leaves its level-0 file to RocksDB's merges). Whatever level the import's files went to:
    // RocksDB puts an ingested file that overlaps nothing in the last level, merge operands and
    // all, and never merges it. The postings of a new database went there, and every search
    // merged each list's operands as it read them: a fifth of a broad material search, and
    // a third of its first page. Forced, the last level is rewritten too, the operands merged.
    std::uint64_t bytes = 0;
    if (db->GetIntProperty(families[f], rocksdb::DB::Properties::kTotalSstFilesSize, &bytes) &&
        bytes <= small_family_bytes && bytes > bytes_at_open[f] &&
        (bytes - bytes_at_open[f]) * 4 >= bytes) {
      rocksdb::CompactRangeOptions options;
      options.exclusive_manual_compaction = false;
      // kForceOptimized: the last level's files that the merge of the level-0 files into it
      // just wrote are not rewritten a second time (kForce rewrote every family twice: the
      // postings of 200,000 lichess-style games 1.6 s and then 0.4 s more, the import's end).
      options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForceOptimized;
      if (rocksdb::Status s = db->CompactRange(options, families[f], nullptr, nullptr); !s.ok())
        return from_rocksdb(s, pgn::cat("merging the ", family_name(f), " files"));
      return Status::ok();
    }
    if (own.size() < 2) return Status::ok();
    // The family's own compression (ZSTD): CompactionOptions' default is Snappy, which left
    // the merged file larger until RocksDB's own merges rewrote it.
    rocksdb::CompactionOptions options;
    options.compression = rocksdb::kDisableCompressionOption;
    rocksdb::Status s = db->CompactFiles(options, families[f], own, 0);
    // A file RocksDB's own merge took meanwhile is its to merge: that is no failure.
    if (!s.ok() && (s.IsIOError() || s.IsCorruption()))
      return from_rocksdb(s, pgn::cat("merging the ", family_name(f), " files"));
    return Status::ok();
  }

  // Imports of a few thousand games (a weekly TWIC issue added to a large base) each leave a
  // small table file in the families whose batches overlap nothing written before: those keyed
  // by game, the rejects (keyed by their ascending ids) and the sources (one key a file).
  // RocksDB puts such a file in the last level and never merges it, and a reader opens every
  // file: 100 imports of 1,000 games into a 127,000-game base left 101 files in each of six
  // families, and a `pgndb find` that matched nothing went from 20 to 40 ms. So the small files
  // (below tail_file_bytes) that end such a family's key range are merged into one once
  // tail_fan_in of them stand, newest first, each no larger than the newer ones together (the
  // sources' files, one key each, are the whole family): a file much larger than the imports
  // after it is left out until they add up to it, as in size-tiered merging, so a byte is
  // rewritten about once each time what follows it doubles, and a merge writes at most twice
  // what came after its oldest file. A family's files then number about its size over
  // tail_file_bytes, plus tail_fan_in and one for each doubling.
  static constexpr std::size_t tail_fan_in = 8;
  static constexpr std::uint64_t tail_file_bytes = 32 << 20;
  static constexpr bool leaves_small_files(int f) {
    return is_keyed_by_game(f) || f == Rejects || f == Sources;
  }
  Status merge_small_tail(int f) {
    rocksdb::ColumnFamilyMetaData meta;
    db->GetColumnFamilyMetaData(families[f], &meta);
    if (meta.levels.empty()) return Status::ok();
    std::vector<const rocksdb::SstFileMetaData*> files;
    for (const rocksdb::SstFileMetaData& file : meta.levels.back().files) files.push_back(&file);
    std::sort(files.begin(), files.end(),
              [](auto* a, auto* b) { return a->smallestkey < b->smallestkey; });
    std::size_t first = files.size();
    std::uint64_t newer = 0;  // the bytes of the files after files[first - 1]
    for (; first > 0; --first) {
      const std::uint64_t size = files[first - 1]->size;
      if (size >= tail_file_bytes || (first < files.size() && size > newer)) break;
      newer += size;
    }
    if (files.size() - first < tail_fan_in) return Status::ok();
    rocksdb::CompactRangeOptions options;
    options.exclusive_manual_compaction = false;
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    const rocksdb::Slice from(files[first]->smallestkey);
    rocksdb::Status s = db->CompactRange(options, families[f], &from, nullptr);
    return s.ok() ? Status::ok()
                  : from_rocksdb(s, pgn::cat("merging the small ", family_name(f), " files"));
  }

  // Deletes the table files of generations no list names: what a merge stopped by a crash left.
  Status delete_unlisted_generations() {
    for (int kind : {MainLine, InVariations}) {
      const positions::Generations listed = generations_of(kind);
      for (const Part& part : parts_of(kind)) {
        rocksdb::ColumnFamilyMetaData meta;
        db->GetColumnFamilyMetaData(families[part.family], &meta);
        std::vector<std::uint32_t> unlisted;
        for (const auto& level : meta.levels)
          for (const auto& file : level.files) {
            if (file.smallestkey.size() < 4) continue;
            const std::uint32_t g = bytes::read_big_endian32(file.smallestkey);
            if (!listed.lists(g)) unlisted.push_back(g);
          }
        for (const std::uint32_t g : unlisted)
          if (Status s = delete_generation(part.family, g); !s.is_ok()) return s;
      }
    }
    return Status::ok();
  }

  // The stored bytes of game `id`.
  std::expected<std::string, Status> read_game(std::uint32_t id) const {
    std::string value;
    rocksdb::Status s = db->Get(rocksdb::ReadOptions(), families[Games], game_key(id), &value);
    if (!s.ok()) return std::unexpected(from_rocksdb(s, pgn::cat("reading game ", id)));
    return value;
  }

  // A 4-byte big-endian value (a counter or a game id), 0 when the key is absent. `what`
  // names it in errors.
  std::expected<std::uint32_t, Status> read_number(Family family, std::string_view key,
                                                   std::string_view what) const {
    std::string value;
    rocksdb::Status s = db->Get(rocksdb::ReadOptions(), families[family], key, &value);
    if (s.IsNotFound()) return 0;
    if (!s.ok()) return std::unexpected(from_rocksdb(s, pgn::cat("reading ", what)));
    if (value.size() != 4)
      return std::unexpected(Status::error(Status::Code::Corruption, pgn::cat(what, " damaged")));
    return bytes::read_big_endian32(value);
  }

  // The keys of the names family that the metadata values `values` (sorted) put there and that
  // it lacks, in order: what a batch adds to the names and their fragments. Names already
  // stored are not written again (every batch wrote each of its names, so that the family's
  // merges rewrote a name once per batch it stood in).
  template <class Values>
  std::expected<std::vector<std::string_view>, Status> new_names(const Values& values) const {
    std::vector<std::string_view> names;
    for (const postings::ValueList& value : values) {
      const auto name = metadata::stored_name(value.key);
      if (!name) continue;
      if (names.empty() || names.back() != *name) names.push_back(*name);
    }
    // Asked a slice at a time: MultiGet builds a context of about 200 bytes per key in vectors
    // of its own, and a batch of lichess games has hundreds of thousands of names (all of them
    // at once touched tens of megabytes of fresh pages per commit).
    constexpr std::size_t slice = 4096;
    std::vector<rocksdb::Slice> keys;
    std::vector<rocksdb::PinnableSlice> found(std::min(slice, names.size()));
    std::vector<rocksdb::Status> statuses(found.size());
    std::vector<std::string_view> added;
    for (std::size_t begin = 0; begin < names.size(); begin += slice) {
      const std::size_t n = std::min(slice, names.size() - begin);
      keys.assign(names.begin() + begin, names.begin() + begin + n);
      for (std::size_t i = 0; i < n; ++i) found[i].Reset();
      db->MultiGet(rocksdb::ReadOptions(), families[Names], n, keys.data(), found.data(),
                   statuses.data(), /*sorted_input=*/true);
      for (std::size_t i = 0; i < n; ++i) {
        if (statuses[i].IsNotFound())
          added.push_back(names[begin + i]);
        else if (!statuses[i].ok())
          return std::unexpected(from_rocksdb(statuses[i], "reading the names"));
      }
    }
    return added;
  }
};

struct WriteBatch::Impl {
  Store::Impl* store;
  // Rows of each column family; written as table files at commit (Store::Impl::ingest).
  std::vector<Row> rows[FamilyCount];
  std::uint32_t next_game = 1, next_reject = 1;  // ids the next additions get
  // Position entries of this batch's games in game order (batch_entry). Sorted at commit into
  // one run per bucket touched.
  // The large buffers are in huge pages (huge_pages.h): a batch first fills hundreds of
  // megabytes, and the first touch of each 4 KiB page was a page fault.
  LargeVector<std::uint64_t> positions;
  // The same for the positions inside variations, in their own family.
  LargeVector<std::uint64_t> variation_positions;
  // The encoded games of the batch one after another, and where each ends (the first has id
  // first_game()). Copied rather than moved in: the strings a worker allocated go back to it.
  BasicPackedStrings<HugePageAllocator<char>> games, summaries, materials;
  LargeVector<SearchFacts> facts;
  // Each game's recorded opening (position_stats.h, StatisticsCollector::Opening), a fixed
  // stride per place in the batch: the keys of its first opening_plies + 1 positions (as many
  // as it has) and its PreparedGame::opening_moves. The summary says how many of them count.
  // 168 bytes a game.
  static constexpr std::size_t opening_keys_per_game = GameSummary::opening_plies + 1;
  LargeVector<pgn::Key> opening_keys;
  LargeVector<pgn::Move> opening_moves;
  positions::StatisticsCollector::Opening opening(std::uint32_t place) const {
    return {std::span(opening_keys).subspan(place * opening_keys_per_game, opening_keys_per_game),
            std::span(opening_moves)
                .subspan(place * GameSummary::opening_plies, GameSummary::opening_plies)};
  }
  bool merged_later = true;                            // set_merged_later()
  bool games_rewritten_later = false;                  // set_games_rewritten_later()
  std::size_t reserved_bytes = 0, reserved_games = 0;  // reserve(): a successor reserves the same
  std::uint32_t first_game() const { return next_game - std::uint32_t(games.size()); }
  // Metadata keys (without the game id) and the ids of the batch's games with each, in id
  // order: a batch has far fewer distinct values than keys, so sorting the values at commit
  // costs a fraction of sorting every key.
  struct ViewHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, std::vector<std::uint32_t>, ViewHash, std::equal_to<>> metadata;
  // The material values (metadata 'm', 17 a game on the corpus) as batch entries (batch_entry:
  // the packed balance over the game's place), in place order, grouped at commit into their
  // lists (group_by_key.h): a hash map of lists, with the values as strings, cost an import 5%,
  // and with them as numbers 2% (each insertion missed in cache, and lists grew by copying).
  LargeVector<std::uint64_t> material_values;
};

WriteBatch::WriteBatch(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WriteBatch::WriteBatch(WriteBatch&&) noexcept = default;
WriteBatch& WriteBatch::operator=(WriteBatch&&) noexcept = default;

void WriteBatch::follow(const WriteBatch& previous) {
  impl_->next_game = previous.impl_->next_game;
  impl_->next_reject = previous.impl_->next_reject;
  impl_->positions.clear();
  impl_->variation_positions.clear();
  impl_->metadata.clear();
  impl_->material_values.clear();
  impl_->games.clear();
  impl_->summaries.clear();
  impl_->materials.clear();
  impl_->facts.clear();
  impl_->opening_keys.clear();
  impl_->opening_moves.clear();
  impl_->merged_later = true;
  for (auto& rows : impl_->rows) rows.clear();
}

WriteBatch WriteBatch::successor() const {
  auto next = std::make_unique<Impl>();
  next->store = impl_->store;
  WriteBatch batch(std::move(next));
  batch.follow(*this);
  if (impl_->reserved_bytes) batch.reserve(impl_->reserved_bytes, impl_->reserved_games);
  return batch;
}
WriteBatch::~WriteBatch() = default;

std::uint32_t WriteBatch::add_game(const PreparedGame& game, std::uint32_t duplicate_of) {
  const std::uint32_t id = impl_->next_game++;
  const auto place = std::uint32_t(impl_->games.size());
  const std::string id_key = game_key(id);
  auto& rows = impl_->rows;
  impl_->games.add(game.encoded);
  impl_->summaries.add(game.summary);
  impl_->materials.add(game.material);
  impl_->facts.push_back(game.facts);
  auto& keys = impl_->opening_keys;
  keys.resize(keys.size() + Impl::opening_keys_per_game);
  std::copy_n(game.positions.begin(), std::min(game.positions.size(), Impl::opening_keys_per_game),
              keys.end() - Impl::opening_keys_per_game);
  impl_->opening_moves.insert(impl_->opening_moves.end(), game.opening_moves.begin(),
                              game.opening_moves.end());
  for (pgn::Key key : game.positions)
    impl_->positions.push_back(batch_entry(positions::key40_of(key), place));
  for (pgn::Key key : game.variation_positions)
    impl_->variation_positions.push_back(batch_entry(positions::key40_of(key), place));
  for (std::uint64_t balance : game.material_values)
    impl_->material_values.push_back(batch_entry(balance, place));
  for_each_metadata_key(game.metadata, [&](std::string_view key) {
    auto value = impl_->metadata.find(key);
    if (value == impl_->metadata.end())
      value = impl_->metadata.emplace(std::string(key), std::vector<std::uint32_t>()).first;
    value->second.push_back(id);
  });
  // The first game with a fingerprint is the original; later ones point to it.
  if (duplicate_of)
    rows[Duplicates].push_back({id_key, bytes::big_endian32(duplicate_of)});
  else
    rows[Fingerprints].push_back({hash_key(game.fingerprint), id_key});
  return id;
}

std::size_t WriteBatch::bytes() const {
  const Impl& b = *impl_;
  return b.games.bytes() + b.summaries.bytes() + b.materials.bytes() +
         b.facts.size() * sizeof(SearchFacts) +
         (b.positions.size() + b.variation_positions.size() + b.material_values.size()) *
             sizeof(std::uint64_t) +
         b.opening_keys.size() * sizeof(pgn::Key) + b.opening_moves.size() * sizeof(pgn::Move);
}

void WriteBatch::reserve(std::size_t bytes, std::size_t games) {
  impl_->reserved_bytes = bytes;
  impl_->reserved_games = games;
  // One game more than the limits fits: the importer ends a batch when a game follows it.
  bytes = std::min(bytes, max_reserved_bytes) + huge_page_size;
  games = std::min(games, max_games) + 1;
  Impl& b = *impl_;
  // What grows by the game (a summary's end, facts, the opening) is bounded by the games too.
  auto per_game = [&](std::size_t size, std::size_t count) {
    return std::min(bytes / size, games * count);
  };
  const std::size_t entries = bytes / sizeof(std::uint64_t);
  b.positions.reserve(entries);
  b.variation_positions.reserve(entries);
  b.games.reserve(bytes, per_game(sizeof(std::size_t), 1));
  b.summaries.reserve(bytes, per_game(sizeof(std::size_t), 1));
  // A history is a few dozen bytes: a sixteenth of what the games take is room enough.
  b.materials.reserve(bytes / 16, per_game(sizeof(std::size_t), 1));
  b.facts.reserve(per_game(sizeof(SearchFacts), 1));
  // A game holds 17 balances on the corpus; the vector grows past that if it must.
  b.material_values.reserve(per_game(sizeof(std::uint64_t), 20));
  b.opening_keys.reserve(per_game(sizeof(pgn::Key), Impl::opening_keys_per_game));
  b.opening_moves.reserve(per_game(sizeof(pgn::Move), GameSummary::opening_plies));
}

void WriteBatch::set_merged_later(bool merged_later) { impl_->merged_later = merged_later; }
void WriteBatch::set_games_rewritten_later(bool rewritten_later) {
  impl_->games_rewritten_later = rewritten_later;
}

void WriteBatch::add_reject(const Reject& reject) {
  const std::uint32_t id = impl_->next_reject++;
  impl_->rows[Rejects].push_back({bytes::big_endian32(id), encode_reject(reject)});
}

void WriteBatch::set_source_progress(std::uint64_t hash, const SourceProgress& progress) {
  // The latest progress of each source counts (the importer records each once a batch).
  auto& sources = impl_->rows[Sources];
  std::string key = hash_key(hash);
  auto same = std::ranges::find(sources, key, &Row::key);
  if (same == sources.end()) same = sources.insert(sources.end(), {std::move(key), {}});
  same->value = source_record::encode(progress);
}

Status WriteBatch::commit() {
  Store::Impl& store = *impl_->store;
  const std::uint32_t games = impl_->next_game - 1, rejects = impl_->next_reject - 1;
  TableContent contents[FamilyCount];
  for (int f = 0; f < FamilyCount; ++f) contents[f] = rows_content(impl_->rows[f]);
  // Games, keyed by id; summaries, in groups.
  if (!impl_->games.empty()) {
    contents[Games] = [this](rocksdb::SstFileWriter& writer) {
      const auto& games = impl_->games;
      std::uint32_t id = impl_->first_game();
      rocksdb::Status s;
      for (std::size_t i = 0; s.ok() && i < games.size(); ++i)
        s = writer.Put(game_key(id++), games[i]);
      return s;
    };
    // Groups of consecutive games, each ending before an id that is a multiple of
    // summary_group: key = the group's first id, value = each game's bytes as a string. The
    // summaries, and the material histories grouped alike (material_record.h).
    const auto grouped = [this](const auto& strings) {
      return [this, &strings](rocksdb::SstFileWriter& writer) {
        std::uint32_t id = impl_->first_game();
        std::string value;
        rocksdb::Status s;
        for (std::size_t i = 0; s.ok() && i < strings.size();) {
          const std::uint32_t first = id;
          value.clear();
          do bytes::put_string(value, strings[i++]);
          while (++id % summary_group != 0 && i < strings.size());
          s = writer.Put(game_key(first), value);
        }
        return s;
      };
    };
    contents[Summaries] = grouped(impl_->summaries);
    contents[Materials] = grouped(impl_->materials);
    contents[Facts] = [this](rocksdb::SstFileWriter& writer) {
      // Groups as the summaries', ending before multiples of facts::group_size (fact_group.h).
      const auto& facts = impl_->facts;
      std::uint32_t id = impl_->first_game();
      std::string value;
      rocksdb::Status s;
      for (std::size_t i = 0; s.ok() && i < facts.size();) {
        const std::uint32_t first = id;
        const std::size_t n = std::min(facts.size() - i, facts::group_capacity(first));
        value.clear();
        facts::encode_group(std::span(facts).subspan(i, n), value);
        s = writer.Put(game_key(first), value);
        i += n;
        id += std::uint32_t(n);
      }
      return s;
    };
  }

  // What the table files refer to is declared before them (TableFiles' contract).
  // The material values' lists, which `values` views (group_by_key.h).
  KeyGroups balances;
  std::vector<std::string> material_keys;
  ValueLists values;
  std::uint32_t new_players = 0, new_name_count = 0;
  NewNames added;
  auto& counters = impl_->rows[Default];
  Store::Impl::TableFiles files(store, impl_->games_rewritten_later);
  // The families complete already (games, summaries, facts, the rows of the others) start
  // writing at once; the rest follow as the work below completes them.
  auto completed_below = [](int f) {
    return f == Postings || is_position_family(f) || f == Names || f == NameIndex || f == Default;
  };
  for (int f = 0; f < FamilyCount; ++f)
    if (!completed_below(f)) files.write(f, contents[f]);

  // Metadata: each distinct value's keys in id order, values in key order. The material values
  // come in order from their batch entries grouped by value (group_by_key.h), and are one
  // stretch of keys (dimension 'm'): they join the other values' sorted lists there, neither
  // hashed as strings nor compared again.
  static_assert(8 * material::balance_size == 40, "a material value fills a batch entry's key");
  // add_game appends the entries in place order: each value's places come ascending.
  balances = group_by_key(impl_->material_values, batch_game_bits);
  impl_->material_values.clear();
  for (std::uint32_t& place : balances.places) place += impl_->first_game();  // now the ids
  material_keys.reserve(balances.keys.size());
  for (const std::uint64_t balance : balances.keys)
    material_keys.push_back(material::value_of_packed(balance));

  values.reserve(impl_->metadata.size() + material_keys.size());
  for (const auto& [value, ids] : impl_->metadata) values.push_back({value, ids});
  std::sort(values.begin(), values.end(),
            [](const auto& a, const auto& b) { return a.key < b.key; });
  if (!material_keys.empty()) {
    const auto at = std::partition_point(values.begin(), values.end(), [&](const auto& value) {
      return value.key < material_keys.front();
    });
    const std::size_t offset = std::size_t(at - values.begin());
    values.insert(at, material_keys.size(), postings::ValueList{});
    const std::span<const std::uint32_t> ids(balances.places);
    const auto& starts = balances.starts;
    for (std::size_t i = 0; i < material_keys.size(); ++i)
      values[offset + i] = {material_keys[i], ids.subspan(starts[i], starts[i + 1] - starts[i])};
  }
  // The batch's games of each value and block, as one merge operand (value_postings.h: every
  // dimension is kept so since schema 15).
  if (!values.empty()) contents[Postings] = merged_lists(values);
  files.write(Postings, contents[Postings]);

  // Names: the name dimensions' values new to the database, each with the next number, and
  // the name index (name_index.h), for searches by part of a name. A player's name is written
  // once, without the colour that follows it in the metadata key: the two colours' keys are
  // neighbours, so the name is the prefix of both.
  // They are looked up, and their fragments listed, on another thread while this one sorts the
  // position entries: each takes tens of milliseconds per 50,000 games, and the last commit
  // of an import, which nothing else overlaps, waited for both in turn.
  std::future<Status> names_found = std::async(std::launch::async, [&]() -> Status {
    auto found = store.new_names(values);
    if (!found) return found.error();
    const std::vector<std::string_view>& new_names = *found;
    new_name_count = std::uint32_t(new_names.size());
    for (std::size_t i = 0; i < new_names.size(); ++i) {
      new_players += new_names[i][0] == metadata::Player;
      added.add(new_names[i], store.name_count + 1 + std::uint32_t(i));
    }
    return Status::ok();
  });

  // Positions: sorted by key, then game, each bucket's entries are one stretch, already in run
  // order; the batch's runs are a new generation of the index. The upper half of the buckets
  // (those with the top bit of the key set) goes to the other family.
  auto& all = impl_->positions;
  sort_in_place(all);
  all.erase(std::unique(all.begin(), all.end()), all.end());
  const auto upper_half = std::partition_point(all.begin(), all.end(), [](std::uint64_t e) {
    return position_family(positions::bucket_of40(key40_of_entry(e))) == Positions;
  });
  positions::Generations generations[2] = {store.generations_of(Store::Impl::MainLine),
                                           store.generations_of(Store::Impl::InVariations)};
  // The main line's runs come with the statistics of their popular positions, counted from the
  // batch's recorded openings (position_stats.h); they follow the runs in key order. A
  // generation to be merged keeps more of them (set_merged_later).
  const std::uint64_t threshold =
      impl_->merged_later ? positions::batch_statistics_threshold : positions::statistics_threshold;
  const std::uint64_t cells_threshold = impl_->merged_later
                                            ? positions::batch_statistics_threshold
                                            : positions::cells_threshold(all.size());
  auto runs = [this, threshold, cells_threshold](auto begin, auto end, std::uint32_t generation,
                                                 bool with_statistics) -> TableContent {
    if (begin == end) return {};
    return [this, begin, end, generation, with_statistics, threshold,
            cells_threshold](rocksdb::SstFileWriter& writer) {
      std::vector<positions::Entry> run;
      std::string encoded;
      positions::StatisticsCollector collector;
      rocksdb::Status s;
      const std::uint32_t first = impl_->first_game();
      std::map<std::uint64_t, positions::Statistics> statistics;
      std::map<std::uint64_t, std::string> sealed;
      // Counts the requests so far and keeps their statistics in their stored form: a game is
      // then walked once per 65,536 requests rather than once, but the counted slices (a cell
      // of 88 bytes per game and position) stay a few megabytes.
      auto resolve = [&] {
        Status resolved = collector.resolve(
            [&](std::uint32_t id) { return decode_summary(impl_->summaries[id - first]); },
            [&](std::uint32_t id) { return impl_->opening(id - first); }, statistics);
        if (!resolved.is_ok()) return to_rocksdb(resolved);
        seal_statistics(statistics, cells_threshold, sealed);
        return rocksdb::Status::OK();
      };
      for (auto i = begin; s.ok() && i != end;) {
        const std::uint32_t bucket = positions::bucket_of40(key40_of_entry(*i));
        run.clear();
        for (; i != end && positions::bucket_of40(key40_of_entry(*i)) == bucket; ++i)
          run.push_back({positions::suffix_of40(key40_of_entry(*i)), first + place_of_entry(*i)});
        if (with_statistics) request_popular(bucket, run, threshold, cells_threshold, collector);
        encoded.clear();
        positions::encode_run(run, encoded);
        s = writer.Put(positions::generation_key(generation, bucket), encoded);
        if (s.ok() && collector.requests() >= (std::size_t(1) << 16)) s = resolve();
      }
      if (s.ok() && collector.requests() > 0) s = resolve();
      if (!s.ok()) return s;
      return put_statistics(writer, generation, sealed);
    };
  };
  auto& in_variations = impl_->variation_positions;
  sort_in_place(in_variations);
  in_variations.erase(std::unique(in_variations.begin(), in_variations.end()), in_variations.end());
  for (int kind : {Store::Impl::MainLine, Store::Impl::InVariations}) {
    const auto& entries = kind == Store::Impl::MainLine ? all : in_variations;
    if (entries.empty()) continue;
    positions::Generations& g = generations[kind];
    const std::uint32_t id = g.next_id++;
    g.live.push_back({id, entries.size()});
    counters.push_back({std::string(Store::Impl::generations_key_of(kind)), g.encode()});
    if (kind == Store::Impl::MainLine) {
      contents[Positions] = runs(all.begin(), upper_half, id, true);
      contents[PositionsUpper] = runs(upper_half, all.end(), id, true);
    } else {
      contents[VariationPositions] = runs(in_variations.begin(), in_variations.end(), id, false);
    }
  }
  for (int f : {Positions, PositionsUpper, VariationPositions}) files.write(f, contents[f]);

  if (Status found = names_found.get(); !found.is_ok()) return found;
  contents[Names] = rows_content(added.names);
  contents[NameIndex] = index_content(added.postings, added.numbers);
  files.write(Names, contents[Names]);
  files.write(NameIndex, contents[NameIndex]);

  // The counters go in the same atomic batch as what they count.
  counters.push_back({std::string(game_count_key), bytes::big_endian32(games)});
  counters.push_back({std::string(reject_count_key), bytes::big_endian32(rejects)});
  counters.push_back(
      {std::string(player_count_key), bytes::big_endian32(store.players + new_players)});
  counters.push_back(
      {std::string(name_count_key), bytes::big_endian32(store.name_count + new_name_count)});
  const auto new_duplicates = std::uint32_t(impl_->rows[Duplicates].size());
  counters.push_back(
      {std::string(duplicate_count_key), bytes::big_endian32(store.duplicates + new_duplicates)});
  contents[Default] = rows_content(counters);
  files.write(Default, contents[Default]);
  // Table files rather than the write-ahead log and memtable: an import writes tens of millions
  // of keys, and sorting them here costs a fraction of inserting them into a skip list.
  Status s = files.ingest();
  // The batch's buffers are emptied by follow(), on the thread that fills the batch: freed
  // here, memory that thread allocated would make glibc lock its arena.
  if (!s.is_ok()) return s;
  store.games = games;
  store.rejects = rejects;
  store.players += new_players;
  store.name_count += new_name_count;
  store.duplicates += new_duplicates;
  {
    std::lock_guard lock(store.generations_mutex);
    for (int kind : {Store::Impl::MainLine, Store::Impl::InVariations})
      store.generations[kind] = generations[kind];
  }
  if (contents[Names]) {
    std::lock_guard lock(store.names_mutex);
    store.names.clear();
  }
  // Generations that share a size tier now are merged before the next batch is committed.
  return store.merge_generations(true);
}

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

std::uint32_t Store::version() const { return impl_->version; }
std::uint32_t Store::game_count() const { return impl_->games; }
std::uint32_t Store::reject_count() const { return impl_->rejects; }
std::uint32_t Store::epochs() const { return impl_->epochs(); }
Store::EpochIds Store::ids_of_epoch(std::uint32_t epoch) {
  constexpr int shift = postings::epoch_shift;
  return {std::max(epoch << shift, 1u), std::uint32_t(((std::uint64_t(epoch) + 1) << shift) - 1)};
}

WriteBatch Store::begin_batch() {
  auto batch = std::make_unique<WriteBatch::Impl>();
  batch->store = impl_.get();
  batch->next_game = impl_->games + 1;
  batch->next_reject = impl_->rejects + 1;
  return WriteBatch(std::move(batch));
}

std::uint32_t Store::upgraded_from() const { return impl_->upgraded_from; }

std::expected<std::optional<PlyMove>, Status> Store::main_line_at(std::uint32_t id,
                                                                  pgn::Key key) const {
  auto bytes = impl_->read_game(id);
  if (!bytes) return std::unexpected(bytes.error());
  return decode_main_line_until(*bytes, key);
}

Status Store::for_each_main_line(
    std::span<const std::uint32_t> ids, const MainLineVisitor& visit,
    const std::function<void(std::size_t, const std::optional<PlyMove>&)>& each) const {
  // One iterator, stepping to a near game rather than seeking: a pattern search reads most
  // games, in id order.
  std::unique_ptr<rocksdb::Iterator> it(
      impl_->db->NewIterator(bulk_read_options(impl_->cache_game_data), impl_->families[Games]));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::uint32_t id = ids[i];
    std::uint32_t at = it->Valid() ? game_of_key(it->key().ToStringView()) : 0;
    for (int steps = 0; it->Valid() && at < id && steps < 8; ++steps) {
      it->Next();
      at = it->Valid() ? game_of_key(it->key().ToStringView()) : 0;
    }
    if (!it->Valid() || at != id) {
      it->Seek(game_key(id));
      at = it->Valid() ? game_of_key(it->key().ToStringView()) : 0;
    }
    if (!it->Valid() || at != id) {
      if (!it->status().ok()) return from_rocksdb(it->status(), "reading the games");
      return Status::error(Status::Code::NotFound, pgn::cat("no game ", id));
    }
    auto found = decode_main_line_until(it->value().ToStringView(), visit, i);
    if (!found) return found.error();
    each(i, *found);
  }
  return Status::ok();
}

std::expected<pgn::GameRecord, Status> Store::game(std::uint32_t id) const {
  auto bytes = impl_->read_game(id);
  if (!bytes) return std::unexpected(bytes.error());
  return decode_game(*bytes);
}

std::expected<pgn::GameRecord, Status> Store::game_header(std::uint32_t id) const {
  auto bytes = impl_->read_game(id);
  if (!bytes) return std::unexpected(bytes.error());
  return decode_game_header(*bytes);
}

std::expected<StoreStats, Status> Store::stats() const {
  for (int f = 0; f < FamilyCount; ++f)
    if (Status open = impl_->require_open(Family(f), "counting the database"); !open.is_ok())
      return std::unexpected(open);
  StoreStats stats;
  stats.games = impl_->games;
  stats.rejects = impl_->rejects;
  for (int f = 0; f < FamilyCount; ++f) {
    std::uint64_t bytes = 0;
    impl_->db->GetIntProperty(impl_->families[f], "rocksdb.total-sst-files-size", &bytes);
    stats.bytes_by_part.emplace_back(std::string(family_name(f)), bytes);
  }
  auto count = [&](Family family, auto&& each) -> Status {
    std::unique_ptr<rocksdb::Iterator> it(
        impl_->db->NewIterator(rocksdb::ReadOptions(), impl_->families[family]));
    for (it->SeekToFirst(); it->Valid(); it->Next())
      if (!each(it->value().ToStringView()))
        return Status::error(Status::Code::Corruption, "position index damaged");
    return it->status().ok() ? Status::ok() : from_rocksdb(it->status(), "reading");
  };
  if (auto s = count(Sources, [&](std::string_view) { return ++stats.sources, true; }); !s.is_ok())
    return std::unexpected(s);
  stats.duplicates = impl_->duplicates;
  stats.players = impl_->players;
  std::unique_ptr<rocksdb::Iterator> it(
      impl_->db->NewIterator(rocksdb::ReadOptions(), impl_->families[Postings]));
  // Dates: the first and the last key of the dates' postings, over the epochs.
  std::string first_date, last_date;  // values: the dimension, 4 bytes of date
  for (std::uint32_t epoch = 0; epoch < impl_->epochs() && it->status().ok(); ++epoch) {
    const std::string epoch_bytes = postings::epoch_prefix(epoch);
    const std::string dates = epoch_bytes + char(metadata::Date);
    auto date_at = [&]() -> std::string {
      if (!it->Valid() || !it->key().starts_with(dates) || it->key().size() < dates.size() + 4)
        return {};
      return it->key().ToString().substr(epoch_bytes.size(), 5);
    };
    it->Seek(dates);
    const std::string first = date_at();
    if (first.empty()) continue;
    it->SeekForPrev(postings::past_lists_of(dates + std::string(4, '\xFF')));
    const std::string last = date_at();
    if (first_date.empty() || first < first_date) first_date = first;
    if (last_date.empty() || last > last_date) last_date = last;
  }
  if (!first_date.empty()) stats.first_date = metadata::date_text(first_date);
  if (!last_date.empty()) stats.last_date = metadata::date_text(last_date);
  if (!it->status().ok()) return std::unexpected(from_rocksdb(it->status(), "reading postings"));
  const positions::Generations generations = impl_->generations_of(Impl::MainLine);
  stats.positions = generations.entries();
  stats.position_generations = generations.live.size();
  return stats;
}

std::expected<std::uint32_t, Status> Store::find_fingerprint(std::uint64_t fingerprint) const {
  if (Status open = impl_->require_open(Fingerprints, "reading a fingerprint"); !open.is_ok())
    return std::unexpected(open);
  return impl_->read_number(Fingerprints, hash_key(fingerprint), "a fingerprint");
}

Status Store::find_fingerprints(const std::vector<std::uint64_t>& fingerprints,
                                std::vector<std::uint32_t>& ids) const {
  if (Status open = impl_->require_open(Fingerprints, "reading fingerprints"); !open.is_ok())
    return open;
  const std::size_t n = fingerprints.size();
  std::vector<std::string> keys(n);
  std::vector<rocksdb::Slice> slices(n);
  for (std::size_t i = 0; i < n; ++i) slices[i] = keys[i] = hash_key(fingerprints[i]);
  std::vector<rocksdb::PinnableSlice> values(n);
  std::vector<rocksdb::Status> statuses(n);
  impl_->db->MultiGet(rocksdb::ReadOptions(), impl_->families[Fingerprints], n, slices.data(),
                      values.data(), statuses.data());
  ids.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (statuses[i].IsNotFound()) continue;
    if (!statuses[i].ok()) return from_rocksdb(statuses[i], "reading a fingerprint");
    if (values[i].size() != 4)
      return Status::error(Status::Code::Corruption, "a fingerprint damaged");
    ids[i] = bytes::read_big_endian32(values[i].ToStringView());
  }
  return Status::ok();
}

std::expected<std::uint32_t, Status> Store::duplicate_of(std::uint32_t id) const {
  if (Status open = impl_->require_open(Duplicates, "reading a duplicate record"); !open.is_ok())
    return std::unexpected(open);
  return impl_->read_number(Duplicates, game_key(id), "a duplicate record");
}

std::expected<Reject, Status> Store::reject(std::uint32_t id) const {
  if (Status open = impl_->require_open(Rejects, pgn::cat("reading reject ", id)); !open.is_ok())
    return std::unexpected(open);
  std::string value;
  rocksdb::Status s =
      impl_->db->Get(rocksdb::ReadOptions(), impl_->families[Rejects], game_key(id), &value);
  if (!s.ok()) return std::unexpected(from_rocksdb(s, pgn::cat("reading reject ", id)));
  Reject r;
  bytes::Reader in(value);
  std::uint64_t line = 0, column = 0;
  if (!in.string(r.source) || !in.varint(line) || !in.varint(column) || !in.string(r.error) ||
      !in.string(r.text) || !in.empty())
    return std::unexpected(
        Status::error(Status::Code::Corruption, pgn::cat("stored reject ", id, " is damaged")));
  r.location = {line, std::uint32_t(column)};
  return r;
}

std::expected<SourceProgress, Status> Store::source(std::uint64_t hash) const {
  if (Status open = impl_->require_open(Sources, "reading sources"); !open.is_ok())
    return std::unexpected(open);
  std::string value;
  rocksdb::Status s =
      impl_->db->Get(rocksdb::ReadOptions(), impl_->families[Sources], hash_key(hash), &value);
  if (s.IsNotFound()) return SourceProgress{};
  if (!s.ok()) return std::unexpected(from_rocksdb(s, "reading sources"));
  auto p = source_record::decode(value);
  if (!p) return std::unexpected(Status::error(Status::Code::Corruption, "source record damaged"));
  return *p;
}

Status Store::compact() {
  // The position index: every generation merged into one, each bucket one run.
  for (int kind : {Impl::MainLine, Impl::InVariations}) {
    const positions::Generations g = impl_->generations_of(kind);
    if (g.live.size() < 2) continue;
    std::vector<std::uint32_t> ids;
    for (const auto& generation : g.live) ids.push_back(generation.id);
    if (Status s = impl_->merge_generations(kind, ids); !s.is_ok()) return s;
  }
  // The earlier writers' logs let go first: the flush's file of the default family is then
  // merged with the rest.
  if (Status released = impl_->release_logs(); !released.is_ok()) return released;
  // The other families (RocksDB's leveled compaction keeps them in shape as they grow) rewritten
  // whole, fewest files: their last level too, where RocksDB's default leaves the files of
  // games as batches wrote them (LZ4 ones from an import stopped before its end among them).
  rocksdb::CompactRangeOptions options;
  options.exclusive_manual_compaction = false;
  options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  rocksdb::Status s;
  for (int f = 0; f < FamilyCount && s.ok(); ++f)
    if (!is_position_family(f))
      s = impl_->db->CompactRange(options, impl_->families[f], nullptr, nullptr);
  return s.ok() ? Status::ok() : from_rocksdb(s, "compacting the database");
}

Status Store::settle() {
  // The generations this import wrote (the tiers left them to this, but for own_merge_fan_in
  // batches of one size) become one, then join the tiers: a lookup
  // then reads one run for them, and their runs cost the least (each run's header, key and
  // Rice parameter are paid once per bucket). The work is bounded by what was imported; older
  // generations (other imports', or those an interrupted import left) are merged by the tiers.
  for (int kind : {Impl::MainLine, Impl::InVariations}) {
    const positions::Generations g = impl_->generations_of(kind);
    std::vector<std::uint32_t> ids;
    for (const auto& generation : g.live)
      if (generation.id >= impl_->first_new_generation[kind]) ids.push_back(generation.id);
    if (ids.size() >= 2)
      if (Status s = impl_->merge_generations(kind, ids); !s.is_ok()) return s;
  }
  if (Status s = impl_->merge_generations(false); !s.is_ok()) return s;
  rocksdb::DB& db = *impl_->db;
  // The games and summaries this import wrote, one table file per batch, merged into a few (64
  // MB each): a reader opens every table file, and 250 files of each at 5 million games made
  // every command 90 ms slower. Only this import's ids: the work follows what was imported.
  rocksdb::ColumnFamilyMetaData games_files;
  db.GetColumnFamilyMetaData(impl_->families[Games], &games_files);
  const std::string first_key = game_key(impl_->first_new_game);
  // Where each of this import's game files starts, in order.
  std::vector<std::string> starts;
  for (const rocksdb::SstFileMetaData& f : games_files.levels.back().files)
    if (f.smallestkey >= first_key) starts.push_back(f.smallestkey);
  std::sort(starts.begin(), starts.end());
  // Fewer than 6 files (an import of up to 500,000 games in batches of 100,000) are left as they
  // are: rewriting the corpus's 12 (batches of 20,000 then) took a second, opening a few takes
  // a few milliseconds. With the bound at 32 files, five 1 M-game imports in batches of 50,000
  // left 100 files of each, and every command at 5 M games took 43 ms instead of 28; a 1 M-game
  // import in batches of 100,000 writes 10, merged here.
  if (impl_->games >= impl_->first_new_game &&
      (starts.size() >= WriteBatch::games_rewritten_from_batches || impl_->light_files_written)) {
    // In two halves side by side, split where the middle batch's games start (its files of
    // each family start there: neither half takes in a file of the other): one merge, on one
    // core, took 2.2 of the 7.8 s that end a 1 M-game import.
    const std::uint32_t split = game_of_key(starts[starts.size() / 2]);
    auto compact = [&](std::uint32_t first, std::uint32_t last) -> Status {
      rocksdb::CompactRangeOptions options;
      options.exclusive_manual_compaction = false;
      options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
      const std::string to = game_key(last);
      const rocksdb::Slice end(to);
      for (int f = 0; f < FamilyCount; ++f) {
        if (!is_keyed_by_game(f)) continue;
        // Groups are keyed by their first id, and a batch's groups start at the batch's first
        // id: the range starts at `first` itself. Rounded down to a whole group, it took in
        // the previous import's last file of summaries and facts, which the merge of that
        // import had made one file of all its own: every import rewrote the one before it
        // (the third 1 M-game import of a database merged 66 MB of summaries, the first 27).
        const std::string from = game_key(first);
        const rocksdb::Slice begin(from);
        rocksdb::Status s = db.CompactRange(options, impl_->families[f], &begin, &end);
        if (!s.ok()) return from_rocksdb(s, "compacting the games");
      }
      return Status::ok();
    };
    Status second_half;
    std::thread second([&] { second_half = compact(split, impl_->games); });
    Status first_half = compact(impl_->first_new_game, split - 1);
    second.join();
    if (!first_half.is_ok()) return first_half;
    if (!second_half.is_ok()) return second_half;
  }
  if (Status s = Impl::side_by_side([](int f) { return Impl::leaves_small_files(f); },
                                    [&](int f) { return impl_->merge_small_tail(f); });
      !s.is_ok())
    return s;
  // The merges RocksDB chose for the other families (every 16 files of a level into the next:
  // amortized, each small), which an import that ends stops: the import waits for them. A
  // family may stay "pending" with nothing RocksDB can pick: two seconds without a compaction
  // running end the wait.
  auto idle_since = std::chrono::steady_clock::now();
  for (;;) {
    std::uint64_t value = 0;
    // A failed compaction stops RocksDB's background work, so none would ever end.
    if (db.GetIntProperty(rocksdb::DB::Properties::kBackgroundErrors, &value) && value != 0)
      return Status::error(Status::Code::IoError,
                           pgn::cat("compacting ", impl_->path,
                                    ": a background compaction failed (its LOG says why)"));
    const bool running =
        db.GetIntProperty(rocksdb::DB::Properties::kNumRunningCompactions, &value) && value != 0;
    bool pending = false;
    for (int f = 0; f < FamilyCount; ++f)
      pending |= !is_position_family(f) &&
                 db.GetIntProperty(impl_->families[f], rocksdb::DB::Properties::kCompactionPending,
                                   &value) &&
                 value != 0;
    if (running) idle_since = std::chrono::steady_clock::now();
    if (!running &&
        (!pending || std::chrono::steady_clock::now() - idle_since > std::chrono::seconds(2)))
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (Status s = impl_->release_logs(); !s.is_ok()) return s;
  return impl_->merge_own_level0();
}

std::uint64_t Store::position_generations(bool in_variations) const {
  return impl_->generations_of(in_variations ? Impl::InVariations : Impl::MainLine).live.size();
}

Store::PositionGames::PositionGames(std::unique_ptr<Runs> runs) : runs_(std::move(runs)) {}
Store::PositionGames::PositionGames(PositionGames&&) noexcept = default;
Store::PositionGames& Store::PositionGames::operator=(PositionGames&&) noexcept = default;
Store::PositionGames::~PositionGames() = default;

Status Store::PositionGames::next(std::size_t n, std::vector<std::uint32_t>& ids) {
  std::size_t taken = 0;
  const bool read = take_ascending(runs_->streams, n, ids, taken);
  given_ += taken;
  return read ? Status::ok() : Status::error(Status::Code::Corruption, "position index damaged");
}

std::expected<Store::PositionGames, Status> Store::position_games(const pgn::Position& position,
                                                                  bool in_variations) const {
  const pgn::Key key = pgn::repetition_key(position);
  const std::uint32_t bucket = positions::bucket_of(key);
  const Family family = in_variations ? VariationPositions : position_family(bucket);
  auto runs = std::make_unique<PositionGames::Runs>();
  // One run per generation, read now: the games are those of the generations live at this call.
  for (const positions::Generation& g :
       impl_->generations_of(in_variations ? Impl::InVariations : Impl::MainLine).live) {
    auto stream = std::make_unique<PositionGames::Runs::Stream>();
    stream->suffix = positions::suffix_of(key);
    rocksdb::Status s = impl_->db->Get(rocksdb::ReadOptions(), impl_->families[family],
                                       positions::generation_key(g.id, bucket), &stream->value);
    if (s.IsNotFound()) continue;
    if (!s.ok()) return std::unexpected(from_rocksdb(s, "reading the position index"));
    if (!stream->start())
      return std::unexpected(Status::error(Status::Code::Corruption, "position index damaged"));
    if (stream->live) runs->streams.push_back(std::move(stream));
  }
  return PositionGames(std::move(runs));
}

std::expected<std::vector<std::uint32_t>, Status> Store::games_at(const pgn::Position& position,
                                                                  bool in_variations) const {
  auto games = position_games(position, in_variations);
  if (!games) return std::unexpected(games.error());
  std::vector<std::uint32_t> ids;
  if (Status s = games->next(~std::size_t(0), ids); !s.is_ok()) return std::unexpected(s);
  return ids;
}

std::expected<PositionStatistics, Status> Store::position_statistics(const pgn::Position& position,
                                                                     const StatisticsSlice& slice,
                                                                     bool top_games) const {
  const pgn::Key key = pgn::repetition_key(position);
  const std::uint64_t key40 = positions::key40_of(key);
  const std::uint32_t bucket = positions::bucket_of(key), suffix = positions::suffix_of(key);
  const Family family = position_family(bucket);
  const positions::Generations generations = impl_->generations_of(Impl::MainLine);
  PositionStatistics result;
  top_games = top_games && slice.everything();
  result.ranked = top_games;
  std::unordered_map<std::uint16_t, MoveTally> by_move;
  positions::Statistics kept;
  std::string value;
  // A floor of N (a multiple of 100) is the band of a game whose lower rating is N.
  const unsigned min_band =
      slice.min_elo ? positions::rating_band(slice.min_elo, slice.min_elo) : 0;
  for (const positions::Generation& g : generations.live) {
    rocksdb::Status s = impl_->db->Get(rocksdb::ReadOptions(), impl_->families[family],
                                       positions::statistics_key(g.id, key40), &value);
    if (!s.ok() && !s.IsNotFound())
      return std::unexpected(from_rocksdb(s, "reading the position index's statistics"));
    // A count or a tree without a slice reads the moves alone (the cells are skipped).
    if (s.ok() && !positions::decode_statistics(
                      value, key40, kept,
                      slice.everything() ? positions::Cells::Skip : positions::Cells::Read,
                      top_games ? positions::Tops::Read : positions::Tops::Skip))
      return std::unexpected(
          Status::error(Status::Code::Corruption, "statistics of the position index damaged"));
    // Other positions may share the 40 bits: only this one's count.
    const positions::KeyStatistics* of_key = nullptr;
    if (s.ok())
      for (const positions::KeyStatistics& k : kept.keys)
        if (k.key == key) of_key = &k;
    // Without statistics, or a slice of a position the generation does not slice: its games.
    if (!s.ok() || (!slice.everything() && of_key && !of_key->sliced)) {
      if (Status read = impl_->add_games_at(family, g.id, bucket, suffix, result.other_games);
          !read.is_ok())
        return std::unexpected(read);
      continue;
    }
    // The games past their opening codes are read by the caller, with the other generations'.
    result.other_games.insert(result.other_games.end(), kept.unread.begin(), kept.unread.end());
    if (!of_key) continue;
    auto add = [&](const MoveTally& t) {
      MoveTally& m = by_move[t.move.raw()];
      m.move = t.move;
      m.add(t);
    };
    if (slice.everything()) {
      for (const MoveTally& t : of_key->moves) add(t);
      if (top_games && !of_key->ranked) result.ranked = false;
      if (result.ranked)
        for (const TopGame& t : of_key->top) add_top_game(result.top, t, top_games_kept);
      continue;
    }
    for (const positions::Cell& c : of_key->cells)
      if (c.band >= min_band && (!slice.years || (c.year && c.year >= slice.years->first &&
                                                  c.year <= slice.years->second)))
        add(c.tally);
  }
  for (const auto& [raw, t] : by_move) result.moves.push_back(t);
  std::sort(result.moves.begin(), result.moves.end(),
            [](const MoveTally& a, const MoveTally& b) { return a.move.raw() < b.move.raw(); });
  std::sort(result.other_games.begin(), result.other_games.end());
  if (!result.ranked) result.top.clear();
  return result;
}

namespace {

// A range of values [from, past): dimension bytes and values (metadata_keys.h), no epoch.
using ValueRange = std::pair<std::string, std::string>;

// The ids of the games whose value is in one of `ranges` (ascending, not overlapping), from the
// lists of each of the `epochs` epochs (value_postings.h): epoch by epoch, the ranges in order,
// with one iterator that only moves forward (a seek only where the iterator is not past the
// range's start already: a search by part of a name reads the lists of thousands of names, in
// each epoch). `range`: many values' lists (dates, ECO codes) are read at once, in key order,
// and read ahead; a name's few lists are not (a megabyte read ahead for each name that a search
// by part of a name matched made it twice as slow).
std::expected<std::vector<std::uint32_t>, Status> games_posted(
    rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf, std::uint32_t epochs,
    const std::vector<ValueRange>& ranges, bool range) {
  std::vector<std::uint32_t> ids, list;
  rocksdb::ReadOptions read;
  if (range) read.readahead_size = 1 << 20;
  std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(read, cf));
  std::string first, end;
  for (std::uint32_t epoch = 0; epoch < epochs && it->status().ok(); ++epoch)
    for (const auto& [from, past] : ranges) {
      first = end = postings::epoch_prefix(epoch);
      first += from;
      end += past;
      if (!it->Valid() || it->key().ToStringView() < first) it->Seek(first);
      for (; it->Valid() && it->key().ToStringView() < end; it->Next()) {
        const auto key = postings::parse_key(it->key().ToStringView());
        list.clear();
        if (!key || !name_index::decode_numbers(it->value().ToStringView(), list) || list.empty() ||
            postings::block_of(list.front()) != key->block ||
            postings::block_of(list.back()) != key->block)
          return std::unexpected(Status::error(Status::Code::Corruption, "postings damaged"));
        ids.insert(ids.end(), list.begin(), list.end());
      }
      if (!it->status().ok()) break;
    }
  if (!it->status().ok()) return std::unexpected(from_rocksdb(it->status(), "reading postings"));
  postings::sort_ids(ids);
  return ids;
}

metadata::Dimension dimension_of(Store::NameDimension d) {
  switch (d) {
    case Store::NameDimension::Player: return metadata::Player;
    case Store::NameDimension::Event: return metadata::Event;
    case Store::NameDimension::Site: return metadata::Site;
  }
  return metadata::Player;
}

}  // namespace

std::expected<std::vector<std::uint32_t>, Status> Store::games_dated(std::uint32_t low,
                                                                     std::uint32_t high) const {
  if (low > high) return std::vector<std::uint32_t>();
  return games_posted(
      *impl_->db, impl_->families[Postings], impl_->epochs(),
      {{metadata::date_value(low), postings::past_lists_of(metadata::date_value(high))}}, true);
}

std::expected<std::vector<std::uint32_t>, Status> Store::games_with_eco(std::string_view from,
                                                                        std::string_view to) const {
  if (to < from) return std::vector<std::uint32_t>();
  return games_posted(
      *impl_->db, impl_->families[Postings], impl_->epochs(),
      {{metadata::eco_value(from), postings::past_lists_of(metadata::eco_value(to))}}, true);
}

std::expected<std::vector<std::uint32_t>, Status> Store::games_named(NameDimension dimension,
                                                                     std::string_view name,
                                                                     int colour) const {
  return games_named(dimension, std::vector<std::string>{std::string(name)}, colour);
}

std::expected<std::vector<std::uint32_t>, Status> Store::games_named(
    NameDimension dimension, const std::vector<std::string>& names, int colour) const {
  // One colour's keys of a player, or both's.
  // No name's value is a prefix of another's (each ends with 0, or 0 and a colour), so the
  // lists that start with this prefix are this name's, and the names' ranges do not overlap.
  std::vector<ValueRange> ranges;
  ranges.reserve(names.size());
  for (const std::string& name : names) {
    std::string prefix = metadata::name_prefix(dimension_of(dimension), name, colour);
    std::string past = metadata::past_value(prefix);
    ranges.emplace_back(std::move(prefix), std::move(past));
  }
  std::sort(ranges.begin(), ranges.end());
  ranges.erase(std::unique(ranges.begin(), ranges.end()), ranges.end());
  return games_posted(*impl_->db, impl_->families[Postings], impl_->epochs(), ranges, false);
}

std::expected<std::vector<std::uint32_t>, Status> Store::games_with_material(
    const std::function<bool(const pgn::MaterialBalance&)>& pieces_may_match,
    const std::function<bool(const pgn::MaterialBalance&)>& matches, const PossibleCounts& possible,
    std::optional<std::uint32_t> only_epoch) const {
  // Keys: epoch | dimension | balance (4 bytes of pieces, 1 of pawns) | block
  // (value_postings.h, material_record.h). Within an epoch a set of pieces is one key range:
  // the walk seeks from one whose counts are all possible to the next
  // (material::next_possible_pieces), and past one `pieces_may_match` refuses. Reading every
  // set of pieces cost a search 120 ms at 5M games, whatever it found; an ending names one set.
  const char dimension = metadata::Material;
  constexpr std::size_t pieces_bytes = material::pieces_size;
  std::vector<std::uint32_t> ids, list;
  rocksdb::ReadOptions read;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read, impl_->families[Postings]));
  std::string prefix, target;
  const std::size_t value_at = postings::epoch_key_size + 1;
  static_assert(pieces_bytes == 4, "a pieces number is 32 bits, big-endian in the key");
  const auto seek_pieces = [&](std::uint32_t pieces) {
    target = prefix;
    bytes::put_big_endian32(target, pieces);
    it->Seek(target);
  };
  const std::uint32_t from = only_epoch.value_or(0),
                      to =
                          only_epoch ? std::min(*only_epoch + 1, impl_->epochs()) : impl_->epochs();
  // One epoch's lists (a search's) as a bitmap of its ids: a broad spec's name millions.
  std::optional<postings::DenseIds> dense;
  if (only_epoch && from < to) dense.emplace(ids_of_epoch(from).first, ids_of_epoch(from).last);
  for (std::uint32_t epoch = from; epoch < to && it->status().ok(); ++epoch) {
    prefix = postings::epoch_prefix(epoch) + dimension;
    const auto first = material::next_possible_pieces(0, possible.counts);
    if (!first) break;  // no balance has possible counts
    seek_pieces(*first);
    std::optional<std::uint32_t> last_pieces;
    bool pieces_ok = false;
    while (it->Valid() && it->key().starts_with(prefix)) {
      const std::string_view key = it->key().ToStringView();
      if (key.size() != value_at + material::balance_size + postings::block_key_size)
        return std::unexpected(Status::error(Status::Code::Corruption, "postings damaged"));
      const auto balance = material::balance_of(key.substr(value_at, material::balance_size));
      const std::uint32_t pieces = bytes::read_big_endian32(key.substr(value_at, pieces_bytes));
      if (pieces != last_pieces) {
        last_pieces = pieces;
        pieces_ok = material::next_possible_pieces(pieces, possible.counts) == pieces &&
                    pieces_may_match(*balance);
        if (!pieces_ok) {
          const auto next = pieces == ~std::uint32_t(0)
                                ? std::nullopt
                                : material::next_possible_pieces(pieces + 1, possible.counts);
          if (!next) break;  // no later set of pieces in this epoch can match
          seek_pieces(*next);
          continue;
        }
      }
      if (matches(*balance)) {
        list.clear();
        if (!name_index::decode_numbers(it->value().ToStringView(), list) ||
            (dense && !dense->add(list)))
          return std::unexpected(Status::error(Status::Code::Corruption, "postings damaged"));
        if (!dense) ids.insert(ids.end(), list.begin(), list.end());
      }
      it->Next();
    }
  }
  if (!it->status().ok()) return std::unexpected(from_rocksdb(it->status(), "reading postings"));
  if (dense)
    dense->append_to(ids);
  else
    postings::sort_ids(ids);
  return ids;
}

Status Store::for_each_material(
    std::span<const std::uint32_t> ids,
    const std::function<bool(std::uint32_t, const pgn::MaterialHistory&)>& each) const {
  GroupedReader reader(*impl_->db, impl_->families[Materials], 0, impl_->cache_game_data);
  pgn::MaterialHistory history;
  for (const std::uint32_t id : ids) {
    auto bytes = reader.entry(id);
    if (!bytes) return bytes.error();
    if (!material::decode_history(*bytes, history))
      return Status::error(Status::Code::Corruption,
                           pgn::cat("the material of game ", id, " is damaged"));
    if (!each(id, history)) break;
  }
  return Status::ok();
}

std::expected<GameSummary, Status> Store::summary(std::uint32_t id) const {
  if (id == 0 || id > impl_->games)
    return std::unexpected(Status::error(Status::Code::NotFound, pgn::cat("no game ", id)));
  return GroupedReader(*impl_->db, impl_->families[Summaries], 0, impl_->cache_game_data).get(id);
}

Status Store::for_each_summary(
    const std::vector<std::uint32_t>& ids,
    const std::function<void(std::uint32_t, const GameSummary&)>& each) const {
  GroupedReader reader(*impl_->db, impl_->families[Summaries], 0, impl_->cache_game_data);
  for (const std::uint32_t id : ids) {
    auto summary = reader.get(id);
    if (!summary) return summary.error();
    each(id, *summary);
  }
  return Status::ok();
}

Status Store::for_each_facts(
    const std::vector<std::uint32_t>& ids,
    const std::function<void(std::uint32_t, const SearchFacts&)>& each) const {
  FactsReader reader(*impl_->db, impl_->families[Facts], impl_->cache_game_data);
  for (const std::uint32_t id : ids) {
    auto facts = reader.get(id);
    if (!facts) return facts.error();
    each(id, *facts);
  }
  return Status::ok();
}

std::expected<std::vector<std::uint64_t>, Status> Store::opening_counts() const {
  std::vector<std::uint64_t> counts(pgn::openings().size(), 0);
  std::unique_ptr<rocksdb::Iterator> it(
      impl_->db->NewIterator(bulk_read_options(), impl_->families[Facts]));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    auto group = facts::GroupView::parse(it->value().ToStringView());
    if (!group) return std::unexpected(group.error());
    for (std::size_t i = 0; i < group->size(); ++i) {
      const pgn::OpeningId id = group->at(i).opening_id;
      if (id < counts.size()) ++counts[id];
    }
  }
  if (!it->status().ok()) return std::unexpected(from_rocksdb(it->status(), "reading the facts"));
  return counts;
}

Status Store::select_facts(const std::vector<std::uint32_t>& ids, const FactsFilter& filter,
                           std::vector<std::uint32_t>& passing) const {
  FactsReader reader(*impl_->db, impl_->families[Facts], impl_->cache_game_data);
  for (const std::uint32_t id : ids) {
    auto passes = reader.passes(id, filter);
    if (!passes) return passes.error();
    if (*passes) passing.push_back(id);
  }
  return Status::ok();
}

std::expected<std::shared_ptr<const PackedStrings>, Status> Store::name_values(
    NameDimension dimension) const {
  const char byte = dimension_of(dimension);
  std::lock_guard lock(impl_->names_mutex);
  if (auto cached = impl_->names.find(byte); cached != impl_->names.end()) return cached->second;
  auto values = std::make_shared<PackedStrings>();
  rocksdb::ReadOptions read;
  read.readahead_size = 1 << 20;  // the dimension's names are read at once, in order
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read, impl_->families[Names]));
  // The keys of the names family are name values, a dimension's together.
  const std::string prefix(1, byte);
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    const auto name = metadata::name_of(it->key().ToStringView());
    if (!name) return std::unexpected(Status::error(Status::Code::Corruption, "names damaged"));
    values->add(*name);
  }
  if (!it->status().ok()) return std::unexpected(from_rocksdb(it->status(), "reading names"));
  impl_->names.emplace(byte, values);
  return values;
}

std::expected<std::vector<std::string>, Status> Store::names_containing(
    NameDimension dimension, std::string_view key) const {
  std::vector<std::string> out;
  if (key.size() < name_index::fragment_length) {
    auto values = name_values(dimension);
    if (!values) return std::unexpected(values.error());
    for (std::size_t i = 0; i < (*values)->size(); ++i)
      if (search_key_contains((**values)[i], key)) out.emplace_back((**values)[i]);
    return out;
  }
  // The numbers of the names holding every fragment of the key (eight spread over a long key
  // narrow as well as all of them), intersected from the shortest list up; then the names
  // themselves, which must hold the key and not only its fragments ("abcxbcd" holds those of
  // "abcd").
  std::vector<std::string_view> fragments = name_index::fragments_of(key);
  if (fragments.size() > 8) {
    std::vector<std::string_view> spread;
    for (std::size_t i = 0; i < 8; ++i) spread.push_back(fragments[i * (fragments.size() - 1) / 7]);
    fragments = std::move(spread);
  }
  const char byte = dimension_of(dimension);
  std::vector<std::string> keys;
  for (std::string_view fragment : fragments)
    keys.push_back(name_index::fragment_key(byte, fragment));
  auto read =
      [&](const std::vector<std::string>& wanted,
          std::vector<rocksdb::PinnableSlice>& values) -> std::expected<std::vector<bool>, Status> {
    const std::size_t n = wanted.size();
    std::vector<rocksdb::Slice> slices(wanted.begin(), wanted.end());
    std::vector<rocksdb::Status> statuses(n);
    values = std::vector<rocksdb::PinnableSlice>(n);
    impl_->db->MultiGet(rocksdb::ReadOptions(), impl_->families[NameIndex], n, slices.data(),
                        values.data(), statuses.data());
    std::vector<bool> found(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!statuses[i].ok() && !statuses[i].IsNotFound())
        return std::unexpected(from_rocksdb(statuses[i], "reading the name index"));
      found[i] = statuses[i].ok();
    }
    return found;
  };
  std::vector<rocksdb::PinnableSlice> values;
  auto found = read(keys, values);
  if (!found) return std::unexpected(found.error());
  std::vector<std::vector<std::uint32_t>> lists(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!(*found)[i]) return out;  // no name holds this fragment
    if (!name_index::decode_numbers(values[i].ToStringView(), lists[i]))
      return std::unexpected(Status::error(Status::Code::Corruption, "the name index is damaged"));
  }
  std::sort(lists.begin(), lists.end(),
            [](const auto& a, const auto& b) { return a.size() < b.size(); });
  std::vector<std::uint32_t> numbers = std::move(lists[0]), both;
  for (std::size_t i = 1; i < lists.size() && !numbers.empty(); ++i) {
    both.clear();
    std::set_intersection(numbers.begin(), numbers.end(), lists[i].begin(), lists[i].end(),
                          std::back_inserter(both));
    numbers.swap(both);
  }
  std::vector<std::string> number_keys;
  for (std::uint32_t number : numbers) number_keys.push_back(name_index::number_key(number));
  found = read(number_keys, values);
  if (!found) return std::unexpected(found.error());
  for (std::size_t i = 0; i < number_keys.size(); ++i) {
    const std::string_view name_key = values[i].ToStringView();
    if (!(*found)[i] || name_key.size() < 2 || name_key[0] != byte)
      return std::unexpected(Status::error(Status::Code::Corruption, "the name index is damaged"));
    const std::string_view name = name_key.substr(1, name_key.size() - 2);
    if (search_key_contains(name, key)) out.emplace_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::expected<std::vector<PositionMatch>, Status> Store::find_position(
    const pgn::Position& position) const {
  const pgn::Key key = pgn::repetition_key(position);
  auto candidates = games_at(position);
  if (!candidates) return std::unexpected(candidates.error());
  std::vector<PositionMatch> matches;

  // The index narrows to games whose positions share 40 bits of the key; replaying each
  // candidate confirms it and finds the plies and the moves played from there.
  for (const std::uint32_t id : *candidates) {
    auto game = this->game(id);
    if (!game) return std::unexpected(game.error());
    pgn::Position pos = game->start;
    for (std::size_t ply = 0;; ++ply) {
      const bool last = ply == game->moves.size();
      if (pgn::repetition_key(pos) == key)
        matches.push_back({id, int(ply), last ? pgn::Move::none() : game->moves[ply].move});
      if (last) break;
      const pgn::Move m = game->moves[ply].move;
      pos.play_or_pass(m);
    }
  }
  return matches;
}

namespace {

// Opens `path` for writing with a handle per family of `descriptors` (in that order), creating the
// families it lacks (all but the default one when the database is new) in one call: RocksDB's
// create_missing_column_families adds them one at a time, each writing the options file of every
// family and reading it back, which made creating a database 30 ms of a one-game import's 85.
rocksdb::Status open_writer(const rocksdb::DBOptions& options, const std::string& path,
                            const std::vector<rocksdb::ColumnFamilyDescriptor>& descriptors,
                            std::vector<rocksdb::ColumnFamilyHandle*>& handles, rocksdb::DB*& db) {
  std::vector<std::string> existing;
  if (!rocksdb::DB::ListColumnFamilies(options, path, &existing).ok())
    existing = {rocksdb::kDefaultColumnFamilyName};  // a new database
  std::vector<rocksdb::ColumnFamilyDescriptor> present, missing;
  std::vector<std::size_t> present_at, missing_at;
  for (std::size_t i = 0; i < descriptors.size(); ++i) {
    const bool exists =
        descriptors[i].name == rocksdb::kDefaultColumnFamilyName ||
        std::find(existing.begin(), existing.end(), descriptors[i].name) != existing.end();
    (exists ? present : missing).push_back(descriptors[i]);
    (exists ? present_at : missing_at).push_back(i);
  }
  std::vector<rocksdb::ColumnFamilyHandle*> opened, created;
  rocksdb::Status s = rocksdb::DB::Open(options, path, present, &opened, &db);
  if (!s.ok()) return s;
  if (!missing.empty()) s = db->CreateColumnFamilies(missing, &created);
  if (!s.ok()) {
    for (auto* h : opened) db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    for (auto* h : created) db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    delete db;
    db = nullptr;
    return s;
  }
  handles.assign(descriptors.size(), nullptr);
  for (std::size_t i = 0; i < opened.size(); ++i) handles[present_at[i]] = opened[i];
  for (std::size_t i = 0; i < created.size(); ++i) handles[missing_at[i]] = created[i];
  return s;
}

}  // namespace

std::expected<Store, Status> Store::open(const std::string& path, const StoreOptions& options) {
  if (auto creating =
          options.create_if_missing && !options.read_only ? creation_path(path) : std::nullopt) {
    std::error_code error;
    if (auto created = Store::open(creating->string(), options); !created) {
      std::filesystem::remove_all(*creating, error);
      // Said of the path the user gave, not of the creation directory.
      std::string message = created.error().message();
      for (std::size_t at; (at = message.find(creating->string())) != std::string::npos;)
        message.replace(at, creating->string().size(), path);
      return std::unexpected(Status::error(created.error().code(), message));
    }
    // Closed (its schema version flushed) before it is renamed.
    std::filesystem::rename(*creating, path, error);
    if (error) {
      std::filesystem::remove_all(*creating, error);
      // Another process created it meanwhile: open that one (or find it locked) below.
      if (!exists(path))
        return std::unexpected(Status::error(Status::Code::IoError,
                                             pgn::cat("creating ", path, ": ", error.message())));
    }
    sync_directory(creating->parent_path());
  }
  // Asked to open a database that is not there, RocksDB creates its directory (and a LOCK and
  // a LOG in it) before it fails: a missing path is answered here.
  if ((!options.create_if_missing || options.read_only) && !exists(path))
    return std::unexpected(Status::error(Status::Code::NotFound, "no database at " + path));
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = options.create_if_missing && !options.read_only;
  db_options.create_missing_column_families = !options.read_only;
  // A reader opens every table file at once: files an importer deletes afterwards (compaction)
  // stay readable through their open handles.
  if (options.read_only) {
    db_options.max_open_files = -1;
    db_options.env = reader_env();
  }
  // Opening the table files is the bulk of an open, and a query command opens the database
  // for one search: one thread per family (RocksDB's default, 16, started 169 threads for a
  // 50 ms query) and no statistics gathered from the files (they feed compaction choices only).
  db_options.max_file_opening_threads = 1;
  db_options.skip_stats_update_on_db_open = true;
  // Two compactions at once for the two halves of the position index (see compact()); the
  // default of two background jobs leaves one for compactions.
  db_options.max_background_jobs = 4;
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  // One shard: RocksDB's default of 64 gives each shard 1 MB, and a block larger than its
  // shard is dropped as soon as it is read. A table file's Bloom filter is one block (the
  // fingerprints' reach megabytes at a few million games), so each lookup read and checksummed
  // it again: importing 100,000 games into 5 M took 19.7 s instead of 10.5, and verify of the
  // 5 M-game database went from 7 minutes to over 13.
  const std::shared_ptr<rocksdb::Cache> block_cache =
      rocksdb::NewLRUCache(options.block_cache_bytes, /*num_shard_bits=*/0);
  for (int f = 0; f < FamilyCount; ++f) {
    rocksdb::ColumnFamilyOptions family_options;
    // Levels and block sizes are the family table's, with what was measured for each
    // (column_families.h).
    family_options.compression =
        family_table[f].zstd_level > 0 ? rocksdb::kZSTD : rocksdb::kNoCompression;
    family_options.compression_opts.level = std::max(1, family_table[f].zstd_level);
    // Data goes to the last level as soon as it is compacted, not down level after level: a
    // compaction after an import rewrites the data once, not once per level.
    family_options.level_compaction_dynamic_level_bytes = true;
    // Fingerprints are hashes, but their keys' shared prefixes and block headers leave ZSTD a
    // tenth (corpus: 4.9 -> 4.4 MB).
    // Each batch adds its new names' numbers to a fragment's list as a merge operand, and its
    // games to a date's or an ECO code's list (value_postings.h).
    if (family_table[f].merges_lists)
      family_options.merge_operator = name_index::posting_merge_operator();
    // The postings' table files end where an epoch does (value_postings.h), so that a merge of
    // an import's lists into the last level rewrites the file of their epoch alone: without
    // this, 64 MB files held several epochs, and the merge rewrote 82 MB of them at 4 M games.
    if (f == Postings)
      family_options.sst_partitioner_factory =
          rocksdb::NewSstPartitionerFixedPrefixFactory(postings::epoch_key_size);
    // The position families are never compacted by RocksDB: each generation is a key range of
    // its own, ingested into the last level and dropped whole when merged (position_generations.h),
    // so there is nothing for RocksDB to merge. Folding every run into one after each import, as
    // schema 8 did, cost 4.9 s to add 1,127 games to 5 million.
    if (is_position_family(f)) family_options.disable_auto_compactions = true;
    // Each import batch adds one table file per family. Those of the families keyed by game id
    // (games, summaries) overlap nothing and go straight to the last level; settle() merges an
    // import's into a few. The others' (metadata, fingerprints, names, counters) overlap the
    // earlier ones: every 16 are merged into the level above the last, kept small (16 MB), so
    // that a merge rewrites little and a read meets few files. Schema 8 merged every 32 into
    // the last level: at 5 million games imports ended before RocksDB finished, and 53 files
    // of metadata stood unmerged (a name search read them all). Every 8 cost a corpus import
    // 3 s of CPU (the metadata's 1.8 M keys rewritten whole while the family is small).
    family_options.level0_file_num_compaction_trigger = 16;
    if (family_table[f].tiered)
      family_options.compaction_style = rocksdb::kCompactionStyleUniversal;
    family_options.max_bytes_for_level_base = 16 << 20;
    family_options.level0_slowdown_writes_trigger = 64;
    family_options.level0_stop_writes_trigger = 128;
    rocksdb::BlockBasedTableOptions table;
    // Every family's blocks share one cache, the table files' indexes and Bloom filters too:
    // read when a lookup first needs them, not all at open. Read at open, they were half of a
    // query command (a 2 M-game database: 32 ms a command, 17 ms this way; the fingerprints'
    // filters alone are 10 bits a game), and they grew with the database without a bound.
    table.block_cache = block_cache;
    table.cache_index_and_filter_blocks = true;
    table.block_size = family_table[f].block_kb << 10;
    // Keys of names and metadata share long prefixes (a name, then ids): a full key every 64
    // instead of every 16 saves a tenth of the corpus's metadata (4.3 -> 3.9 MB); a seek then
    // reads up to 64 keys in a block after its binary search.
    if (f == Metadata || f == Names || f == NameIndex) table.block_restart_interval = 64;
    if (f == Fingerprints || f == Names) {
      // Most lookups are for fingerprints not stored (a new game): a Bloom filter answers them
      // without reading a block. A batch looks up each of its names (Impl::new_names): the new
      // ones are answered the same way.
      table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    }
    family_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    descriptors.emplace_back(std::string(family_name(f)), family_options);
  }

  if (Status checked = check_path(path, db_options, options.read_only); !checked.is_ok())
    return std::unexpected(checked);
  if (!options.read_only) {
    // A writer's log is written by LogFile (log_file.h: RocksDB's own aborts after a full disk).
    std::error_code ignored;
    if (options.create_if_missing) std::filesystem::create_directory(path, ignored);
    db_options.info_log = std::make_shared<LogFile>(path + "/LOG");
  }
  auto impl = std::make_unique<Impl>();
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s;
  if (options.read_only) {
    // A read-only open may leave families closed (RocksDB opens the table files of those it
    // is given only).
    std::vector<rocksdb::ColumnFamilyDescriptor> opened;
    std::vector<int> opened_families;  // the Family of each of `opened`
    for (int f = 0; f < FamilyCount; ++f)
      if (options.import_records || !is_import_record(f)) {
        opened.push_back(descriptors[f]);
        opened_families.push_back(f);
      }
    std::vector<rocksdb::ColumnFamilyHandle*> handles;  // in the order of `opened`
    // An importer may delete table files (after a compaction) between our reading the list of
    // files and opening them: read the list again, after a pause that grows.
    for (int attempt = 0; attempt < 20; ++attempt) {
      s = rocksdb::DB::OpenForReadOnly(db_options, path, opened, &handles, &raw);
      if (s.ok() || !(s.IsIOError() || s.IsPathNotFound() || s.IsCorruption())) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5 * (attempt + 1)));
    }
    // Indexed by Family; those left closed stay null.
    impl->families.assign(FamilyCount, nullptr);
    for (std::size_t i = 0; i < handles.size(); ++i)
      impl->families[opened_families[i]] = handles[i];
    // A database written by another pgndb may lack some of our families, and a read-only open
    // cannot add them (InvalidArgument): read its schema version from what it has, to say so.
    // Listed only then: the list is read from the manifest, which the open reads again.
    if (s.IsInvalidArgument()) {
      std::vector<std::string> existing;
      if (!rocksdb::DB::ListColumnFamilies(db_options, path, &existing).ok())
        return std::unexpected(Status::error(Status::Code::NotFound, "no database at " + path));
      for (const FamilyTraits& family : family_table)
        if (std::find(existing.begin(), existing.end(), family.name) == existing.end())
          return std::unexpected(other_schema(db_options, path));
    }
  } else {
    s = open_writer(db_options, path, descriptors, impl->families, raw);
  }
  if (!s.ok()) {
    if ((!options.create_if_missing || options.read_only) &&
        (s.IsInvalidArgument() || s.IsPathNotFound() || (s.IsIOError() && !exists(path))))
      return std::unexpected(Status::error(Status::Code::NotFound, "no database at " + path));
    if (s.IsIOError() && lock_held(path))
      return std::unexpected(
          Status::error(Status::Code::Busy,
                        pgn::cat(path, " is in use: another process is writing to it (it holds ",
                                 path, "/LOCK); run one import at a time")));
    return std::unexpected(from_rocksdb(s, "opening " + path));
  }
  impl->db.reset(raw);
  impl->path = path;
  impl->small_family_bytes = options.small_family_bytes;
  impl->cache_game_data = options.cache_game_data;
  impl->db_options = db_options;
  for (const auto& d : descriptors) impl->family_options.push_back(d.options);
  // Table files of a batch that was being written when an earlier run stopped.
  if (!options.read_only) {
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator(path, ignored))
      if (entry.path().filename().string().starts_with("ingest-"))
        std::filesystem::remove(entry.path(), ignored);
  }

  std::string value;
  s = impl->db->Get(rocksdb::ReadOptions(), impl->families[Default], version_key, &value);
  if (s.IsNotFound() && options.read_only) {
    return std::unexpected(Status::error(Status::Code::NotFound, "no database at " + path));
  } else if (s.IsNotFound()) {
    if (Status written = impl->write_schema_version(); !written.is_ok())
      return std::unexpected(written);
  } else if (!s.ok()) {
    return std::unexpected(from_rocksdb(s, "reading the schema version"));
  } else if (const std::uint32_t found = value.size() == 4 ? bytes::read_big_endian32(value) : 0;
             found != schema_version && (options.read_only || !is_upgradable(found))) {
    return std::unexpected(version_mismatch(path, found));
  }
  impl->version = bytes::read_big_endian32(value);

  // The counters (0 when absent: a new database, or one an upgrade is about to count).
  for (auto [key, counter] :
       {std::pair{game_count_key, &impl->games}, std::pair{reject_count_key, &impl->rejects},
        std::pair{player_count_key, &impl->players}, std::pair{name_count_key, &impl->name_count},
        std::pair{duplicate_count_key, &impl->duplicates}}) {
    auto n = impl->read_number(Default, key, key);
    if (!n) return std::unexpected(n.error());
    *counter = *n;
  }
  for (int kind : {Impl::MainLine, Impl::InVariations}) {
    s = impl->db->Get(rocksdb::ReadOptions(), impl->families[Default],
                      Impl::generations_key_of(kind), &value);
    if (s.IsNotFound()) continue;
    if (!s.ok()) return std::unexpected(from_rocksdb(s, "reading the position index's list"));
    auto generations = positions::Generations::decode(value);
    if (!generations)
      return std::unexpected(
          Status::error(Status::Code::Corruption, "the position index's list is damaged"));
    impl->generations[kind] = std::move(*generations);
    impl->first_new_generation[kind] = impl->generations[kind].next_id;
  }
  impl->first_new_game = impl->games + 1;
  if (impl->version != schema_version)
    if (Status upgraded = impl->upgrade(); !upgraded.is_ok()) return std::unexpected(upgraded);
  if (!options.read_only) {
    if (Status cleaned = impl->delete_unlisted_generations(); !cleaned.is_ok())
      return std::unexpected(cleaned);
    for (int f = 0; f < FamilyCount; ++f) {
      impl->level0_at_open[f] = Impl::level0_files(*impl->db, impl->families[f]);
      impl->db->GetIntProperty(impl->families[f], rocksdb::DB::Properties::kTotalSstFilesSize,
                               &impl->bytes_at_open[f]);
    }
  }
  return Store(std::move(impl));
}

rocksdb::DB& StoreAccess::db(const Store& store) { return *store.impl_->db; }

rocksdb::ColumnFamilyHandle* StoreAccess::family(const Store& store, std::string_view name) {
  for (int f = 0; f < FamilyCount; ++f)
    if (family_name(f) == name) return store.impl_->families[std::size_t(f)];
  return nullptr;
}

positions::Generations StoreAccess::generations(const Store& store, bool in_variations) {
  return store.impl_->generations_of(in_variations ? Store::Impl::InVariations
                                                   : Store::Impl::MainLine);
}

}  // namespace pgndb::index
