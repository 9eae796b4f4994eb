// A replayed game turned into everything the store writes for it: the encoded game, its position
// keys, its metadata index entries and its duplicate fingerprint. Preparing is the expensive part
// of an import and needs nothing from the store, so several threads prepare games while one
// writes them in order (importer.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pgn/game_record.h"
#include "pgn/types.h"

namespace pgndb::index {

struct PreparedGame {
  std::string encoded;  // game_codec's form
  // pgn::repetition_key of every main-line position, the start and the end included.
  std::vector<pgn::Key> positions;
  // Metadata index keys without the game id (docs/storage.md, "Metadata"), each ended by the
  // store with the id.
  std::vector<std::string> metadata;
  // Names the game for duplicate detection: a hash of the main line's moves, the White and Black
  // tags, the date and the result (the same game from two sources has all five the same).
  std::uint64_t fingerprint = 0;
};

[[nodiscard]] PreparedGame prepare_game(const pgn::GameRecord& game);

}  // namespace pgndb::index
