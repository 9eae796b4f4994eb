#include "pgndb/index/importer.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <future>
#include <optional>
#include <thread>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <pthread.h>

#include "import_pipeline.h"
#include "pgn/reader.h"

namespace pgndb::index {

namespace {

// A 64-bit hash of a file's bytes: names a source by its contents, so that a file imported
// whole is recognised under any name, and a partly imported one is resumed. Eight bytes per
// step (multiply, rotate), since it reads every byte of files of many gigabytes before their
// import starts; the length goes in last, so that trailing zero bytes count. `buffer` (1 MiB,
// its contents no matter) is the caller's, kept from file to file: a folder of 1,000 small
// files allocated and zeroed a megabyte each.
std::expected<std::uint64_t, std::string> content_hash(const std::string& path,
                                                       std::vector<char>& buffer) {
  auto file = pgn::FileSource::open(path);
  if (!file) return std::unexpected(file.error());
  std::uint64_t hash = 0x9E3779B97F4A7C15ULL, length = 0;
  auto mix = [&](std::uint64_t word) {
    hash = std::rotl((hash ^ word) * 0xff51afd7ed558ccdULL, 29);
  };
  buffer.resize(1 << 20);
  for (;;) {
    auto n = (*file)->read(buffer.data(), buffer.size());
    if (!n) return std::unexpected(n.error());
    if (*n == 0) break;
    length += *n;
    // Zero-pad to whole words: the buffer is 1 MiB, so only a file's last read is short.
    std::fill(buffer.begin() + std::ptrdiff_t(*n),
              buffer.begin() + std::ptrdiff_t((*n + 7) & ~std::size_t(7)), 0);
    for (std::size_t i = 0; i < *n; i += 8) {
      std::uint64_t word;
      std::memcpy(&word, buffer.data() + i, 8);
      mix(word);
    }
  }
  mix(length);
  hash ^= hash >> 33;
  return hash * 0xc4ceb9fe1a85ec53ULL;
}

// Fingerprint -> id, for the games of the batches not yet committed (the store knows the
// others). Open addressing with linear probing in one array, which clear() keeps: the table is
// refilled batch after batch, and a node-based map allocated and freed a node per game.
class FingerprintTable {
 public:
  // The id stored for `fingerprint`, or 0.
  std::uint32_t find(std::uint64_t fingerprint) const {
    if (slots_.empty()) return 0;
    for (std::size_t i = fingerprint & mask();; i = (i + 1) & mask()) {
      if (slots_[i].id == 0) return 0;
      if (slots_[i].fingerprint == fingerprint) return slots_[i].id;
    }
  }
  // Stores `fingerprint` (not stored yet) with `id` (not 0).
  void insert(std::uint64_t fingerprint, std::uint32_t id) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    std::size_t i = fingerprint & mask();
    while (slots_[i].id != 0) i = (i + 1) & mask();
    slots_[i] = {fingerprint, id};
    ++size_;
  }
  void clear() {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    size_ = 0;
  }
  void swap(FingerprintTable& other) noexcept {
    slots_.swap(other.slots_);
    std::swap(size_, other.size_);
  }

 private:
  struct Slot {
    std::uint64_t fingerprint = 0;
    std::uint32_t id = 0;  // 0: the slot is free
  };
  std::size_t mask() const { return slots_.size() - 1; }
  void grow() {
    std::vector<Slot> old(std::max<std::size_t>(slots_.size() * 2, 1 << 15));
    old.swap(slots_);
    size_ = 0;
    for (const Slot& slot : old)
      if (slot.id != 0) insert(slot.fingerprint, slot.id);
  }

  std::vector<Slot> slots_;  // a power of two in size; fingerprints are well mixed already
  std::size_t size_ = 0;
};

// One file of the import: how it is named, how far it is, and what it gave.
struct SourceState {
  bool tracked = false;  // by its content's hash (standard input cannot be: it is read once)
  std::uint64_t hash = 0;
  SourceProgress progress;  // what the store records of it, at each commit
  std::uint64_t size = 0;   // in bytes (compressed for .zst)
  bool sized = false;       // whether its size is known (not for standard input)
  // Bytes of the files read before it in the pipeline: with its own bytes read, where the
  // import stands in all it reads.
  std::uint64_t bytes_before = 0;
  bool recorded = true;     // its progress is in the batches committed (or being committed)
  std::size_t copy_of = 0;  // for a file left out as the same as an earlier path: that path + 1
  FileImport result;
};

// Looks each path up in the store, by its content: a file imported whole is skipped, one
// imported in part resumes after the games already stored, and a file given twice (or two
// files alike) is imported once. Fills `sources` (one per path) and returns the indexes of those
// to read, in order.
std::expected<std::vector<std::size_t>, Status> plan_sources(Store& store,
                                                             const std::vector<std::string>& paths,
                                                             std::vector<SourceState>& sources) {
  std::vector<std::size_t> to_read;
  std::unordered_map<std::uint64_t, std::size_t> read_here;  // hash -> its first path here
  std::vector<char> buffer;
  sources.assign(paths.size(), {});
  for (std::size_t i = 0; i < paths.size(); ++i) {
    SourceState& source = sources[i];
    source.progress.name = paths[i];
    source.tracked = paths[i] != "-";
    if (source.tracked) {
      auto hash = content_hash(paths[i], buffer);
      if (!hash) return std::unexpected(Status::error(Status::Code::IoError, hash.error()));
      source.hash = *hash;
      auto known = store.source(source.hash);
      if (!known) return std::unexpected(known.error());
      auto earlier = read_here.find(source.hash);
      if (known->complete || earlier != read_here.end()) {
        source.result.already_imported = true;
        if (known->complete) {
          source.result.imported_as = known->name;
          source.result.games = known->games;
        } else {
          source.result.imported_as = paths[earlier->second];
          source.copy_of = earlier->second + 1;  // its games are known at the import's end
        }
        continue;
      }
      read_here.emplace(source.hash, i);
      source.progress.games = source.result.resumed_after = known->games;
      std::error_code error;
      source.size = std::filesystem::file_size(paths[i], error);
      source.sized = !error;
    }
    to_read.push_back(i);
  }
  return to_read;
}

// Writes the prepared games of an import's chunks, in order, into atomic batches: ids in the
// order of the files and of their games, duplicates found by fingerprint, the progress of each
// file recorded with the batch that holds its games. A file's games need not fill a batch of
// their own: one batch holds the end of a file and the start of the next (so a folder of files
// costs what its games cost in one file, and makes no more position generations to merge).
class BatchWriter {
 public:
  // `sized`: every file to read has a known size and starts at its first game, and `total` is
  // their sum (see whole_import_).
  BatchWriter(Store& store, const ImportOptions& options, std::vector<SourceState>& sources,
              bool sized, std::uint64_t total)
      : store_(store),
        options_(options),
        sources_(sources),
        batch_(store.begin_batch()),
        batch_games_(std::clamp<std::size_t>(options.batch_games, 1, WriteBatch::max_games)),
        whole_import_bytes_(whole_import_batches * options.batch_bytes),
        sized_(sized),
        total_(total) {
    batch_.reserve(sized ? whole_import_bytes_ : options.batch_bytes, batch_games_);
  }

  // Adds the games of `chunk` (of sources_[chunk.source]), committing each batch that fills.
  Status add(Chunk& chunk) {
    SourceState& source = sources_[chunk.source];
    read_ = source.bytes_before + chunk.bytes_read;
    // The store's answer for the fingerprints of a chunk, asked once for the whole chunk. It
    // stays valid until a commit finishes, which can store games the chunk duplicates; after
    // one, the rest of the chunk asks the store game by game.
    fingerprints_.clear();
    for (auto& outcome : chunk.outcomes)
      if (auto* game = std::get_if<PreparedGame>(&outcome))
        fingerprints_.push_back(game->fingerprint);
    if (auto s = store_.find_fingerprints(fingerprints_, stored_ids_); !s.is_ok()) return s;
    stored_ids_valid_ = true;
    std::size_t game_in_chunk = 0;
    for (auto& outcome : chunk.outcomes) {
      if (auto s = make_room(); !s.is_ok()) return s;
      ++source.progress.games;
      source.recorded = false;
      ++handled_;
      if (auto* reject = std::get_if<Reject>(&outcome)) {
        if (options_.on_reject) options_.on_reject(*reject);
        batch_.add_reject(*reject);
        ++source.result.rejects;
      } else {
        auto s = add_game(std::get<PreparedGame>(outcome), game_in_chunk++, source.result);
        if (!s.is_ok()) return s;
      }
    }
    if (chunk.last) {
      source.progress.complete = true;
      source.recorded = false;
    }
    if (options_.on_progress) {
      ImportProgress shown;
      shown.file = chunk.source;
      shown.bytes_read = chunk.bytes_read;
      shown.bytes_total = source.size;
      shown.games = source.result.games;
      shown.duplicates = source.result.duplicates;
      shown.rejects = source.result.rejects;
      shown.all_games = games_;
      shown.all_bytes_read = read_;
      shown.all_bytes_total = sized_ ? total_ : 0;
      options_.on_progress(shown);
    }
    return Status::ok();
  }

  // Commits the last batch, after the last chunk, and waits for it.
  Status finish() {
    if (auto s = commit(true); !s.is_ok()) return s;
    return finish_commit();
  }
  // Waits for the batch being committed, if one is, after an error: its own is the one to
  // report.
  void abandon() { (void)finish_commit(); }

 private:
  // A full batch is committed when a game follows it, not as soon as it fills: the last one,
  // committed after the last file's end, then knows that it is the last (set_merged_later).
  Status make_room() {
    if (handled_ < batch_games_ &&
        batch_.bytes() < (whole_import_ ? whole_import_bytes_ : options_.batch_bytes))
      return Status::ok();
    if (sized_ && commits_ == 0 && !whole_import_ && handled_ < batch_games_ && read_ > 0 &&
        double(batch_.bytes()) * double(total_) / double(read_) <= double(whole_import_bytes_)) {
      whole_import_ = true;
      return Status::ok();
    }
    if (auto s = commit(false); !s.is_ok()) return s;
    const bool was_whole = std::exchange(whole_import_, false);
    return was_whole ? finish_commit() : Status::ok();
  }

  Status add_game(const PreparedGame& game, std::size_t game_in_chunk, FileImport& result) {
    std::uint32_t original = uncommitted_.find(game.fingerprint);
    if (!original) original = in_commit_.find(game.fingerprint);
    if (!original && stored_ids_valid_) {
      original = stored_ids_[game_in_chunk];
    } else if (!original) {
      auto found = store_.find_fingerprint(game.fingerprint);
      if (!found) return found.error();
      original = *found;
    }
    if (original) ++result.duplicates;
    if (!original || !options_.skip_duplicates) {
      result.positions += game.positions.size();
      const std::uint32_t id = batch_.add_game(game, original);
      if (!original) uncommitted_.insert(game.fingerprint, id);
      ++result.games;
      ++games_;
    }
    return Status::ok();
  }

  Status finish_commit() {
    if (!committed_.valid()) return Status::ok();
    Status s = committed_.get();
    in_commit_.clear();
    stored_ids_valid_ = false;
    return s;
  }

  // Commits the batch filled (`last`: the import's last) on its own thread, and goes on with
  // an empty one.
  Status commit(bool last) {
    if (auto s = finish_commit(); !s.is_ok()) return s;
    for (SourceState& source : sources_)
      if (!source.recorded) {
        if (source.tracked) batch_.set_source_progress(source.hash, source.progress);
        source.recorded = true;
      }
    // The import's only batch stays as written; the others are merged at the end of the import.
    batch_.set_merged_later(commits_ > 0 || !last);
    // Whether the end of the import rewrites this batch's games: it does for an import of
    // games_rewritten_from_batches batches or more, which the bytes this batch took of the
    // files foretell (its games are alike; a wrong guess costs one rewrite, or a few files of
    // games compressed twice).
    std::uint64_t batches = commits_ + 1;
    if (!last && read_ > batch_started_ && total_ > read_) {
      const std::uint64_t span = read_ - batch_started_;
      batches += (total_ - read_ + span - 1) / span;
    }
    batch_.set_games_rewritten_later(batches >= WriteBatch::games_rewritten_from_batches);
    ++commits_;
    batch_started_ = read_;
    // The batch committed last is emptied and reused: its buffers keep their memory, which
    // spares the page faults of fresh allocations (tens of megabytes per batch).
    WriteBatch next = committing_ ? std::move(*committing_) : batch_.successor();
    if (committing_) next.follow(batch_);
    committing_.emplace(std::move(batch_));
    batch_ = std::move(next);
    in_commit_.swap(uncommitted_);
    handled_ = 0;
    committed_ = std::async(std::launch::async, [this] {
      pthread_setname_np(pthread_self(), "pgndb-commit");
      return committing_->commit();
    });
    return Status::ok();
  }

  Store& store_;
  const ImportOptions& options_;
  std::vector<SourceState>& sources_;
  WriteBatch batch_;
  // A full batch is committed on its own thread while the next one fills: writing table files
  // and waiting for them to reach the disk then costs no time of this thread.
  std::optional<WriteBatch> committing_;
  std::future<Status> committed_;
  // Fingerprints of the games in batches not yet committed (the store knows the others): the
  // one filling and the one being committed.
  FingerprintTable uncommitted_, in_commit_;
  const std::size_t batch_games_;
  // An import whose games fit in one batch (batch_games) and in whole_import_batches times
  // batch_bytes is written as one batch: no batch then fills beside it while it is written,
  // and the end of the import has no generations of it to merge (a quarter of the time of a
  // 300,000-game import). Decided when the first batch reaches batch_bytes, from the share of
  // the files read so far. Should the rest prove larger, the batch is committed at
  // whole_import_bytes_ (or at batch_games) and the next one waits for that commit, so that
  // memory stays bounded. Not with standard input (its size is unknown) nor when resuming.
  // Three, not two (the memory of two batches, one filling and one committed): 200,000
  // lichess-style games (725 MB, a clock and an eval on every move) were three batches, and
  // are one: 7.20-7.94 s (13.4-14.9 s CPU) -> 6.44-6.75 s (12.0-12.3), peak 694-698 -> 768 MB.
  static constexpr std::size_t whole_import_batches = 3;
  const std::size_t whole_import_bytes_;
  const bool sized_;
  const std::uint64_t total_;  // bytes of all the files to read
  bool whole_import_ = false;  // the batch filling holds the whole import
  std::size_t handled_ = 0;    // games of the batch, stored or not
  std::uint64_t games_ = 0;    // games stored by the import, of every file
  std::size_t commits_ = 0;    // batches committed or being committed
  // Bytes of all the files read when the latest chunk came, and when the batch filling began.
  std::uint64_t read_ = 0, batch_started_ = 0;
  std::vector<std::uint64_t> fingerprints_;  // of the chunk being added
  std::vector<std::uint32_t> stored_ids_;    // the store's ids for them
  bool stored_ids_valid_ = false;            // see add()
};

}  // namespace

std::expected<std::vector<FileImport>, Status> import_files(Store& store,
                                                            const std::vector<std::string>& paths,
                                                            const ImportOptions& options) {
  std::vector<SourceState> sources;
  auto to_read = plan_sources(store, paths, sources);
  if (!to_read) return std::unexpected(to_read.error());
  std::vector<PipelineSource> pipeline_sources;
  bool sized = true;
  std::uint64_t total = 0;
  for (std::size_t i : *to_read) {
    SourceState& source = sources[i];
    sized = sized && source.sized && source.progress.games == 0;
    source.bytes_before = total;
    total += source.size;
    pipeline_sources.push_back({paths[i], source.progress.games});
  }
  if (!to_read->empty()) {
    const unsigned threads =
        options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    Pipeline pipeline(std::move(pipeline_sources), threads, options.letters);
    BatchWriter writer(store, options, sources, sized, total);
    // The pipeline numbers its sources among those read: its chunks are renumbered as paths.
    while (auto chunk = pipeline.next()) {
      chunk->source = (*to_read)[chunk->source];
      if (auto s = writer.add(*chunk); !s.is_ok()) {
        writer.abandon();
        return std::unexpected(s);
      }
      pipeline.recycle(std::move(chunk));
    }
    if (!pipeline.read_error().empty()) {
      writer.abandon();  // the read error is the one to report
      return std::unexpected(Status::error(Status::Code::IoError, pipeline.read_error()));
    }
    if (auto s = writer.finish(); !s.is_ok()) return std::unexpected(s);
  }
  std::vector<FileImport> results;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    FileImport& result = sources[i].result;
    if (sources[i].copy_of) result.games = sources[sources[i].copy_of - 1].progress.games;
    results.push_back(std::move(result));
  }
  return results;
}

std::expected<FileImport, Status> import_file(Store& store, const std::string& path,
                                              const ImportOptions& options) {
  auto imported = import_files(store, {path}, options);
  if (!imported) return std::unexpected(imported.error());
  return std::move(imported->front());
}

}  // namespace pgndb::index
