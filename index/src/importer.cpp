#include "pgndb/index/importer.h"

#include <algorithm>
#include <bit>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>
#include <vector>

#include <pthread.h>

#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgn/text.h"
#include "pgndb/index/input.h"
#include "pgndb/index/packed_strings.h"
#include "pgndb/index/prepared_game.h"

namespace pgndb::index {

namespace {

// A 64-bit hash of a file's bytes: names a source by its contents, so that a file imported
// whole is recognised under any name, and a partly imported one is resumed. Eight bytes per
// step (multiply, rotate), since it reads every byte of files of many gigabytes before their
// import starts; the length goes in last, so that trailing zero bytes count.
std::expected<std::uint64_t, std::string> content_hash(const std::string& path) {
  auto file = pgn::FileSource::open(path);
  if (!file) return std::unexpected(file.error());
  std::uint64_t hash = 0x9E3779B97F4A7C15ULL, length = 0;
  auto mix = [&](std::uint64_t word) {
    hash = std::rotl((hash ^ word) * 0xff51afd7ed558ccdULL, 29);
  };
  std::vector<char> buffer(1 << 20);
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

// A run of consecutive games of the file: their texts as read, then (once a worker has been at
// it) what each became.
struct Chunk {
  // The games' texts (one allocation per chunk rather than one per game, which another thread
  // would free), and where each starts in the file.
  PackedStrings texts;
  std::vector<pgn::Location> origins;
  std::vector<std::variant<PreparedGame, Reject>> outcomes;
  std::uint64_t bytes_read = 0;  // of the file, when the chunk was cut
  bool ready = false;
  unsigned worker = 0;  // the worker that prepared it
};

// Cuts the file into game texts: the reader skips every game (no events), and hands over its
// exact text and where it starts. The first `skip` games (those an earlier run handled) are
// passed over.
class Splitter final : public pgn::Visitor {
 public:
  explicit Splitter(std::uint64_t skip) : skip_(skip) {}
  Chunk* chunk = nullptr;
  pgn::Control begin_game(pgn::Location at) override {
    at_ = at;
    return pgn::Control::Skip;
  }
  void end_game(std::string_view text) override {
    if (skip_ > 0) {
      --skip_;
      return;
    }
    chunk->texts.add(text);
    chunk->origins.push_back(at_);
  }

 private:
  std::uint64_t skip_;
  pgn::Location at_;
};

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

// Replays one game from its text; the reader reports the places of the original file.
std::variant<PreparedGame, Reject> prepare(const std::string& file, std::string_view text,
                                           pgn::Location origin, pgn::ReplayVisitor& replay) {
  if (text.empty())
    return Reject{file,
                  origin,
                  pgn::cat("game longer than ", pgn::ReaderOptions{}.max_game_size >> 20,
                           " MiB: only where it stands is kept, not its text (the limit bounds ",
                           "memory on input that never ends a game)"),
                  {}};
  pgn::StringSource source(text);
  pgn::ReaderOptions reader_options;
  reader_options.chunk_size = text.size() + 1;
  reader_options.origin = origin;
  pgn::Reader reader(source, reader_options);
  auto read = reader.read_game(replay);
  if (!read || !*read)
    return Reject{file, origin, "the game's text could not be read again", std::string(text)};
  if (replay.has_error()) {
    for (const auto& p : replay.problems())
      if (p.severity == pgn::GameProblem::Severity::Error)
        return Reject{file, p.location, p.message, std::string(text)};
  }
  return prepare_game(replay.record());
}

// The threads of one file's import and what they share. The reader cuts chunks and queues them
// (at most `max_chunks` at a time: memory stays bounded whatever the file's size); workers
// prepare the chunks in any order; the calling thread takes them in file order and writes them.
class Pipeline {
 public:
  Pipeline(std::string path, std::uint64_t skip, unsigned workers)
      : path_(std::move(path)), skip_(skip) {
    // Named, so that top -H and perf tell the stages apart.
    reader_ = std::thread([this] {
      pthread_setname_np(pthread_self(), "pgndb-read");
      read();
    });
    spent_.resize(workers);
    for (unsigned i = 0; i < workers; ++i)
      workers_.emplace_back([this, i] {
        pthread_setname_np(pthread_self(), "pgndb-replay");
        work(i);
      });
  }
  ~Pipeline() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    reader_.join();
    for (auto& w : workers_) w.join();
  }

  // The next chunk in file order, prepared; nullptr at the end of the file (or after an error).
  std::unique_ptr<Chunk> next() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] {
      return (!in_order_.empty() && in_order_.front()->ready) ||
             (reading_done_ && in_order_.empty());
    });
    if (in_order_.empty()) return nullptr;
    auto chunk = std::move(in_order_.front());
    in_order_.pop_front();
    changed_.notify_all();
    return chunk;
  }
  // Hands a written chunk back. The worker that prepared it frees its outcomes: memory freed on
  // another thread than the one that allocated it goes back through a shared path of the
  // allocator (glibc locked the allocating thread's arena, and the workers contended for their
  // arenas with the writer; jemalloc, which the pgndb program links, flushes it through its
  // arena's bins in bulk); then the reader cuts into it again, its
  // buffers keeping their memory (a new chunk's texts touched fresh pages: about a tenth of
  // the page faults of a 100,000-game import).
  void recycle(std::unique_ptr<Chunk> chunk) {
    std::lock_guard lock(mutex_);
    spent_[chunk->worker].push_back(std::move(chunk));
  }
  // After next() returned nullptr: the error that ended reading, if one did.
  const std::string& read_error() const { return read_error_; }
  std::uint64_t bytes_read() const { return bytes_read_.load(std::memory_order_relaxed); }

 private:
  static constexpr std::size_t games_per_chunk = 256, max_chunks = 64;

  void read() {
    auto finish = [&](std::string error) {
      std::lock_guard lock(mutex_);
      read_error_ = std::move(error);
      reading_done_ = true;
      changed_.notify_all();
    };
    auto source = open_pgn_input(path_, &bytes_read_);
    if (!source) return finish(source.error());
    pgn::Reader reader(**source);
    Splitter splitter(skip_);
    for (bool more = true; more;) {
      std::unique_ptr<Chunk> chunk;
      {
        std::lock_guard lock(mutex_);
        if (!reusable_.empty()) {
          chunk = std::move(reusable_.back());
          reusable_.pop_back();
        }
      }
      if (chunk) {
        chunk->texts.clear();
        chunk->origins.clear();
        chunk->ready = false;
      } else {
        chunk = std::make_unique<Chunk>();
      }
      splitter.chunk = chunk.get();
      while (chunk->texts.size() < games_per_chunk) {
        auto read = reader.read_game(splitter);
        if (!read) return finish(read.error());
        if (!(more = *read)) break;
      }
      chunk->bytes_read = bytes_read();
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || in_order_.size() < max_chunks; });
      if (stopping_) return;
      if (chunk->texts.size() > 0) {
        to_prepare_.push_back(chunk.get());
        in_order_.push_back(std::move(chunk));
        changed_.notify_all();
      }
    }
    finish({});
  }

  void work(unsigned worker) {
    pgn::ReplayVisitor replay({.keep_record = true, .keep_text = false});
    std::vector<std::unique_ptr<Chunk>> spent;
    for (;;) {
      Chunk* chunk;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stopping_ || !to_prepare_.empty() || reading_done_; });
        if (stopping_ || to_prepare_.empty()) return;
        chunk = to_prepare_.front();
        to_prepare_.pop_front();
        spent.swap(spent_[worker]);
      }
      if (!spent.empty()) {
        for (auto& done : spent) done->outcomes.clear();  // outside the lock
        std::lock_guard lock(mutex_);
        for (auto& done : spent) reusable_.push_back(std::move(done));
      }
      spent.clear();
      chunk->worker = worker;
      chunk->outcomes.reserve(chunk->texts.size());
      for (std::size_t i = 0; i < chunk->texts.size(); ++i)
        chunk->outcomes.push_back(prepare(path_, chunk->texts[i], chunk->origins[i], replay));
      {
        std::lock_guard lock(mutex_);
        chunk->ready = true;
      }
      changed_.notify_all();
    }
  }

  const std::string path_;
  const std::uint64_t skip_;
  std::atomic<std::uint64_t> bytes_read_{0};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Chunk>> in_order_;  // cut, not yet written (owns the chunks)
  std::deque<Chunk*> to_prepare_;                // cut, not yet claimed by a worker
  std::vector<std::vector<std::unique_ptr<Chunk>>> spent_;  // written, per worker to empty
  std::vector<std::unique_ptr<Chunk>> reusable_;            // emptied, for the reader to refill
  bool reading_done_ = false, stopping_ = false;
  std::string read_error_;
  std::thread reader_;
  std::vector<std::thread> workers_;
};

}  // namespace

std::expected<FileImport, Status> import_file(Store& store, const std::string& path,
                                              const ImportOptions& options) {
  FileImport result;
  // Files are tracked by content (standard input cannot be: it is read once).
  const bool tracked = path != "-";
  std::uint64_t hash = 0;
  SourceProgress progress{path, 0, false};
  ImportProgress shown;
  if (tracked) {
    auto h = content_hash(path);
    if (!h) return std::unexpected(Status::error(Status::Code::IoError, h.error()));
    hash = *h;
    auto known = store.source(hash);
    if (!known) return std::unexpected(known.error());
    if (known->complete) {
      result.already_imported = true;
      result.imported_as = known->name;
      result.games = known->games;
      return result;
    }
    progress.games = result.resumed_after = known->games;
    std::error_code error;
    shown.bytes_total = std::filesystem::file_size(path, error);
  }

  const unsigned threads =
      options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  Pipeline pipeline(path, progress.games, threads);
  WriteBatch batch = store.begin_batch();
  // A full batch is committed on its own thread while the next one fills: writing table files
  // and waiting for them to reach the disk then costs no time of this thread.
  std::optional<WriteBatch> committing;
  std::future<Status> committed;
  // Fingerprints of the games in batches not yet committed (the store knows the others): the
  // one filling and the one being committed.
  FingerprintTable uncommitted, in_commit;
  const std::size_t batch_games =
      std::clamp<std::size_t>(options.batch_games, 1, WriteBatch::max_games);
  batch.reserve(options.batch_bytes, batch_games);
  std::size_t handled = 0;  // games of the batch, stored or not
  std::size_t commits = 0;  // batches committed or being committed
  // Bytes of the file read when the latest chunk came, and when the batch filling began.
  std::uint64_t bytes_read = 0, batch_started = 0;
  bool stored_ids_valid = false;  // see the loop below
  auto finish_commit = [&]() -> Status {
    if (!committed.valid()) return Status::ok();
    Status s = committed.get();
    in_commit.clear();
    stored_ids_valid = false;
    return s;
  };
  auto commit = [&]() -> Status {
    if (auto s = finish_commit(); !s.is_ok()) return s;
    if (tracked) batch.set_source_progress(hash, progress);
    // The file's only batch stays as written; the others are merged at the end of the import.
    batch.set_merged_later(commits > 0 || !progress.complete);
    // Whether the end of the import rewrites this batch's games: it does for an import of
    // games_rewritten_from_batches batches or more, which the bytes this batch took of the file
    // foretell (its games are alike; a wrong guess costs one rewrite, or a few files of games
    // compressed twice).
    std::uint64_t batches = commits + 1;
    if (!progress.complete && bytes_read > batch_started && shown.bytes_total > bytes_read) {
      const std::uint64_t span = bytes_read - batch_started;
      batches += (shown.bytes_total - bytes_read + span - 1) / span;
    }
    batch.set_games_rewritten_later(batches >= WriteBatch::games_rewritten_from_batches);
    ++commits;
    batch_started = bytes_read;
    // The batch committed last is emptied and reused: its buffers keep their memory, which
    // spares the page faults of fresh allocations (tens of megabytes per batch).
    WriteBatch next = committing ? std::move(*committing) : batch.successor();
    if (committing) next.follow(batch);
    committing.emplace(std::move(batch));
    batch = std::move(next);
    in_commit.swap(uncommitted);
    handled = 0;
    committed = std::async(std::launch::async, [&] {
      pthread_setname_np(pthread_self(), "pgndb-commit");
      return committing->commit();
    });
    return Status::ok();
  };

  // The store's answer for the fingerprints of a chunk, asked once for the whole chunk. It
  // stays valid until a commit finishes, which can store games the chunk duplicates; after
  // one, the rest of the chunk asks the store game by game.
  std::vector<std::uint64_t> chunk_fingerprints;
  std::vector<std::uint32_t> stored_ids;
  while (auto chunk = pipeline.next()) {
    bytes_read = chunk->bytes_read;
    chunk_fingerprints.clear();
    for (auto& outcome : chunk->outcomes)
      if (auto* game = std::get_if<PreparedGame>(&outcome))
        chunk_fingerprints.push_back(game->fingerprint);
    if (auto s = store.find_fingerprints(chunk_fingerprints, stored_ids); !s.is_ok())
      return std::unexpected(s);
    stored_ids_valid = true;
    std::size_t game_in_chunk = 0;
    for (auto& outcome : chunk->outcomes) {
      // A full batch is committed when a game follows it, not as soon as it fills: the last
      // one, committed after the file's end, then knows that it is the last
      // (set_merged_later).
      if (handled >= batch_games || batch.bytes() >= options.batch_bytes) {
        if (auto s = commit(); !s.is_ok()) return std::unexpected(s);
      }
      ++progress.games;
      ++handled;
      if (auto* reject = std::get_if<Reject>(&outcome)) {
        if (options.on_reject) options.on_reject(*reject);
        batch.add_reject(*reject);
        ++result.rejects;
      } else {
        auto& game = std::get<PreparedGame>(outcome);
        std::uint32_t original = uncommitted.find(game.fingerprint);
        if (!original) original = in_commit.find(game.fingerprint);
        if (!original && stored_ids_valid) {
          original = stored_ids[game_in_chunk];
        } else if (!original) {
          auto found = store.find_fingerprint(game.fingerprint);
          if (!found) return std::unexpected(found.error());
          original = *found;
        }
        ++game_in_chunk;
        if (original) ++result.duplicates;
        if (!original || !options.skip_duplicates) {
          const std::uint64_t fingerprint = game.fingerprint;
          result.positions += game.positions.size();
          const std::uint32_t id = batch.add_game(game, original);
          if (!original) uncommitted.insert(fingerprint, id);
          ++result.games;
        }
      }
    }
    if (options.on_progress) {
      shown.bytes_read = chunk->bytes_read;
      shown.games = result.games;
      shown.duplicates = result.duplicates;
      shown.rejects = result.rejects;
      options.on_progress(shown);
    }
    pipeline.recycle(std::move(chunk));
  }
  if (!pipeline.read_error().empty()) {
    (void)finish_commit();  // the read error is the one to report
    return std::unexpected(Status::error(Status::Code::IoError, pipeline.read_error()));
  }
  progress.complete = true;
  if (auto s = commit(); !s.is_ok()) return std::unexpected(s);
  if (auto s = finish_commit(); !s.is_ok()) return std::unexpected(s);
  return result;
}

}  // namespace pgndb::index
