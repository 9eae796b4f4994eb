// What the index should hold for one stored game, rebuilt from the game alone: the verifier
// (verify.cpp) compares these with the index. The positions are found by replaying the decoded
// game here, not taken from the encoder that wrote the index, so that a fault in the writer's
// path shows up as a difference rather than being repeated.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/material_balance.h"
#include "pgndb/index/game_summary.h"

namespace pgndb::index {

struct GameFacts {
  std::uint32_t id = 0;
  std::string error;  // not empty: the stored bytes are not a game (nothing below is set)
  // Encoding the decoded game again gives other bytes than those stored.
  bool canonical = true;
  // The top 40 bits of the repetition key of every main-line position (the start and the end
  // included), and of every position inside a variation: sorted, each once.
  std::vector<std::uint64_t> positions, variation_positions;
  // Its metadata keys (docs/storage.md, "Metadata"), game id included.
  std::vector<std::string> metadata;
  std::uint64_t fingerprint = 0;
  GameSummary summary;
  // The main line's material (docs/storage.md, "Material"), counted here from the replay.
  pgn::MaterialHistory material;
};

// The facts of game `id`, whose stored form is `stored`.
[[nodiscard]] GameFacts game_facts(std::uint32_t id, std::string_view stored);

}  // namespace pgndb::index
