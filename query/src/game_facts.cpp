#include "pgndb/query/game_facts.h"

#include "pgn/game.h"

namespace pgndb::query {

std::optional<std::size_t> first_ply_at(const pgn::GameRecord& game, pgn::Key key) {
  pgn::Position pos = game.start;
  for (std::size_t ply = 0;; ++ply) {
    if (pgn::repetition_key(pos) == key) return ply;
    if (ply == game.moves.size()) return std::nullopt;
    const pgn::Move m = game.moves[ply].move;
    pos.play_or_pass(m);
  }
}

}  // namespace pgndb::query
