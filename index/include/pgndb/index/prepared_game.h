// A replayed game turned into everything the store writes for it: the encoded game, its position
// keys, its metadata index entries and its duplicate fingerprint. Preparing is the expensive part
// of an import and needs nothing from the store, so several threads prepare games while one
// writes them in order (importer.h).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/game_ending.h"
#include "pgn/game_record.h"
#include "pgn/material_balance.h"
#include "pgn/types.h"
#include "pgndb/index/game_codec.h"
#include "pgndb/index/game_summary.h"
#include "pgndb/index/search_facts.h"

namespace pgndb::index {

struct PreparedGame {
  std::string encoded;  // game_codec's form
  // pgn::repetition_key of every main-line position, the start and the end included.
  std::vector<pgn::Key> positions;
  // The moves the summary's opening codes name, in its first GameSummary::opening_length
  // places: with the first `positions`, what a batch counts the statistics of its popular
  // positions from, instead of replaying the codes (position_stats.h).
  std::array<pgn::Move, GameSummary::opening_plies> opening_moves{};
  // pgn::repetition_key of every position inside a variation (most games have none), sorted
  // and unique.
  std::vector<pgn::Key> variation_positions;
  // Metadata index keys without the game id (docs/storage.md, "Metadata"), each ended by the
  // store with the id: packed in one string, each key preceded by its length as a varint (a
  // game has about ten keys; one allocation instead of ten, freed by another thread).
  // for_each_metadata_key() reads them.
  std::string metadata;
  // Names the game for duplicate detection: a hash of the main line's moves, the White and Black
  // tags, the date and the result (the same game from two sources has all five the same).
  std::uint64_t fingerprint = 0;
  // The game's summary in its stored form (game_summary.h).
  std::string summary;
  // Its result, date, ratings and plies, as the facts family keeps them (search_facts.h).
  SearchFacts facts;
  // Its main line's material history in its stored form (material_record.h).
  std::string material;
  // The balances of that history a search can match (material_values_of), packed as numbers
  // (material_record.h, packed), ascending: the game's metadata values of dimension 'm', kept
  // out of `metadata` because the batch sorts them as numbers.
  std::vector<std::uint64_t> material_values;
};

// With `played` (what the replay computed of each move: game_codec.h), the moves are not played
// again to encode the game and find its positions; with `ending` and `material` (what the replay
// found of how its main line ended and of its material: pgn::ReplayVisitor::ending, material),
// not again to find those.
[[nodiscard]] PreparedGame prepare_game(const pgn::GameRecord& game,
                                        const PlayedMoves* played = nullptr,
                                        const pgn::GameEnding* ending = nullptr,
                                        const pgn::MaterialHistory* material = nullptr);
// The main line's material history of `game`, playing it.
[[nodiscard]] pgn::MaterialHistory material_of(const pgn::GameRecord& game);
// The balances of a material history that a search can match, packed (material_record.h),
// ascending and once each, into `values`: each balance held while a move was played, and the
// final one.
void material_values_of(const pgn::MaterialHistory& history, std::vector<std::uint64_t>& values);

// Calls `each(std::string_view key)` for every key packed in PreparedGame::metadata, in order.
template <class Each>
void for_each_metadata_key(std::string_view packed, Each&& each) {
  while (!packed.empty()) {
    std::size_t length = 0;
    for (int shift = 0; !packed.empty(); shift += 7) {
      const auto byte = std::uint8_t(packed.front());
      packed.remove_prefix(1);
      length |= std::size_t(byte & 0x7F) << shift;
      if (!(byte & 0x80)) break;
    }
    each(packed.substr(0, length));
    packed.remove_prefix(std::min(length, packed.size()));
  }
}

}  // namespace pgndb::index
