// Perft: the number of leaf nodes of the legal move tree to a fixed depth, the standard test of
// a move generator.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "pgn/position.h"

namespace pgn {

[[nodiscard]] std::uint64_t perft(const Position& pos, int depth);
// Perft below each legal move, in generation order (depth >= 1).
[[nodiscard]] std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& pos,
                                                                       int depth);

}  // namespace pgn
