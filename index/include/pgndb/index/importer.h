// Importing PGN files into a store: several threads replay and prepare games while one thread
// writes them, in the order of the files and of their games, in atomic batches (each game
// whole, with all its index entries; a batch may hold the games of several files). A file is
// named by a hash of its contents, so that one imported whole is skipped and one imported in
// part is resumed after the games already stored.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pgndb/index/status.h"
#include "pgndb/index/store.h"

#include "pgn/piece_letters.h"

namespace pgndb::index {

struct ImportProgress {
  std::size_t file = 0;           // the file being read: an index into the paths imported
  std::uint64_t bytes_read = 0;   // of the file (compressed bytes for `.zst`)
  std::uint64_t bytes_total = 0;  // the file's size; 0 when unknown (standard input)
  std::uint64_t games = 0, duplicates = 0, rejects = 0;  // of this file, written so far
  // Of all the files the import reads: games written so far, and bytes (total 0 when a size is
  // unknown: standard input).
  std::uint64_t all_games = 0, all_bytes_read = 0, all_bytes_total = 0;
};

struct ImportOptions {
  unsigned threads = 0;  // threads replaying games; 0: one per core
  // Games per atomic write, at most; an interrupted import loses at most one batch of work.
  // Larger batches merge less (each writes a generation of the position index: a 1 M-game
  // import took 78 s with 50,000 games a batch, 96 s with 20,000; later, 24.3-24.5 s with
  // 100,000 and 27.5-28.0 s with 50,000, peaks 562-580 and 494-527 MiB). At 300,000, batch_bytes
  // ends the batches of a large file first, and an import (all its files) of up to 300,000
  // games that fits in three times batch_bytes is one batch (importer.cpp): 300,000 games
  // 8.5-8.8 -> 6.2-6.5 s.
  std::size_t batch_games = 300000;
  // A batch also ends when what it holds (WriteBatch::bytes: games as stored, position
  // entries, summaries, facts) reaches this: games with a clock and an eval comment on every
  // move store ten times the bytes of bare ones, and two batches are in memory at once (one
  // filling, one being written), or one of three times this size holding a whole import.
  std::size_t batch_bytes = std::size_t(160) << 20;
  // Leave out games identical to one stored (same moves, players, date and result) instead of
  // storing them marked as duplicates.
  bool skip_duplicates = false;
  // The piece letters the moves are written in (pgn/piece_letters.h): every game read in them.
  // None: English, and a game that does not read in English is tried in the other languages'.
  std::optional<pgn::PieceLetters> letters = std::nullopt;
  // Called on the importing thread after every few hundred games.
  std::function<void(const ImportProgress&)> on_progress;
  // Called on the importing thread for each game quarantined, in file order, before it is
  // written (reject.text may be a large string; it is not copied for the call).
  std::function<void(const Reject&)> on_reject;
};

struct FileImport {
  bool already_imported = false;    // the same content was imported whole before: nothing done
  std::string imported_as;          // the name it had then
  std::uint64_t resumed_after = 0;  // games of the file an earlier, interrupted run handled
  std::uint64_t games = 0;          // games stored (duplicates kept included)
  std::uint64_t duplicates = 0;     // duplicates found (kept, or left out with skip_duplicates)
  std::uint64_t rejects = 0;        // games quarantined
  std::uint64_t positions = 0;      // position index entries written
};

// Imports `paths` (files, `.zst` files, or `-` for standard input, which is not tracked), in
// that order, as one stream of games: their games get ids in the order of the files, and the
// files share batches, so that many small files cost what their games cost in one. Each file's
// progress is recorded with the batch that holds its last games read: a file imported whole is
// skipped when imported again, one interrupted is resumed after its games stored, and a file
// given twice (the same content) is read once. One result per path, in order. Errors are I/O
// errors of a file (naming it) and errors of the store, and stop the import: what was committed
// stays (each batch whole), and the same import run again goes on from there. Bad games are not
// errors (they go to the quarantine, with file, line, column and reason).
[[nodiscard]] std::expected<std::vector<FileImport>, Status> import_files(
    Store& store, const std::vector<std::string>& paths, const ImportOptions& options = {});

// import_files() of one path.
[[nodiscard]] std::expected<FileImport, Status> import_file(Store& store, const std::string& path,
                                                            const ImportOptions& options = {});

}  // namespace pgndb::index
