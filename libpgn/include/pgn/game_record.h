// A game as read and replayed: tags, start position, and the move tree with its annotations.
// This is what the writer writes and what the indexer stores.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "pgn/position.h"
#include "pgn/types.h"

namespace pgn {

// The deepest nesting of variations kept: the reader skips deeper ones (with an error), and the
// stored-game decoder refuses them. Code that walks the move tree recurses once per level (the
// writer, the codec, the tree's own destruction), so this bound is what keeps its stack small
// on hostile input. Real games rarely nest past 20 levels.
inline constexpr int max_variation_depth = 256;

struct MoveNode;
using Line = std::vector<MoveNode>;

struct MoveNode {
  Move move = Move::none();  // legal in the position before it, or Move::null()
  std::vector<std::uint8_t> nags;
  // Comments written before the move (at the start of a variation, or after a variation that
  // ended the previous move's alternatives) and after it.
  std::vector<std::string> comments_before;
  std::vector<std::string> comments_after;
  // Alternatives to this move, each starting from the position before it.
  std::vector<Line> variations;
  // Comments written after the variations (before the next move, or ending the line).
  std::vector<std::string> comments_after_variations;
};

struct GameRecord {
  // Tags in the order read (names unique: a repeated tag keeps its first value).
  std::vector<std::pair<std::string, std::string>> tags;
  Position start;
  // Comments before the first move of the game.
  std::vector<std::string> leading_comments;
  Line moves;
  // The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
  std::string result = "*";

  const std::string* tag(std::string_view name) const {
    for (const auto& [n, v] : tags)
      if (n == name) return &v;
    return nullptr;
  }
  void clear() {
    tags.clear();
    start = Position();
    leading_comments.clear();
    moves.clear();
    result = "*";
  }
};

}  // namespace pgn
