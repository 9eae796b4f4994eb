#include "pgn/openings.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "pgn/game.h"
#include "pgn/san.h"

namespace pgn {

namespace opening_data {
// libpgn/data/openings/a.tsv .. e.tsv, built in (libpgn/CMakeLists.txt).
extern const std::array<std::string_view, 5> tables;
}  // namespace opening_data

namespace {

struct Table {
  std::vector<Opening> openings;                 // by number, [0] none
  std::vector<std::pair<Key, OpeningId>> named;  // sorted by key, each key once
};

// The position after `moves` ("1. e4 c5 2. Nf3"), or false when a move does not replay.
bool replay(std::string_view moves, Position& pos) {
  while (!moves.empty()) {
    const std::size_t space = moves.find(' ');
    const std::string_view token = moves.substr(0, space);
    moves = space == std::string_view::npos ? std::string_view() : moves.substr(space + 1);
    if (token.empty() || token.back() == '.') continue;  // a move number
    const auto move = parse_san(pos, token);
    if (!move) return false;
    pos.play(*move);
  }
  return true;
}

Table build() {
  Table t;
  t.openings.push_back({});
  for (std::string_view text : opening_data::tables) {
    bool header = true;
    while (!text.empty()) {
      const std::size_t end = text.find('\n');
      std::string_view line = text.substr(0, end);
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (std::exchange(header, false) || line.empty()) continue;  // "eco name pgn"
      const std::size_t tab1 = line.find('\t'), tab2 = line.find('\t', tab1 + 1);
      if (tab1 == std::string_view::npos || tab2 == std::string_view::npos) continue;
      const Opening o{line.substr(0, tab1), line.substr(tab1 + 1, tab2 - tab1 - 1),
                      line.substr(tab2 + 1)};
      const auto id = OpeningId(t.openings.size());
      t.openings.push_back(o);
      Position pos;
      if (replay(o.moves, pos)) t.named.emplace_back(repetition_key(pos), id);
    }
  }
  // By key, the first line of a key kept.
  std::stable_sort(t.named.begin(), t.named.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  t.named.erase(std::unique(t.named.begin(), t.named.end(),
                            [](const auto& a, const auto& b) { return a.first == b.first; }),
                t.named.end());
  return t;
}

const Table& table() {
  static const Table t = build();
  return t;
}

}  // namespace

std::span<const Opening> openings() { return table().openings; }

OpeningId opening_at(Key key) {
  const auto& named = table().named;
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

}  // namespace pgn
