#include "import_pipeline.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include <pthread.h>

#include "pgn/replay.h"
#include "pgn/text.h"
#include "pgndb/index/input.h"

namespace pgndb::index {

namespace {

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

}  // namespace

// The threads of an import and what they share. The reader cuts chunks of each file in turn and
// queues them (at most `max_chunks` at a time: memory stays bounded whatever the files' sizes);
// workers prepare the chunks in any order; the calling thread takes them in order and writes
// them.
class Pipeline::Impl {
 public:
  Impl(std::vector<PipelineSource> sources, unsigned workers,
       const std::optional<pgn::PieceLetters>& letters)
      : sources_(std::move(sources)), letters_(letters), reader_games_(letters) {
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
  ~Impl() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    reader_.join();
    for (auto& w : workers_) w.join();
  }

  // The next chunk in order, prepared; nullptr after the last file (or after an error). The
  // places of its games are its file's.
  std::unique_ptr<Chunk> next() {
    auto chunk = take();
    if (!chunk || !chunk->whole) return chunk;
    if (chunk->first) line_base_ = 1;
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
      chunk.last = chunk.last || piece.chunk->last;  // the file's end was read on to
      chunk.bytes_read = std::max(chunk.bytes_read, piece.chunk->bytes_read);
      recycle(std::move(piece.chunk));
    };
    std::uint64_t streamed = chunk.text.size() - chunk.tail_offset;
    bool file_ended = false;  // the file's last chunk was fetched: the next is another file's
    ChainSource source(std::string_view(chunk.text).substr(chunk.tail_offset),
                       [&]() -> std::optional<std::string_view> {
                         for (; pieces.size() >= 2; pieces.pop_front()) used(pieces.front());
                         if (file_ended) return std::nullopt;
                         auto next = take();
                         if (!next) return std::nullopt;
                         file_ended = next->last;
                         const std::uint64_t start = streamed;
                         streamed += next->text.size();
                         pieces.push_back({std::move(next), start, streamed});
                         return std::string_view(pieces.back().chunk->text);
                       });
    // Each game cut out and prepared on its own, as when cutting game by game: a game over the
    // reader's size limit is then not replayed (its events would build an unbounded record).
    pgn::Reader reader(source, options);
    GameCutter cutter([&](std::string_view text, pgn::Location at) {
      chunk.outcomes.push_back(prepare(path_of(chunk), text, at, reader_games_));
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
    chunk->bytes_read = bytes_read_.load(std::memory_order_relaxed);
    chunk->source = reading_;
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return stopping_ || in_order_.size() < max_chunks; });
    if (stopping_) return false;
    to_prepare_.push_back(chunk.get());
    in_order_.push_back(std::move(chunk));
    changed_.notify_all();
    return true;
  }

  // Cuts the files in turn, until the last or the first error.
  void read() {
    std::string error;
    for (reading_ = 0; reading_ < sources_.size() && error.empty(); ++reading_) {
      {
        std::lock_guard lock(mutex_);
        if (stopping_) break;
      }
      bytes_read_.store(0, std::memory_order_relaxed);
      auto source = open_pgn_input(sources_[reading_].path, &bytes_read_);
      // A resumed file is passed over up to the games an earlier import stored: it is cut game
      // by game, which counts them.
      if (!source)
        error = source.error();
      else
        error = sources_[reading_].skip == 0 ? cut_whole(**source) : cut_games(**source);
    }
    std::lock_guard lock(mutex_);
    read_error_ = std::move(error);
    reading_done_ = true;
    changed_.notify_all();
  }

  // Cuts the file into chunks of whole lines, without reading its games (the workers do, once
  // each): a reader passing over every game to find where it ends took a sixth of an import's
  // CPU time, and the workers read each game again.
  std::string cut_whole(pgn::ByteSource& source) {
    std::string& pending = pending_;  // read from the file, not yet cut
    pending.clear();
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
        // Not zero-filled first: a folder of 1,000 small files zeroed a fresh megabyte each.
        const std::size_t size = pending.size();
        std::expected<std::size_t, std::string> n = 0;
        pending.resize_and_overwrite(size + read_size, [&](char* data, std::size_t) {
          n = source.read(data + size, read_size);
          return size + (n ? *n : 0);
        });
        if (!n) return n.error();
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
  // the first `skip` of them; its last chunk (empty when nothing is left) says so.
  std::string cut_games(pgn::ByteSource& source) {
    pgn::Reader reader(source);
    std::uint64_t skip = sources_[reading_].skip;
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
      chunk->last = !more;
      if ((chunk->texts.size() > 0 || !more) && !queue(std::move(cut))) return {};
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
    games.collect(&path_of(chunk), &chunk.outcomes);
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
          chunk->outcomes.push_back(
              prepare(path_of(*chunk), chunk->texts[i], chunk->origins[i], games));
      }
      {
        std::lock_guard lock(mutex_);
        chunk->ready = true;
      }
      changed_.notify_all();
    }
  }

  const std::string& path_of(const Chunk& chunk) const { return sources_[chunk.source].path; }

  const std::vector<PipelineSource> sources_;
  const std::optional<pgn::PieceLetters> letters_;  // ImportOptions::letters
  std::size_t reading_ = 0;                         // the reader's file, in sources_
  std::string pending_;  // the reader's, read and not yet cut: kept from file to file
  std::atomic<std::uint64_t> bytes_read_{0};  // of that file
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

Pipeline::Pipeline(std::vector<PipelineSource> sources, unsigned workers,
                   const std::optional<pgn::PieceLetters>& letters)
    : impl_(std::make_unique<Impl>(std::move(sources), workers, letters)) {}
Pipeline::~Pipeline() = default;
std::unique_ptr<Chunk> Pipeline::next() { return impl_->next(); }
void Pipeline::recycle(std::unique_ptr<Chunk> chunk) { impl_->recycle(std::move(chunk)); }
const std::string& Pipeline::read_error() const { return impl_->read_error(); }

}  // namespace pgndb::index
