// The on-disk database: a RocksDB directory (layout in docs/storage.md) whose schema version is
// stored in it and checked on every open, so that a pgndb never reads a database written in a
// format it does not know. No RocksDB type appears here.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/game_record.h"
#include "pgn/material_balance.h"
#include "pgn/reader.h"
#include "pgndb/index/game_codec.h"
#include "pgndb/index/game_summary.h"
#include "pgndb/index/packed_strings.h"
#include "pgndb/index/position_statistics.h"
#include "pgndb/index/prepared_game.h"
#include "pgndb/index/status.h"

namespace pgndb::index {

// Bumped whenever the key or value layout of any column family changes, or what a layout may
// hold (docs/storage.md). 9: position runs are bit-packed in 2^18 buckets (8: byte-aligned in
// 2^16) and compacted by tiers. 10: generations may keep statistics of popular positions (a
// database of version 9 is upgraded in place by the first writer: it only lacks them). 11:
// facts. 12: the name index. 13: dates and ECO codes as lists of ids (value_postings.h). 14:
// the statistics of the most popular positions sliced by rating band and year (a database of
// version 13 is upgraded by writing the version: its generations keep no slices, which lookups
// do without and merges add). 15: players, events and sites as lists of ids too (the metadata
// family left empty). 16: games of format 3, a clock or an eval and a clock kept as numbers
// (game_codec.h; a database of version 15 is upgraded by writing the version: its games of
// format 2 are still read, and an older pgndb refuses the new ones by this number rather than
// by a game it cannot decode). 17: the postings' keys start with the epoch of their games
// (value_postings.h), so that an import's lists do not fall between older ones and RocksDB's
// merges no longer rewrite the whole family. 18: the statistics of popular positions keep their
// best-rated games (the explorer's top games; a database of version 17 is upgraded by writing
// the version: its generations keep none, which lookups do without, reading the games, and which
// the merges of the size tiers and `pgndb compact` count). 19: each game's speed in its summary
// and facts. 20: how its main line ended (checkmate, stalemate, ..., a repetition or fifty moves
// on the way: pgn::GameEnding) in its summary and facts; the upgrade plays every game again. 21:
// its opening by position (pgn/openings.h) in its summary and facts, found the same way. 22: its
// material along the main line (the `materials` family, material_record.h) and the balances it
// held as postings (metadata 'm' and 'f'), found the same way. 23: the squares its pawns stood
// on, in its material history (the histories of 22 are written again). 24: the ranks its rooks
// stood on, there too (the histories are written again). 25: position runs coded by groups, one
// per position (position_runs.h; a database of version 24 is upgraded by writing the version: its
// runs are still read, and written grouped when their generation is merged).
inline constexpr std::uint32_t schema_version = 25;

struct StoreOptions {
  // Create an empty database when `path` holds none (default). When false, opening a path
  // without a database fails with NotFound.
  bool create_if_missing = true;
  // Open for reading only, beside a process that may be importing into the database: this
  // store sees the games committed when it was opened (each whole, with its index entries).
  bool read_only = false;
  // With read_only: open the records an import keeps as well (the duplicates' fingerprints and
  // marks, the sources read, the quarantine), which stats(), reject(), source(),
  // find_fingerprint() and duplicate_of() read. A store for searching leaves them closed: no
  // search reads them, and the fingerprints' table files cost the most to open (RocksDB reads
  // the Bloom filter of each unmerged one whole: about 2 ms of a 5 M-game database's open).
  // Those calls then fail with InvalidArgument. A writer opens everything.
  bool import_records = true;
  // At the end of an import (Store::settle), a family of the metadata kind (metadata, names,
  // the name index, fingerprints, counters) no larger than this is merged whole into its last
  // level, where RocksDB stores keys without their sequence numbers (the corpus's metadata:
  // 7.5 MB in the import's merged level-0 file, 4.3 MB so); a larger one only has the import's
  // own level-0 files merged into one, so that the work follows what was imported.
  std::uint64_t small_family_bytes = 16 << 20;
  // The block cache every family shares (data blocks, the table files' indexes and filters).
  std::size_t block_cache_bytes = 64 << 20;
  // Keep the summaries and facts that searches and trees read in the block cache. A command
  // reads each once and leaves them out, where they would push out the indexes; a long-lived
  // reader (pgndb serve) reads the same positions' games again and again, and decompressed
  // half its time without them.
  bool cache_game_data = false;
};

// A game that could not be replayed, kept as it was written (the quarantine).
struct Reject {
  std::string source;  // the file it came from
  pgn::Location location;
  std::string error;
  std::string text;  // the game's original text
};

// A game in which a position stands: at `ply` of its main line (0 = the start), with the move
// played from it (Move::none() when the game ends there).
struct PositionMatch {
  std::uint32_t game;
  int ply;
  pgn::Move next;
};

// How far the import of one source file (named by a hash of its contents) has come: the games
// of it already stored or quarantined, and whether the whole file was read.
struct SourceProgress {
  std::string name;
  std::uint64_t games = 0;
  bool complete = false;
};

// What a database holds, and where its bytes go.
struct StoreStats {
  std::uint64_t games = 0, rejects = 0, sources = 0, positions = 0;
  std::uint64_t duplicates = 0;  // games stored that are duplicates of earlier ones
  std::uint64_t players = 0;     // distinct normalised player names
  // Generations of the main line's position index (docs/storage.md, "Positions").
  std::uint64_t position_generations = 0;
  // The earliest and latest dates of the games, with unknown parts as `??`; empty when none.
  std::string first_date, last_date;
  // Bytes on disk (compressed table files) per column family, by name.
  std::vector<std::pair<std::string, std::uint64_t>> bytes_by_part;
};

class Store;
struct StoreAccess;

// Games and rejects written together: commit() stores all of them atomically (each game with
// everything that belongs to it, or nothing), so an interrupted import leaves whole games.
class WriteBatch {
 public:
  ~WriteBatch();
  WriteBatch(WriteBatch&&) noexcept;
  WriteBatch& operator=(WriteBatch&&) noexcept;

  // The most games a batch holds (a game's place in its batch is 24 bits of each position
  // entry; a million games take about 2 GB).
  static constexpr std::size_t max_games = 1'000'000;

  // Adds a prepared game; returns the id it will have. `duplicate_of` is the id of the game it
  // duplicates (0: none); a duplicate is stored and indexed like any game, and marked as such.
  // What the batch keeps is copied: the game's memory stays the caller's, to be freed on the
  // thread that allocated it.
  std::uint32_t add_game(const PreparedGame& game, std::uint32_t duplicate_of = 0);
  void add_reject(const Reject& reject);
  // The memory the batch's games take, roughly: their stored bytes, summaries, facts and
  // position entries (sorted in place). The importer ends a batch by it.
  [[nodiscard]] std::size_t bytes() const;
  // Address space for a batch that is ended once bytes() reaches `bytes` or it holds `games`
  // games, so that no buffer of it grows by copying itself into a fresh one (a growth doubling
  // touched each byte twice and faulted in memory twice the buffer's size). Only the pages
  // written are memory (huge_pages.h maps them without reserving swap): each buffer gets room
  // for what it could hold alone, capped at max_reserved_bytes. A successor() reserves the same.
  void reserve(std::size_t bytes, std::size_t games);
  static constexpr std::size_t max_reserved_bytes = std::size_t(4) << 30;
  // Records, with the games of this batch, how far the source with content hash `hash` is (the
  // latest call for a hash counts; a batch may record several sources).
  void set_source_progress(std::uint64_t hash, const SourceProgress& progress);
  // Tells the batch whether its position generation is merged with others at the end of the
  // import (the default: Store::settle() merges an import's generations into one), or stays as
  // written (the import's only batch). One to be merged keeps the statistics of more positions
  // (position_stats.h, batch_statistics_threshold), so that the merge adds them instead of
  // counting them again; one that stays keeps those of a merged generation, no more.
  void set_merged_later(bool merged_later);
  // Store::settle() rewrites the game and summary files of an import of this many batches or
  // more into a few (a reader opens every table file).
  static constexpr std::size_t games_rewritten_from_batches = 6;
  // Tells the batch that the end of its import rewrites its game and summary files (an import
  // of games_rewritten_from_batches or more): it then writes them with LZ4 instead of ZSTD, a
  // fraction of the CPU, and the rewrite compresses them once with ZSTD (a 1 M-game import
  // 5% faster). Their table files are larger until then (about twice).
  void set_games_rewritten_later(bool rewritten_later);
  // A batch whose ids follow this one's, so that it can be filled while this one is being
  // committed (on another thread). This batch must be committed before the next one.
  WriteBatch successor() const;
  // Empties this committed batch and makes it the successor of `previous`, keeping the memory
  // of its buffers. Call it on the thread that fills the batch: it frees what that thread
  // allocated.
  void follow(const WriteBatch& previous);
  // Stores the batch. It may run on another thread than the one that filled it. A batch is
  // committed once; it holds its contents until follow() or its destruction.
  [[nodiscard]] Status commit();

 private:
  friend class Store;
  struct Impl;
  explicit WriteBatch(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class Store {
 public:
  [[nodiscard]] static std::expected<Store, Status> open(const std::string& path,
                                                         const StoreOptions& options = {});
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  ~Store();

  // The schema version recorded in the database.
  std::uint32_t version() const;
  // The version this writer upgraded the database from when it opened it (0: none).
  std::uint32_t upgraded_from() const;

  // A batch that writes into this store. Batches must be committed one at a time, in the order
  // they were begun (ids are given at add_game()).
  WriteBatch begin_batch();

  std::uint32_t game_count() const;
  std::uint32_t reject_count() const;
  // The postings keep each list by epoch, a range of 2^20 game ids (docs/storage.md), so that a
  // search wanting its first games reads the lists of the first epochs alone: epochs() of them,
  // 0 to epochs() - 1, the ids of each from first to last (1 .. 1,048,575 for epoch 0).
  struct EpochIds {
    std::uint32_t first, last;
  };
  [[nodiscard]] std::uint32_t epochs() const;
  [[nodiscard]] static EpochIds ids_of_epoch(std::uint32_t epoch);
  // Games have ids 1..game_count().
  [[nodiscard]] std::expected<pgn::GameRecord, Status> game(std::uint32_t id) const;
  // Where the main line of game `id` first stands in the position with pgn::repetition_key
  // `key`, and the move it plays there; nothing when it never does. Decodes the game only that
  // far (decode_main_line_until).
  [[nodiscard]] std::expected<std::optional<PlyMove>, Status> main_line_at(std::uint32_t id,
                                                                           pgn::Key key) const;
  // For each game of `ids` (ascending), read in one pass over the games, the first ply at which
  // its main line stands in a position `visit` finds (decode_main_line_until; `visit` also gets
  // the index of the game's id in `ids`); `each` gets that index and what was found.
  [[nodiscard]] Status for_each_main_line(
      std::span<const std::uint32_t> ids, const MainLineVisitor& visit,
      const std::function<void(std::size_t, const std::optional<PlyMove>&)>& each) const;
  // The tags and result of game `id`, without its moves.
  [[nodiscard]] std::expected<pgn::GameRecord, Status> game_header(std::uint32_t id) const;
  // Counts every part (reads the whole position index and the sources).
  [[nodiscard]] std::expected<StoreStats, Status> stats() const;
  // Rejects have ids 1..reject_count().
  [[nodiscard]] std::expected<Reject, Status> reject(std::uint32_t id) const;
  // The id of the first stored game with this duplicate fingerprint, or 0.
  [[nodiscard]] std::expected<std::uint32_t, Status> find_fingerprint(
      std::uint64_t fingerprint) const;
  // find_fingerprint of each of `fingerprints` at once (one lookup of them all, sorted, is
  // cheaper than one each): `ids` gets one id or 0 per fingerprint, in their order.
  [[nodiscard]] Status find_fingerprints(const std::vector<std::uint64_t>& fingerprints,
                                         std::vector<std::uint32_t>& ids) const;
  // The game that game `id` duplicates, or 0 when it is an original.
  [[nodiscard]] std::expected<std::uint32_t, Status> duplicate_of(std::uint32_t id) const;
  // The progress recorded for a source, or a default SourceProgress when it was never seen.
  [[nodiscard]] std::expected<SourceProgress, Status> source(std::uint64_t hash) const;
  // Ends an import: merges the position index's generations this store wrote into one, and
  // the games' and summaries' table files it wrote into a few (work bounded by what was
  // imported), and waits for the compactions RocksDB chose for the other families (amortized:
  // every 16 files of a level merged into the next). Safe to interrupt.
  [[nodiscard]] Status settle();
  // Rewrites the database whole (`pgndb compact`): the position index as one generation (one
  // run per bucket), the other families into the fewest files: the smallest and fastest form, at
  // the cost of reading and writing everything. Readers go on meanwhile; safe to interrupt.
  [[nodiscard]] Status compact();
  // How many generations the position index has (docs/storage.md, "Positions"): a lookup reads
  // one run in each.
  std::uint64_t position_generations(bool in_variations = false) const;

  // The ids, ascending, of the games whose main line reaches `position` (by any move order),
  // as the position index tells: positions are matched on 40 bits of their key (docs/
  // storage.md, "Positions"), so two positions of a database share them once in about 2^40 /
  // (distinct positions) lookups. find_position() replays the games to be certain.
  // With `in_variations`, the games in which a variation (at any depth) reaches it instead.
  [[nodiscard]] std::expected<std::vector<std::uint32_t>, Status> games_at(
      const pgn::Position& position, bool in_variations = false) const;
  // The same games read as they are needed: the first 20 games of a position that a million
  // reach decode a few entries of each generation's run instead of all of them. Reads what the
  // store held when it was made; the store must outlive it.
  class PositionGames {
   public:
    PositionGames(PositionGames&&) noexcept;
    PositionGames& operator=(PositionGames&&) noexcept;
    ~PositionGames();
    // Appends up to `n` more games to `ids`, ascending and each above the ones given before;
    // none at the end.
    [[nodiscard]] Status next(std::size_t n, std::vector<std::uint32_t>& ids);
    // The games given so far.
    std::uint64_t given() const { return given_; }

   private:
    friend class Store;
    struct Runs;
    explicit PositionGames(std::unique_ptr<Runs> runs);
    std::unique_ptr<Runs> runs_;
    std::uint64_t given_ = 0;
  };
  [[nodiscard]] std::expected<PositionGames, Status> position_games(
      const pgn::Position& position, bool in_variations = false) const;
  // What the main line's position index keeps of the games that reach `position`: the move
  // statistics of the generations where it is popular, and the candidate games (as games_at
  // gives them) of the others. An opening tree adds the former and reads the latter. With a
  // slice, the statistics are the slice's games of the generations that slice the position,
  // and the candidates those of the others, which the caller checks against the slice.
  // With `top_games` (and no slice), the best-rated games of the generations that count the
  // position too (PositionStatistics::top, ranked).
  [[nodiscard]] std::expected<PositionStatistics, Status> position_statistics(
      const pgn::Position& position, const StatisticsSlice& slice = {},
      bool top_games = false) const;
  // The metadata index (docs/storage.md, "Metadata") asked in typed values; each is one range
  // scan, and the ids come ascending.
  // The games whose date, as SearchFacts::date_number() (year << 16 | month << 8 | day, 0 for
  // an unknown part), is in [low, high].
  [[nodiscard]] std::expected<std::vector<std::uint32_t>, Status> games_dated(
      std::uint32_t low, std::uint32_t high) const;
  // The games whose ECO code is in [from, to] (three characters each, A00..E99).
  [[nodiscard]] std::expected<std::vector<std::uint32_t>, Status> games_with_eco(
      std::string_view from, std::string_view to) const;
  enum class NameDimension { Player, Event, Site };
  // The distinct normalised names (names.h) of a dimension, sorted. Read from the names family
  // once per store, then kept.
  [[nodiscard]] std::expected<std::shared_ptr<const PackedStrings>, Status> name_values(
      NameDimension dimension) const;
  // The distinct normalised names of a dimension whose search key (names.h) contains `key` (a
  // search key), sorted. A key of 3 bytes or more is looked up in the name fragments
  // (docs/storage.md, "Name fragments"): the cost follows how many names hold the key's
  // fragments, not how many names there are. A shorter key reads every name (name_values).
  [[nodiscard]] std::expected<std::vector<std::string>, Status> names_containing(
      NameDimension dimension, std::string_view key) const;
  // The games with the name `name` (as name_values() gives it): for players, as White
  // (`colour` 0), as Black (1) or either (-1).
  [[nodiscard]] std::expected<std::vector<std::uint32_t>, Status> games_named(
      NameDimension dimension, std::string_view name, int colour = -1) const;
  // The games with any of the names `names` (in any order), sorted, each once: one pass over
  // the lists, epoch by epoch (a search by part of a name matches thousands of names).
  [[nodiscard]] std::expected<std::vector<std::uint32_t>, Status> games_named(
      NameDimension dimension, const std::vector<std::string>& names, int colour = -1) const;
  // The summary of game `id` (game_summary.h).
  // The games whose main line held a balance that `matches` accepts while a move was played
  // from it, or ended with one; ascending. `pieces_may_match` is asked first with each set of
  // pieces (the pawns of its balance are arbitrary): false skips every balance with those
  // pieces unread, so it must be true whenever `matches` could be for some pawns.
  // `possible` says, kind by kind, the counts a matching balance may have (bit c of
  // possible[colour][type - Pawn]: c pieces); the balances with any other count are skipped
  // unread, a seek past each stretch of them (the pawns' bits are not used). With `epoch`, the
  // games of that epoch alone (ids_of_epoch).
  struct PossibleCounts {
    std::array<std::array<std::uint16_t, 5>, 2> counts;
    static PossibleCounts any() {
      PossibleCounts all;
      for (auto& side : all.counts) side.fill(0xFFFF);
      return all;
    }
  };
  [[nodiscard]] std::expected<std::vector<std::uint32_t>, Status> games_with_material(
      const std::function<bool(const pgn::MaterialBalance&)>& pieces_may_match,
      const std::function<bool(const pgn::MaterialBalance&)>& matches,
      const PossibleCounts& possible = PossibleCounts::any(),
      std::optional<std::uint32_t> epoch = std::nullopt) const;
  // The main-line material of each game of `ids` (ascending), in order; a game whose history is
  // missing or damaged is Corruption. `each` returns false to stop.
  [[nodiscard]] Status for_each_material(
      std::span<const std::uint32_t> ids,
      const std::function<bool(std::uint32_t, const pgn::MaterialHistory&)>& each) const;
  [[nodiscard]] std::expected<GameSummary, Status> summary(std::uint32_t id) const;
  // Calls `each(id, summary)` for each of `ids` (ascending), in one pass over the summaries:
  // a search reads those of thousands of games at once.
  [[nodiscard]] Status for_each_summary(
      const std::vector<std::uint32_t>& ids,
      const std::function<void(std::uint32_t, const GameSummary&)>& each) const;
  // Calls `each(id, facts)` for each of `ids` (ascending), in one pass over the facts
  // (search_facts.h): what a search checks of a million candidates.
  [[nodiscard]] Status for_each_facts(
      const std::vector<std::uint32_t>& ids,
      const std::function<void(std::uint32_t, const SearchFacts&)>& each) const;
  // How many games have each opening (pgn/openings.h; [0]: none), from every game's facts: one
  // pass over the facts family (a few MB at a million games).
  [[nodiscard]] std::expected<std::vector<std::uint64_t>, Status> opening_counts() const;
  // Appends to `passing` those of `ids` (ascending) whose facts pass `filter`, reading only the
  // fields it checks.
  [[nodiscard]] Status select_facts(const std::vector<std::uint32_t>& ids,
                                    const FactsFilter& filter,
                                    std::vector<std::uint32_t>& passing) const;

  // Every main-line occurrence of `position` (compared by pgn::repetition_key: placement, side,
  // castling rights, en passant only where a capture is legal), in game order. Transpositions
  // are found: only the position counts, not the moves that led to it.
  [[nodiscard]] std::expected<std::vector<PositionMatch>, Status> find_position(
      const pgn::Position& position) const;

 private:
  friend class WriteBatch;
  friend struct StoreAccess;  // index/src/store_access.h: the verifier reads the families
  struct Impl;
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pgndb::index
