#include "pgn/openings.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "pgn/game.h"

namespace pgn {

namespace opening_data {
// Written at build time by tools/make_opening_table.cpp from libpgn/data/openings/: every line
// by number ([0] none), and each line's final position by key, sorted, each key once.
extern const std::span<const Opening> openings;
extern const std::span<const std::pair<std::uint64_t, std::uint16_t>> positions;
}  // namespace opening_data

std::span<const Opening> openings() { return opening_data::openings; }

OpeningId opening_at(Key key) {
  const auto& named = opening_data::positions;
  const auto at = std::lower_bound(named.begin(), named.end(), key,
                                   [](const auto& entry, Key k) { return entry.first < k; });
  return at != named.end() && at->first == key ? at->second : 0;
}

OpeningId classify_opening(std::span<const Key> keys, bool standard) {
  if (!standard) return 0;
  // The start position has no name: plies 1 to opening_plies, the deepest named one.
  const std::size_t last = std::min(keys.size(), opening_plies + 1);
  for (std::size_t ply = last; ply-- > 1;)
    if (const OpeningId id = opening_at(keys[ply])) return id;
  return 0;
}

OpeningId opening_of(const GameRecord& game) {
  if (!(game.start == Position())) return 0;
  Position pos = game.start;
  std::vector<Key> keys = {repetition_key(pos)};
  for (std::size_t ply = 0; ply < game.moves.size() && ply < opening_plies; ++ply) {
    pos.play_or_pass(game.moves[ply].move);
    keys.push_back(repetition_key(pos));
  }
  return classify_opening(keys);
}

}  // namespace pgn
