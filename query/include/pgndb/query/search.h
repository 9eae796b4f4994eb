// A search over a database: the games that pass every filter, one at a time. The planner asks
// the indexes that can answer a filter (position, names, ECO, date), starting from the most
// selective, intersects their answers, and checks the rest (result, plies, ratings,
// annotations, a winner's or a loser's colour, a date beside a more selective index) on the
// candidates' facts (search_facts.h), read a chunk at a time.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/fen_pattern.h"
#include "pgn/material_balance.h"
#include "pgndb/index/search_facts.h"
#include "pgndb/index/status.h"
#include "pgndb/index/store.h"
#include "pgndb/query/filters.h"

namespace pgndb::query {

// How a search found its games (`pgndb find --explain`): the indexes that answered, each with
// the games it gave, in the order they were intersected; the candidates left; what was checked on
// each candidate's facts; and, as the search goes on, how many candidates were examined and how
// many passed.
struct Plan {
  struct Step {
    std::string index;  // e.g. "position index (3 generations)", "names: player"
    std::uint64_t games = 0;
  };
  std::vector<Step> steps;
  bool every_game = false;  // no index answered: every game is a candidate
  // A position alone (with filters checked on the facts, in id order) is read as the search
  // needs its games: the first 20 of a million decode a few entries of each generation. Its
  // step's games and the candidates are then those read so far.
  bool read_as_needed = false;
  std::uint64_t candidates = 0;
  // Material and pattern searches read their lists an epoch of ids at a time (Store::epochs),
  // as they need games (read_as_needed too): how many of the database's epochs were read.
  std::uint32_t epochs_read = 0;
  // A pattern search's candidates whose material histories say the pattern may match (the
  // pieces it names held, its pawns' squares and rooks' ranks reached): their main lines were
  // replayed.
  std::uint64_t replayed = 0;
  std::vector<std::string> checked;  // filters checked on the facts
  std::string order;                 // empty for id order
  std::uint64_t examined = 0, passed = 0;
};

// The order in which a search gives its games. Games without the value sorted by (no known
// year, no rating) come last in either direction; ties are in id order.
enum class Order { Id, Date, DateDescending, Elo, EloDescending };
// An order as users name it (`pgndb find --sort`, the API's `sort`): id, date, -date, elo, -elo.
[[nodiscard]] std::optional<Order> parse_order(std::string_view name);
inline constexpr std::string_view order_names = "id, date, -date, elo or -elo";

class Search {
 public:
  // Plans the search; the store must outlive it. An order other than Id reads the facts of
  // all the candidates before the first game is given.
  [[nodiscard]] static std::expected<Search, index::Status> start(const index::Store& store,
                                                                  const Filters& filters,
                                                                  Order order = Order::Id);

  // The id of the next game that passes, or nothing at the end.
  [[nodiscard]] std::expected<std::optional<std::uint32_t>, index::Status> next();
  // The number of games that pass, from here on (consumes the search).
  [[nodiscard]] std::expected<std::uint64_t, index::Status> count();
  // How the search runs; its counts of examined and passed candidates grow as it goes.
  const Plan& plan() const { return plan_; }
  // For the game next() gave last, under --material, --final-material or --pattern: the first
  // ply where the match holds (where the pattern's board stands, else where the material's
  // stretch begins, else where the final balance began).
  [[nodiscard]] std::optional<unsigned> match_ply() const { return last_ply_; }

 private:
  using Ids = std::vector<std::uint32_t>;
  Search(const index::Store& store, const Filters& filters) : store_(&store), filters_(filters) {}
  // Whether a candidate passes the filters its facts answer.
  bool passes(std::uint32_t id, const index::SearchFacts& facts) const;
  // The next candidates (at most `n`), in order, into `ids`.
  [[nodiscard]] index::Status take_candidates(std::size_t n, Ids& ids);
  [[nodiscard]] index::Status sort(Order order);
  // Keeps the games of `ids` whose material and boards pass (--material, --pattern), each with
  // its match's ply in `plies`.
  [[nodiscard]] index::Status confirm(Ids& ids, std::vector<unsigned>& plies);
  // Reads the next epoch's lists (by_epoch_) into candidates_.
  [[nodiscard]] index::Status read_epoch();

  // What a pattern (or its inversion) needs that never comes back once gone, taken from it once:
  // the pieces it names, by colour and kind (pawns first), and its pawns on their home squares;
  // and the squares it needs a pawn on, of a colour and of either. The lists, the histories and
  // the replay of a pattern search all prune by it.
  struct PatternNeeds {
    std::shared_ptr<const pgn::FenPattern> pattern;
    std::array<std::array<unsigned, 5>, 2> pieces;
    pgn::Bitboard home_pawns[2];
    pgn::Bitboard pawns[2], any_pawns;
    // The ranks it needs each side's rooks on (FenPattern::required_ranks).
    std::uint8_t rook_ranks[2];
    static PatternNeeds of(std::shared_ptr<const pgn::FenPattern> pattern);
    // Whether `balance` holds the pieces it names (and the pawns, with `pawns`).
    [[nodiscard]] bool held_by(const pgn::MaterialBalance& balance, bool pawns) const;
    // Whether a game's pawns stood on every square it needs a pawn on, and its rooks on every
    // rank it needs one on (not at once: a game without is never matched, one with may be).
    [[nodiscard]] bool squares_reached(const pgn::MaterialHistory& history) const;
  };
  // A list read for one epoch of ids (Store::ids_of_epoch).
  using EpochLists = std::function<std::expected<Ids, index::Status>(std::uint32_t epoch)>;

  const index::Store* store_;
  Filters filters_;
  // Candidates from the indexes, ascending (or in the order asked); without any, every game
  // 1..game_count().
  std::optional<Ids> candidates_;
  // Or a position's games, read as needed (Plan::read_as_needed).
  std::optional<index::Store::PositionGames> position_games_;
  std::size_t at_ = 0;        // next candidate (index into candidates_, or id - 1)
  bool check_facts_ = false;  // a filter needs each candidate's facts
  // The games a name matched as White and as Black, for --winner and --loser (ascending).
  Ids winner_white_, winner_black_, loser_white_, loser_black_;
  // What is checked on the facts (Search::start says when); a winner or a loser besides.
  index::FactsFilter facts_filter_;
  // --material and --pattern are confirmed on each candidate (its material history, its boards);
  // the pattern's inversion for --pattern-either.
  bool confirm_ = false;
  // The pattern's needs, and its inversion's for --pattern-either: two at most (confirm keeps a
  // last ply of hope for each in an array of two).
  std::vector<PatternNeeds> needs_;
  // The material postings, read an epoch at a time as the search needs games: each epoch's
  // candidates are the games of its lists (all of them) among fixed_, the other indexes' games
  // (every game when there is none). Their plan steps follow one another in this order, from
  // plan_.steps[by_epoch_steps_].
  std::vector<EpochLists> by_epoch_;
  std::vector<std::string> by_epoch_names_;
  std::size_t by_epoch_steps_ = 0;
  std::optional<Ids> fixed_;
  std::uint32_t next_epoch_ = 0, epochs_ = 0;
  // Candidates that passed, not given yet, and their matches' plies when confirmed.
  Ids ready_;
  std::vector<unsigned> ready_plies_;
  std::optional<unsigned> last_ply_;
  std::size_t ready_at_ = 0;
  std::size_t chunk_ = 256;  // candidates checked at once, growing while the search goes on
  Plan plan_;
};

// The number of games that pass `filters`, and how it was found (`plan`). A position without
// other filters is counted from what the index keeps (Store::position_statistics): the
// statistics' games, and the other generations' candidates, without reading the ids of a
// popular position. Otherwise a Search counts.
[[nodiscard]] std::expected<std::uint64_t, index::Status> count_games(const index::Store& store,
                                                                      const Filters& filters,
                                                                      Plan& plan);

}  // namespace pgndb::query
