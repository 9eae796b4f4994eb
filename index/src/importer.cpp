#include "pgndb/index/importer.h"

#include <algorithm>
#include <bit>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
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

using GameOutcome = std::variant<PreparedGame, Reject>;

// A run of consecutive games of the file, and (once a worker has been at it) what each became.
// It is cut in one of two ways (Pipeline::read): as the exact text of each game, or (`whole`)
// as one stretch of the file from a line start, which its worker reads in one pass.
struct Chunk {
  // Cut game by game: the games' texts (one allocation per chunk rather than one per game,
  // which another thread would free), and where each starts in the file.
  PackedStrings texts;
  std::vector<pgn::Location> origins;
  // Cut whole: the bytes, from a line start to a line end (LF, CR LF or a lone CR; but after a
  // forced cut), and whether the file ends with them. Lines are counted from its start: the
  // calling thread adds the lines of the chunks before it (Pipeline::next).
  bool whole = false;
  std::string text;
  bool first = false, last = false;
  // Where no game starts (no line in chunk_limit bytes starts like a tag: a game that long):
  // cut at a line end, or inside a line when it has none. The chunk after such a cut is read
  // only by Pipeline::read_on, its worker counting its lines alone.
  bool forced_cut = false, after_forced_cut = false;
  // Found by its worker, for a chunk cut whole: whether its last game ended as it would have
  // had the file's next line (a `[`) followed (pgn::Reader::ends_before_tags: the cut was then
  // where a reader of the whole file begins a game too); where the reading of that game began
  // (byte and place); how many line ends the text has.
  bool clean_end = false;
  bool tail_game = false;  // whether it read a game at all (else the tail is the whole text)
  std::uint64_t tail_offset = 0;
  pgn::Location tail_location;
  std::uint64_t lines = 0;

  std::vector<GameOutcome> outcomes;
  std::uint64_t bytes_read = 0;  // of the file, when the chunk was cut
  bool ready = false;
  unsigned worker = 0;  // the worker that prepared it
};

// What a game read and replayed becomes: a rejected game keeps its text and the place of the
// first error. An empty text is a game the reader gave up keeping (over its size limit).
GameOutcome outcome_of(const std::string& file, std::string_view text, pgn::Location origin,
                       const pgn::ReplayVisitor& replay, const PlayedMoves* played = nullptr) {
  if (text.empty())
    return Reject{file,
                  origin,
                  pgn::cat("game longer than ", pgn::ReaderOptions{}.max_game_size >> 20,
                           " MiB: only where it stands is kept, not its text (the limit bounds ",
                           "memory on input that never ends a game)"),
                  {}};
  if (replay.has_error()) {
    for (const auto& p : replay.problems())
      if (p.severity == pgn::GameProblem::Severity::Error)
        return Reject{file, p.location, p.message, std::string(text)};
  }
  return prepare_game(replay.record(), played, &replay.ending(), &replay.material());
}

// The replay visitor of a worker, which also prepares each game as the reader ends it (its
// text is valid only then) while `collect` has somewhere to put them.
class GameCollector final : public pgn::ReplayVisitor {
 public:
  // `letters`: the piece letters every game is read in (ImportOptions::letters).
  explicit GameCollector(const std::optional<pgn::PieceLetters>& letters)
      : ReplayVisitor(
            {.keep_record = true, .keep_text = false, .letters = letters, .track_material = true}),
        first_language_(letters ? letters->language : "en") {}
  // Outcomes go to `sink` (nothing collected while it is null), naming `file`.
  void collect(const std::string* file, std::vector<GameOutcome>* sink) {
    file_ = file;
    sink_ = sink;
  }

  pgn::Control begin_game(pgn::Location at) override {
    at_ = at;
    played_.clear();
    return ReplayVisitor::begin_game(at);
  }
  void end_game(std::string_view text) override {
    ReplayVisitor::end_game(text);
    // A game read again in another language's piece letters was played by another visitor:
    // what this one collected is of the first reading, and the encoder replays the record.
    const PlayedMoves* played = language() == first_language_ ? &played_ : nullptr;
    if (sink_) sink_->push_back(outcome_of(*file_, text, at_, *this, played));
  }

 private:
  // The codes and keys of the game's moves as they are played, for the encoder.
  void played(const pgn::Position& before, pgn::Move move, const pgn::Position& after) override {
    if (sink_) played_.add(before, move, after);
  }
  PlayedMoves played_;
  std::string_view first_language_;  // of the first reading of each game
  const std::string* file_ = nullptr;
  std::vector<GameOutcome>* sink_ = nullptr;
  pgn::Location at_;
};

// Where to cut a chunk whole from `text` (which starts at a line start): the offset of a line,
// at `target` bytes or more, that starts with `[` and a letter, as a game's tags do, after a
// line that is not a tag line, blank lines aside (so not between two tags of one game); one
// after a blank line when `text` has one, as games are separated. npos when `text` has none
// before `limit`. Here the next game starts in nearly every file; the workers' reading tells
// when it did not (Chunk::clean_end).
std::size_t find_cut(std::string_view text, std::size_t target, std::size_t limit) {
  const std::size_t end = std::min(text.size(), limit);
  auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  auto line_end = [](char c) { return c == '\n' || c == '\r'; };
  std::size_t first_cut = std::string_view::npos;
  for (std::size_t i = std::max<std::size_t>(target, 1); i + 1 < end; ++i) {
    const void* hit = std::memchr(text.data() + i, '[', end - 1 - i);
    if (!hit) break;
    i = std::size_t(static_cast<const char*>(hit) - text.data());
    if (!line_end(text[i - 1]) || !letter(text[i + 1])) continue;
    // The last byte before this line that is not white space, and its line's first such byte.
    std::size_t last = i;
    while (last > 0 && blank(text[last - 1])) --last;
    if (last == 0) return i;
    std::size_t first = last - 1;
    while (first > 0 && !line_end(text[first - 1])) --first;
    while (blank(text[first])) ++first;
    if (text[first] == '[') continue;  // a tag line: this one is the same game's next tag
    // A blank line between: two line ends (a CR LF pair counting as one) after `last`.
    std::size_t ends = 0;
    for (std::size_t j = last; j < i; ++j)
      if (text[j] == '\n' || (text[j] == '\r' && text[j + 1] != '\n')) ++ends;
    if (ends >= 2) return i;
    if (first_cut == std::string_view::npos) first_cut = i;
  }
  return first_cut;
}

// Passes over every game (no events), handing its exact text and where it starts to `take`.
class GameCutter final : public pgn::Visitor {
 public:
  explicit GameCutter(std::function<void(std::string_view, pgn::Location)> take)
      : take_(std::move(take)) {}
  pgn::Control begin_game(pgn::Location at) override {
    at_ = at;
    return pgn::Control::Skip;
  }
  void end_game(std::string_view text) override { take_(text, at_); }

 private:
  std::function<void(std::string_view, pgn::Location)> take_;
  pgn::Location at_;
};

// The bytes of several chunks' texts as one stream, fetched as the reader asks for them.
class ChainSource final : public pgn::ByteSource {
 public:
  // `fetch` gives the next text, or nothing at the end.
  ChainSource(std::string_view first, std::function<std::optional<std::string_view>()> fetch)
      : rest_(first), fetch_(std::move(fetch)) {}
  std::expected<std::size_t, std::string> read(char* buffer, std::size_t size) override {
    while (rest_.empty()) {
      const auto next = fetch_();
      if (!next) return 0;
      rest_ = *next;
    }
    const std::size_t n = std::min(size, rest_.size());
    std::memcpy(buffer, rest_.data(), n);
    rest_.remove_prefix(n);
    return n;
  }

 private:
  std::string_view rest_;
  std::function<std::optional<std::string_view>()> fetch_;
};

bool only_white_space(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
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

// Replays one game from its text; the reader reports the places of the original file.
GameOutcome prepare(const std::string& file, std::string_view text, pgn::Location origin,
                    pgn::ReplayVisitor& replay) {
  if (text.empty()) return outcome_of(file, text, origin, replay);
  pgn::StringSource source(text);
  pgn::ReaderOptions reader_options;
  reader_options.chunk_size = text.size() + 1;
  reader_options.origin = origin;
  reader_options.byte_order_mark = false;
  pgn::Reader reader(source, reader_options);
  auto read = reader.read_game(replay);
  if (!read || !*read)
    return Reject{file, origin, "the game's text could not be read again", std::string(text)};
  return outcome_of(file, text, origin, replay);
}

// The threads of one file's import and what they share. The reader cuts chunks and queues them
// (at most `max_chunks` at a time: memory stays bounded whatever the file's size); workers
// prepare the chunks in any order; the calling thread takes them in file order and writes them.
class Pipeline {
 public:
  Pipeline(std::string path, std::uint64_t skip, unsigned workers,
           const std::optional<pgn::PieceLetters>& letters)
      : path_(std::move(path)), skip_(skip), letters_(letters), reader_games_(letters) {
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
  // The places of its games are the file's.
  std::unique_ptr<Chunk> next() {
    auto chunk = take();
    if (!chunk || !chunk->whole) return chunk;
    for (GameOutcome& outcome : chunk->outcomes)
      if (auto* reject = std::get_if<Reject>(&outcome)) reject->location.line += line_base_ - 1;
    line_base_ += chunk->lines;
    if (!chunk->last && (!chunk->clean_end || chunk->forced_cut)) read_on(*chunk);
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
  // Game by game: games per chunk. Whole: a chunk's bytes (from a line start: about 370
  // generated games, 70 with a clock and an eval on every move), the most it may have (bounding
  // memory on a file with nowhere to cut), and what is read from the file at a time. At most
  // max_chunks are cut and not yet written.
  static constexpr std::size_t games_per_chunk = 256, max_chunks = 64;
  static constexpr std::size_t chunk_target = std::size_t(256) << 10,
                               chunk_limit = std::size_t(2) << 20, read_size = std::size_t(1) << 20;

  // The front chunk once prepared, or nullptr at the end (after an error too).
  std::unique_ptr<Chunk> take() {
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

  // `chunk`'s last game may go on past its end: the chunk was cut inside a game (its reading
  // ended at the chunk's end other than as Chunk::clean_end says). That game is read again here,
  // from where it began and on through the chunks after it, whose workers' outcomes are dropped
  // (they began reading at a wrong place), until a game ends where only white space is left of
  // a chunk, or the file ends. Rare: a comment holding a line that starts like a tag, a game
  // longer than chunk_limit.
  void read_on(Chunk& chunk) {
    std::fprintf(stderr, "read_on at line %llu\n", (unsigned long long)line_base_);
    if (chunk.tail_game) chunk.outcomes.pop_back();
    pgn::ReaderOptions options;
    options.origin = {line_base_ - chunk.lines + chunk.tail_location.line - 1,
                      chunk.tail_location.column};
    options.byte_order_mark = chunk.tail_offset == 0 && chunk.first;
    // The chunks fetched, with where their bytes stand in the stream read here. The reader
    // reads at most one chunk ahead of the end of a game, so only the last two may be left
    // unread; older ones are written off as read while a long game goes on.
    struct Piece {
      std::unique_ptr<Chunk> chunk;
      std::uint64_t start, end;
    };
    std::deque<Piece> pieces;
    auto used = [&](Piece& piece) {
      line_base_ += piece.chunk->lines;
      chunk.bytes_read = std::max(chunk.bytes_read, piece.chunk->bytes_read);
      recycle(std::move(piece.chunk));
    };
    std::uint64_t streamed = chunk.text.size() - chunk.tail_offset;
    ChainSource source(std::string_view(chunk.text).substr(chunk.tail_offset),
                       [&]() -> std::optional<std::string_view> {
                         for (; pieces.size() >= 2; pieces.pop_front()) used(pieces.front());
                         auto next = take();
                         if (!next) return std::nullopt;
                         const std::uint64_t start = streamed;
                         streamed += next->text.size();
                         pieces.push_back({std::move(next), start, streamed});
                         return std::string_view(pieces.back().chunk->text);
                       });
    // Each game cut out and prepared on its own, as when cutting game by game: a game over the
    // reader's size limit is then not replayed (its events would build an unbounded record).
    pgn::Reader reader(source, options);
    GameCutter cutter([&](std::string_view text, pgn::Location at) {
      chunk.outcomes.push_back(prepare(path_, text, at, reader_games_));
    });
    std::size_t read_pieces = 0;
    for (;;) {
      auto read = reader.read_game(cutter);
      if (!read || !*read) {
        read_pieces = pieces.size();
        break;
      }
      // A game ended where the rest of its chunk is white space: the next chunk begins a line
      // with a `[`, where this reading would begin a game, and its worker's reading is right.
      const std::uint64_t at = reader.offset();
      std::size_t i = 0;
      while (i < pieces.size() && pieces[i].end < at) ++i;
      if (i == pieces.size() || at < pieces[i].start) continue;  // in the first chunk's tail
      const Chunk& piece = *pieces[i].chunk;
      if (!piece.forced_cut &&
          only_white_space(std::string_view(piece.text).substr(at - pieces[i].start))) {
        read_pieces = i + 1;
        break;
      }
    }
    // The chunks after the one the reading ended in are written as their workers read them.
    {
      std::lock_guard lock(mutex_);
      while (pieces.size() > read_pieces) {
        in_order_.push_front(std::move(pieces.back().chunk));
        pieces.pop_back();
      }
    }
    for (Piece& piece : pieces) used(piece);
  }

  // A chunk to cut into: one written and emptied, or a new one.
  std::unique_ptr<Chunk> empty_chunk() {
    std::unique_ptr<Chunk> chunk;
    {
      std::lock_guard lock(mutex_);
      if (!reusable_.empty()) {
        chunk = std::move(reusable_.back());
        reusable_.pop_back();
      }
    }
    if (!chunk) return std::make_unique<Chunk>();
    chunk->texts.clear();
    chunk->origins.clear();
    chunk->text.clear();
    chunk->whole = chunk->first = chunk->last = chunk->forced_cut = chunk->after_forced_cut =
        chunk->ready = false;
    return chunk;
  }
  // Queues a cut chunk for the workers; false when the import is stopping.
  bool queue(std::unique_ptr<Chunk> chunk) {
    chunk->bytes_read = bytes_read();
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return stopping_ || in_order_.size() < max_chunks; });
    if (stopping_) return false;
    to_prepare_.push_back(chunk.get());
    in_order_.push_back(std::move(chunk));
    changed_.notify_all();
    return true;
  }

  void read() {
    auto finish = [&](std::string error) {
      std::lock_guard lock(mutex_);
      read_error_ = std::move(error);
      reading_done_ = true;
      changed_.notify_all();
    };
    auto source = open_pgn_input(path_, &bytes_read_);
    if (!source) return finish(source.error());
    // A resumed import passes over the games an earlier one stored: it cuts game by game, which
    // counts them.
    finish(skip_ == 0 ? cut_whole(**source) : cut_games(**source));
  }

  // Cuts the file into chunks of whole lines, without reading its games (the workers do, once
  // each): a reader passing over every game to find where it ends took a sixth of an import's
  // CPU time, and the workers read each game again.
  std::string cut_whole(pgn::ByteSource& source) {
    std::string pending;    // read from the file, not yet cut
    std::size_t begin = 0;  // of what is not yet cut, in `pending`
    bool end = false, after_forced_cut = false, first = true;
    for (;;) {
      const std::string_view rest(pending.data() + begin, pending.size() - begin);
      std::size_t cut = find_cut(rest, chunk_target, chunk_limit);
      bool forced = false;
      if (cut == std::string_view::npos && !end && rest.size() < chunk_limit) {
        // Read more, first dropping what was cut (at most a read's worth is moved).
        pending.erase(0, begin);
        begin = 0;
        const std::size_t size = pending.size();
        pending.resize(size + read_size);
        auto n = source.read(pending.data() + size, read_size);
        if (!n) return n.error();
        pending.resize(size + *n);
        end = *n == 0;
        continue;
      }
      if (cut == std::string_view::npos && !end) {
        // No game starts in chunk_limit bytes: cut after the last line end there, or (a line
        // that long) anywhere but inside a CR LF pair.
        forced = true;
        cut = rest.find_last_of("\r\n", chunk_limit - 1);
        if (cut != std::string_view::npos) {
          cut += rest[cut] == '\r' && cut + 1 < rest.size() && rest[cut + 1] == '\n' ? 2 : 1;
        } else {
          cut = chunk_limit;
          while (cut > 1 && rest[cut - 1] == '\r') --cut;
        }
      }
      const bool last = cut == std::string_view::npos;
      if (last) cut = rest.size();
      if (cut > 0 || last) {
        auto chunk = empty_chunk();
        chunk->whole = true;
        chunk->text.assign(rest.substr(0, cut));
        chunk->first = std::exchange(first, false);
        chunk->last = last;
        chunk->forced_cut = forced;
        chunk->after_forced_cut = after_forced_cut;
        if (!queue(std::move(chunk))) return {};
        after_forced_cut = forced;
      }
      begin += cut;
      if (last) return {};
    }
  }

  // Cuts the file game by game (a reader passes over every game to find its end), leaving out
  // the first `skip_`.
  std::string cut_games(pgn::ByteSource& source) {
    pgn::Reader reader(source);
    std::uint64_t skip = skip_;
    Chunk* chunk = nullptr;
    GameCutter cutter([&](std::string_view text, pgn::Location at) {
      if (skip > 0) {
        --skip;
        return;
      }
      chunk->texts.add(text);
      chunk->origins.push_back(at);
    });
    for (bool more = true; more;) {
      auto cut = empty_chunk();
      chunk = cut.get();
      while (chunk->texts.size() < games_per_chunk) {
        auto read = reader.read_game(cutter);
        if (!read) return read.error();
        if (!(more = *read)) break;
      }
      if (chunk->texts.size() > 0 && !queue(std::move(cut))) return {};
    }
    return {};
  }

  // Reads a chunk cut whole, game after game, preparing each.
  void read_whole(Chunk& chunk, GameCollector& games) {
    if (chunk.after_forced_cut) {
      // It begins inside a game (Pipeline::read_on reads it): its lines are all that counts,
      // ended as the reader ends them (LF, CR LF, a lone CR).
      chunk.lines = 0;
      const std::string_view text = chunk.text;
      for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')))
          ++chunk.lines;
      chunk.clean_end = false;
      chunk.tail_game = false;
      return;
    }
    pgn::StringSource source(chunk.text);
    pgn::ReaderOptions options;
    options.chunk_size = chunk.text.size() + 1;
    pgn::Reader reader(source, options);
    chunk.clean_end = true;
    chunk.tail_game = false;
    chunk.tail_offset = 0;
    chunk.tail_location = {};
    games.collect(&path_, &chunk.outcomes);
    for (;;) {
      const std::uint64_t offset = reader.offset();
      const pgn::Location at = reader.location();
      auto read = reader.read_game(games);
      if (!read || !*read) break;
      chunk.tail_game = true;
      chunk.tail_offset = offset;
      chunk.tail_location = at;
      chunk.clean_end = reader.ends_before_tags();
    }
    games.collect(nullptr, nullptr);
    chunk.lines = reader.location().line - 1;
  }

  void work(unsigned worker) {
    GameCollector games(letters_);
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
      if (chunk->whole) {
        read_whole(*chunk, games);
      } else {
        chunk->outcomes.reserve(chunk->texts.size());
        for (std::size_t i = 0; i < chunk->texts.size(); ++i)
          chunk->outcomes.push_back(prepare(path_, chunk->texts[i], chunk->origins[i], games));
      }
      {
        std::lock_guard lock(mutex_);
        chunk->ready = true;
      }
      changed_.notify_all();
    }
  }

  const std::string path_;
  const std::uint64_t skip_;
  const std::optional<pgn::PieceLetters> letters_;  // ImportOptions::letters
  std::atomic<std::uint64_t> bytes_read_{0};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Chunk>> in_order_;  // cut, not yet written (owns the chunks)
  std::deque<Chunk*> to_prepare_;                // cut, not yet claimed by a worker
  std::vector<std::vector<std::unique_ptr<Chunk>>> spent_;  // written, per worker to empty
  std::vector<std::unique_ptr<Chunk>> reusable_;            // emptied, for the reader to refill
  bool reading_done_ = false, stopping_ = false;
  std::string read_error_;
  // The calling thread's: the file's line where the next chunk cut whole begins, and its
  // visitor for read_on.
  std::uint64_t line_base_ = 1;
  GameCollector reader_games_;
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
  Pipeline pipeline(path, progress.games, threads, options.letters);
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
  // A file whose games fit in one batch (batch_games) and in what two batches may hold in
  // memory (2 x batch_bytes) is read as one batch: no batch then fills beside it while it is
  // written, so it takes no more memory than two would, and the end of the import has no
  // generations of it to merge (a quarter of the time of a 300,000-game import). Decided when
  // the first batch reaches batch_bytes, from the share of the file read so far. Should the
  // rest of the file prove larger, the batch is committed at twice batch_bytes (or at
  // batch_games) and the next one waits for that commit, so that memory stays bounded. Not for
  // standard input (its size is unknown) nor for a resumed import.
  const bool sized = tracked && progress.games == 0 && shown.bytes_total > 0;
  const std::size_t whole_file_bytes = 2 * options.batch_bytes;
  bool whole_file = false;  // the batch filling holds the whole file (up to whole_file_bytes)
  batch.reserve(sized ? whole_file_bytes : options.batch_bytes, batch_games);
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
      if (handled >= batch_games ||
          batch.bytes() >= (whole_file ? whole_file_bytes : options.batch_bytes)) {
        if (sized && commits == 0 && !whole_file && handled < batch_games && bytes_read > 0 &&
            double(batch.bytes()) * double(shown.bytes_total) / double(bytes_read) <=
                double(whole_file_bytes)) {
          whole_file = true;
        } else {
          if (auto s = commit(); !s.is_ok()) return std::unexpected(s);
          if (whole_file)
            if (auto s = finish_commit(); !s.is_ok()) return std::unexpected(s);
          whole_file = false;
        }
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
