// Statistics of popular positions, kept per generation of the main line's position index
// (docs/storage.md, "Position statistics"). This header owns their key and value layouts and
// the thresholds, and finds the move each game played from a position (from the opening its
// import recorded, or from its summary's opening codes; a game that reaches the position only
// past them is listed as unread, for a lookup to read).
//
// Why per generation: a generation's statistics are written with its runs (by the batch that
// writes it, or by the merge that makes it) and dropped with them, so they are exactly as
// durable as the runs, need no merge operator, and a merge adds its inputs' statistics rather
// than reading their games again. A position has statistics in a generation when at least
// statistics_threshold of the generation's games stand in it; a lookup reads the games of the
// other generations (fewer than the threshold each, or written before statistics existed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <expected>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "pgn/types.h"
#include "pgndb/index/game_summary.h"
#include "pgndb/index/position_statistics.h"
#include "pgndb/index/status.h"

namespace pgndb::index::positions {

// Games a generation must have in a position (by the index's 40 bits) for its statistics to be
// kept. Below it, a lookup reads at most this many summaries per generation (under 50 x 45
// generations at 10^8 games); above it, each position costs about 12 bytes and 20 per move,
// far less than its entries (a popular position has hundreds).
inline constexpr std::size_t statistics_threshold = 50;

// A generation written by an import's batch keeps the statistics of every position with this
// many of its games or more, sliced by rating band and year, instead of statistics_threshold
// and cells_threshold: such a generation is soon merged (at the end of its import, or by the
// size tiers), and a merge adds its inputs' statistics where they have them but walks the
// opening of every game of an input that has none. With the merged generation's thresholds,
// the end of a 1 M-game import walked almost every game again (a position of 50 to 3,000
// games in 1 M has fewer than 50, or fewer than 3,000, in each batch of 50,000), which was
// two fifths of its time. The merged generation keeps its own thresholds.
inline constexpr std::size_t batch_statistics_threshold = 10;

// A statistics key, in the position family of the key's bucket: the generation (4 bytes,
// big-endian), the byte 0xFF, then the 40 bits of the position key (5 bytes, big-endian). It
// sorts after every run of its generation (a bucket key's first byte is below 4), inside the
// generation's key range: merges and deletions of a generation take its statistics along.
inline constexpr std::size_t statistics_key_size = 10;
std::string statistics_key(std::uint32_t generation, std::uint64_t key40);
struct StatisticsKey {
  std::uint32_t generation;
  std::uint64_t key40;
};
// True for a key of a position family that has the statistics key's shape (10 bytes, 0xFF after
// the generation); parse_statistics_key then reads it.
bool is_statistics_key(std::string_view key);
std::optional<StatisticsKey> parse_statistics_key(std::string_view key);

// A position with at least cells_threshold(entries) games in a generation of `entries` position
// entries keeps its statistics by rating band and year too (Cell): a tree or a count filtered by
// rating and date then adds slices. Below it, such a lookup reads the generation's games at the
// position. 3,000 up to 25 M entries (about 300,000 games: the corpus is one such generation,
// whose 102 positions above it keep 122,000 cells, 1% of the database), then falling with the
// generation's size to 1,000 from 75 M entries (about 900,000 games): in the 1 M-game
// generations of a 5 M-game archive, a position of 0.2% of the games was read game by game from
// each (134 ms), and the slices' share of a large generation stays small.
inline constexpr std::uint64_t small_generation_cells_threshold = 3000;
constexpr std::uint64_t cells_threshold(std::uint64_t entries) {
  const std::uint64_t scaled = entries ? small_generation_cells_threshold * 25'000'000 / entries
                                       : small_generation_cells_threshold;
  return std::clamp<std::uint64_t>(scaled, 1000, small_generation_cells_threshold);
}

// The band of a game by its lower rating: 0 when a rating is missing, else 1 + the lower rating
// in hundreds, 31 for 3000 and above. A rating floor that is a multiple of 100 up to 3000 is a
// set of whole bands (StatisticsSlice).
inline constexpr unsigned top_band = 31;
unsigned rating_band(unsigned white_elo, unsigned black_elo);
unsigned band_floor(unsigned band);  // the least lower rating of a band (0 for band 0 and 1)

// The games of one move from a position in one rating band and year (0: unknown).
struct Cell {
  std::uint8_t band = 0;
  std::uint16_t year = 0;
  MoveTally tally;  // its move is the cell's
  // Move, band, year, as one number: cells are sorted by it often (each time a position's
  // vector of them fills), and one comparison of integers beats a tuple's three.
  std::uint64_t order() const {
    return std::uint64_t(tally.move.raw()) << 24 | std::uint64_t(band) << 16 | year;
  }
  bool operator==(const Cell&) const = default;
};

// The statistics of one position (its full key), and of all the positions that share 40 bits.
struct KeyStatistics {
  pgn::Key key = 0;
  bool white_moves = true;
  std::vector<MoveTally> moves;  // ascending by Move::raw()
  // The same games by move, band and year, when `sliced`: every game of `moves` is in a cell.
  // Counting games always slices them; statistics summed with others that were not sliced are
  // not. Normalized (ascending by Cell::order(), each once) as decoded and as written; while
  // games are counted or statistics added, a move, band and year may stand in several cells
  // in any order.
  bool sliced = true;
  std::vector<Cell> cells;
  // The best-rated games of `moves` that played a move (top_games_kept at most, best first),
  // when `ranked`: counting games always ranks them; statistics of schema 17 or before, or
  // summed with such, are not ranked.
  bool ranked = true;
  std::vector<TopGame> top;
  std::uint64_t games() const;
  // Sorts the cells and adds up those of one move, band and year.
  void normalize();
  bool operator==(const KeyStatistics&) const = default;
};
struct Statistics {
  std::vector<KeyStatistics> keys;  // ascending by key
  // Ascending: the games that stand in the position only past their summary's opening codes.
  // They are not counted (that would mean decoding each whole game at every merge): a lookup
  // reads them as it reads the games of generations without statistics.
  std::vector<std::uint32_t> unread;
  bool operator==(const Statistics&) const = default;
  std::uint64_t games() const;  // counted
  // Worth keeping: a position mostly reached past the opening codes gains nothing.
  bool worth_keeping() const { return unread.size() <= games(); }
  // True when every position is sliced (a merge adds these slices to others' rather than
  // counting the games again).
  bool all_sliced() const;
  // True when every position keeps its best-rated games (likewise).
  bool all_ranked() const;
};

// The value: a varint count of positions, then per position the low 24 bits of its key (3
// bytes, big-endian; the key's other 40 are the statistics key's), a byte 1 when White is to
// move (else 0), a varint count of moves, and per move varints: Move::raw(), games, white wins,
// draws, black wins, rated, elo sum, both rated, opponent sum, wins minus losses (zigzag), last
// year; then a varint count of unread games and their ids as varint gaps (the first from 0).
// Then, since schema 14, for each position in order: a varint count of cells (0: not sliced)
// and the cells in Cell::order(): the move's index among the position's moves (varint), the
// band (a byte), the year (varint; the gap from the cell before when it has the same move and
// band), then varints: games, White wins, draws, Black wins, and in band 0 rated, rating sum,
// both rated, opponents' sum, wins minus losses (zigzag); in the other bands (both rated, so
// rated = games, both rated = the decided games and wins minus losses follow from the
// results) the rating sum and the opponents' sum less the band's floor per game. The cells
// are kept only for positions with `threshold` games or more (cells_threshold of the
// generation; normalized first). Then, since schema 18, for each position in order: a varint,
// 0 when it is not ranked, else 1 + the number of its best-rated games, and per game, best
// first: the game's id, its rating (TopGame::rating) and the index of its move among the
// position's moves, as varints. A value of schema 13 ends after the unread games: none of its
// positions is sliced; one of schema 14 to 17 after the cells: none is ranked.
void encode_statistics(const Statistics& statistics, std::string& out,
                       std::uint64_t threshold = small_generation_cells_threshold);
// What encode_statistics keeps of `statistics` (what decoding it gives): the cells normalized,
// and dropped (not sliced) for the positions it does not slice.
void as_written(Statistics& statistics, std::uint64_t threshold = small_generation_cells_threshold);
// False when the bytes are not such a value for `key40` (truncated, left over, out of order).
// With Cells::Skip, the cells, which are most of a popular position's bytes, are not kept:
// every position comes back not sliced, its moves and the unread games whole (what a count or
// a tree without a rating or year filter reads). With Tops::Skip as well, decoding stops before
// the cells, and bytes past them are not checked; with Tops::Read, it steps over the cells to
// the best-rated games (the explorer's top games). Cells::Read reads everything.
enum class Cells { Read, Skip };
enum class Tops { Read, Skip };
[[nodiscard]] bool decode_statistics(std::string_view bytes, std::uint64_t key40, Statistics& out,
                                     Cells cells = Cells::Read, Tops tops = Tops::Skip);
// Adds `from` into `into` (both sorted; the result too). The sum is sliced where both are.
void add_statistics(Statistics& into, const Statistics& from);
// Counts game `id`, which played `move` in the position `key`; without `slice`, the position is
// not sliced (it has too few games for its slices to be kept: counting them would only cost
// memory).
void add_game(Statistics& into, pgn::Key key, bool white_moves, pgn::Move move, std::uint32_t id,
              const GameSummary& game, bool slice = true);

// Computes statistics from games' summaries: requests name a game and a position (40 bits) it
// stands in; resolve() finds where each game first stands in it and the move it played there,
// and counts it, or lists it as unread when its opening codes do not reach the position. A game
// asked for several positions is walked once.
class StatisticsCollector {
 public:
  using SummaryOf = std::function<std::expected<GameSummary, Status>(std::uint32_t)>;

  // `slice`: the position may keep slices (it has its generation's cells_threshold games or
  // more where it is counted); otherwise add_game is told not to slice it.
  void request(std::uint32_t game, std::uint64_t key40, bool slice = true) {
    requests_.push_back({game, slice, key40});
  }
  std::size_t requests() const { return requests_.size(); }
  // Resolves every request and forgets them; `summary_of` is called in ascending game order. A
  // game whose codes cover it whole and never stand in its position (another shares the 40
  // bits) counts nowhere.
  [[nodiscard]] Status resolve(const SummaryOf& summary_of,
                               std::map<std::uint64_t, Statistics>& into);

  // A game's opening as its import recorded it: `keys[p]` is pgn::repetition_key of the
  // position before ply p, for p from 0 to the summary's opening_length, and `moves[p]` the
  // move played there, for p below it (what follows is not read). A game that does not start
  // from the standard position is not walked, as by the codes.
  struct Opening {
    std::span<const pgn::Key> keys;
    std::span<const pgn::Move> moves;
  };
  using OpeningOf = std::function<Opening(std::uint32_t)>;
  // As resolve(summary_of, into), the same counts, from the recorded openings instead of the
  // codes replayed: a batch has them at hand, and replaying took a tenth of its commit.
  [[nodiscard]] Status resolve(const SummaryOf& summary_of, const OpeningOf& opening_of,
                               std::map<std::uint64_t, Statistics>& into);

 private:
  // Resolves the requests, each game (from the standard position) walked by
  // `walk(id, summary, visit)`, which calls `visit(ply, key, white_moves, played)` for the
  // plies from 0 to the summary's opening_length (`played`: the move played there, nothing at
  // the codes' end or where a code names no move) while it returns true, and returns whether
  // it could walk that far.
  template <class Walk>
  Status resolve_walking(const SummaryOf& summary_of, Walk&& walk,
                         std::map<std::uint64_t, Statistics>& into);

  struct Request {
    std::uint32_t game;
    bool slice;
    std::uint64_t key40;
    auto operator<=>(const Request&) const = default;
  };
  // The move a code names in a position: the games of a popular position share their first
  // moves, and a direct-mapped cache (a slot per hash, the last one kept) spares most of the
  // decoding.
  std::optional<pgn::Move> move_of(const pgn::Position& pos, std::uint8_t code);
  struct CachedMove {
    std::uint64_t tag = 0;
    pgn::Move move;
  };

  std::vector<Request> requests_;
  std::vector<CachedMove> moves_;
};

}  // namespace pgndb::index::positions
