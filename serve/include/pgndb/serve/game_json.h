// Games as JSON: whole (tags, moves in SAN and UCI, the FEN after each ply, comments, NAGs and
// variations), and in the shape of lichess's explorer (players, winner, year and month).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "pgn/game_ending.h"
#include "pgn/game_record.h"
#include "pgn/openings.h"
#include "pgn/writer.h"
#include "pgndb/index/game_summary.h"

namespace pgndb::serve {

// Object keys keep the order they were added in, so that responses read like the PGN they come
// from (tags in the game's order).
using Json = nlohmann::ordered_json;

// `{"id", "result", "ending", "repetition", "fifty_moves", "tags": {...}, "start": FEN,
// "leading_comments": [...], "moves": [...]}` (the ending as listed_game, from the main line):
// each move `{"ply", "san", "uci", "fen", "nags", "comments_before", "comments_after",
// "variations": [[moves...]...], "comments_after_variations"}`, the empty arrays left out.
// `ply` counts from 1 within the game, variations included (a variation's first move has the
// ply of the move it replaces).
// `writing`: "san" with its letters or figurines (pgn::local_san), as pgn::write_game writes them.
[[nodiscard]] Json game_json(std::uint32_t id, const pgn::GameRecord& game,
                             const pgn::WriterOptions& writing = {});

// A game as a search lists it (pgndb find --format json, /api/find): `{"id", "result", "tags"}`;
// with `summary` (what the index keeps of the game), after "result": `"ending"` (pgn::Ending's
// name: "checkmate", ..., "none"), `"repetition"` and `"fifty_moves"` (whether a threefold
// repetition, or 50 moves without a capture or a pawn move, occurred at some ply), and
// `"opening"`: `{"eco", "name"}` as lichess gives it, by position (pgn/openings.h), or null.
[[nodiscard]] Json listed_game(std::uint32_t id, const pgn::GameRecord& game,
                               const index::GameSummary* summary = nullptr);
// The `"opening"` value of opening `id`: `{"eco", "name"}`, null for 0.
[[nodiscard]] Json opening_json(pgn::OpeningId id);

// The text of a JSON value, on one line. Bytes that are not UTF-8 become U+FFFD instead of
// failing the output (the importer stores text as UTF-8; this is the guard).
[[nodiscard]] std::string json_text(const Json& value);

// lichess's game object: `{"id", "winner": "white"|"black"|null, "white": {"name", "rating"},
// "black": {...}, "year", "month": "YYYY-MM"}`, null where the tags do not say (the date from
// the Date tag, or UTCDate where Date's year is unknown).
[[nodiscard]] Json explorer_game(std::uint32_t id, const pgn::GameRecord& game);

// lichess's game object of its lichess-games explorer: explorer_game with `"speed"` after
// `"winner"` (from the TimeControl tag, pgn::Speed's name) and `"mode"`, "rated" or "casual",
// when the Event tag says so as lichess's exports write it ("Rated Blitz game").
[[nodiscard]] Json lichess_game(std::uint32_t id, const pgn::GameRecord& game);

}  // namespace pgndb::serve
