// What searches answer, as JSON: the same objects from pgndb serve's API and from the commands'
// --json output (docs/serve.md, docs/query.md).
#pragma once

#include "pgn/position.h"
#include "pgndb/index/store.h"
#include "pgndb/query/tree.h"
#include "pgndb/serve/game_json.h"

namespace pgndb::serve {

// A row of the opening tree from `root`: `{"san", "uci", "games", "white_wins", "draws",
// "black_wins", "average_elo", "performance", "last_year"}`; the games that end in the position
// have `san` and `uci` null.
[[nodiscard]] Json tree_row_json(const query::TreeRow& row, const pgn::Position& root);

// What a database holds (pgndb stats --json, /api/stats): the counts, the dates, the bytes per
// part, their total and per game.
[[nodiscard]] Json stats_json(const index::StoreStats& stats);

}  // namespace pgndb::serve
