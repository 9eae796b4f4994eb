// The reading half of an import: one thread cuts the files, one after another in the order
// given, into chunks of consecutive games (a chunk never holds two files' games), and worker
// threads replay and prepare each chunk's games; the importer (importer.cpp) takes the chunks
// back in order, writes their games, and hands each chunk back to be cut into again.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "pgn/piece_letters.h"
#include "pgn/reader.h"
#include "pgndb/index/packed_strings.h"
#include "pgndb/index/prepared_game.h"
#include "pgndb/index/store.h"

namespace pgndb::index {

using GameOutcome = std::variant<PreparedGame, Reject>;

// A file to read: its name (rejects name it so), and how many of its first games an earlier,
// interrupted import handled (passed over here).
struct PipelineSource {
  std::string path;
  std::uint64_t skip = 0;
};

// A run of consecutive games of one file, and (once a worker has been at it) what each became.
// It is cut in one of two ways: as the exact text of each game (a resumed file), or (`whole`)
// as one stretch of the file from a line start, which its worker reads in one pass.
struct Chunk {
  std::size_t source = 0;  // its file: an index into the pipeline's sources
  // Cut game by game: the games' texts (one allocation per chunk rather than one per game,
  // which another thread would free), and where each starts in the file.
  PackedStrings texts;
  std::vector<pgn::Location> origins;
  // Cut whole: the bytes, from a line start to a line end (LF, CR LF or a lone CR; but after a
  // forced cut), and whether the file ends with them. Lines are counted from its start: the
  // calling thread adds the lines of the chunks before it (Pipeline::next).
  bool whole = false;
  std::string text;
  // Whether it is its file's first (then its lines are counted from 1), and its last (also
  // when cut game by game: an empty last chunk when nothing of the file is left to read; and
  // after Pipeline::next, when the chunk's last game was read on to the file's end).
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
  std::uint64_t bytes_read = 0;  // of its file, when the chunk was cut (compressed, for .zst)
  bool ready = false;
  unsigned worker = 0;  // the worker that prepared it
};

class Pipeline {
 public:
  // Starts the reader and `workers` threads on `sources`; each game is read in `letters`
  // (ImportOptions::letters).
  Pipeline(std::vector<PipelineSource> sources, unsigned workers,
           const std::optional<pgn::PieceLetters>& letters);
  ~Pipeline();  // stops the threads, at once when chunks are left
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // The next chunk, prepared: the files' chunks in order; nullptr after the last file, or after
  // an error. The places of its games are its file's.
  [[nodiscard]] std::unique_ptr<Chunk> next();
  // Hands back a chunk once written, to be emptied and cut into again.
  void recycle(std::unique_ptr<Chunk> chunk);
  // After next() returned nullptr: the error that ended reading (naming the file), if one did.
  [[nodiscard]] const std::string& read_error() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pgndb::index
