// What the query layer reads off a stored game: where its main line stands in a position.
#pragma once

#include <cstddef>
#include <optional>

#include "pgn/game_record.h"
#include "pgn/types.h"

namespace pgndb::query {

// The first ply (0 = the start) at which the main line of `game` stands in the position with
// repetition key `key`; nothing when it never does.
[[nodiscard]] std::optional<std::size_t> first_ply_at(const pgn::GameRecord& game, pgn::Key key);

}  // namespace pgndb::query
