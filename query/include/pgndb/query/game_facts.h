// What the query layer reads off a stored game: where its main line stands in a position, and
// numbers from its tags.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "pgn/game_record.h"
#include "pgn/types.h"

namespace pgndb::query {

// The first ply (0 = the start) at which the main line of `game` stands in the position with
// repetition key `key`; nothing when it never does.
[[nodiscard]] std::optional<std::size_t> first_ply_at(const pgn::GameRecord& game, pgn::Key key);

// The tag `name` (its first `length` characters) as a positive number: a rating, or the year
// of a date; nothing when absent, 0, or not a number.
[[nodiscard]] std::optional<unsigned> number_tag(const pgn::GameRecord& game, std::string_view name,
                                                 std::size_t length = std::string::npos);

}  // namespace pgndb::query
