#include "pgndb/query/tree.h"

#include <algorithm>
#include <map>

#include "pgn/game.h"
#include "pgn/san.h"
#include "pgndb/query/game_facts.h"
#include "pgndb/query/search.h"

namespace pgndb::query {

namespace {

struct Tally {
  TreeRow row;
  std::uint64_t rated = 0, elo_sum = 0;            // games with the mover's rating
  std::uint64_t both_rated = 0, opponent_sum = 0;  // games with both ratings
  std::int64_t wins_minus_losses = 0;              // over both_rated, for the mover
};

}  // namespace

std::expected<std::vector<TreeRow>, index::Status> opening_tree(const index::Store& store,
                                                                const Filters& filters) {
  if (!filters.position)
    return std::unexpected(index::Status::error(index::Status::Code::InvalidArgument,
                                                "a tree needs a position (--fen or --moves)"));
  const pgn::Position& root = *filters.position;
  const pgn::Key key = pgn::repetition_key(root);
  const bool white_moves = root.side_to_move() == pgn::White;
  auto search = Search::start(store, filters);
  if (!search) return std::unexpected(search.error());
  std::map<std::uint16_t, Tally> by_move;  // by Move::raw()
  for (;;) {
    auto id = search->next();
    if (!id) return std::unexpected(id.error());
    if (!*id) break;
    auto game = store.game(**id);
    if (!game) return std::unexpected(game.error());
    // The move played at the first ply at which the game stands in the position.
    const auto ply = first_ply_at(*game, key);
    std::optional<pgn::Move> next;
    if (ply) next = *ply < game->moves.size() ? game->moves[*ply].move : pgn::Move::none();
    if (!next) continue;  // the index's 40 bits matched another position
    Tally& t = by_move[next->raw()];
    t.row.move = *next;
    ++t.row.games;
    int score = 0;  // for the side to move: 1 win, 0 draw, -1 loss
    if (game->result == "1-0") {
      ++t.row.white_wins;
      score = white_moves ? 1 : -1;
    } else if (game->result == "0-1") {
      ++t.row.black_wins;
      score = white_moves ? -1 : 1;
    } else if (game->result == "1/2-1/2") {
      ++t.row.draws;
    }
    const auto mover = number_tag(*game, white_moves ? "WhiteElo" : "BlackElo");
    const auto opponent = number_tag(*game, white_moves ? "BlackElo" : "WhiteElo");
    if (mover) {
      ++t.rated;
      t.elo_sum += *mover;
    }
    if (mover && opponent && game->result != "*") {
      ++t.both_rated;
      t.opponent_sum += *opponent;
      t.wins_minus_losses += score;
    }
    if (auto year = number_tag(*game, "Date", 4))
      t.row.last_year = std::max(t.row.last_year, *year);
  }
  std::vector<TreeRow> rows;
  for (auto& [raw, t] : by_move) {
    TreeRow row = t.row;
    row.san = row.move == pgn::Move::none() ? "(end)" : pgn::to_san(root, row.move);
    if (t.rated) row.average_elo = unsigned(t.elo_sum / t.rated);
    if (t.both_rated)
      row.performance = unsigned(
          std::max<std::int64_t>(0, std::int64_t(t.opponent_sum / t.both_rated) +
                                        400 * t.wins_minus_losses / std::int64_t(t.both_rated)));
    rows.push_back(std::move(row));
  }
  std::sort(rows.begin(), rows.end(), [](const TreeRow& a, const TreeRow& b) {
    return a.games != b.games ? a.games > b.games : a.san < b.san;
  });
  return rows;
}

}  // namespace pgndb::query
