// The stored form of a game: a GameRecord (tags, start, moves, variations, comments, NAGs,
// result) in a compact byte string, and back. This is a file format: docs/storage.md describes
// it, and a test pins it.
//
// Layout (varint = LEB128, unsigned; string = varint length, then bytes):
//   byte     format version (3; version 2, still read, kept every comment as a string)
//   byte     result: 0 `*`, 1 `1-0`, 2 `0-1`, 3 `1/2-1/2`
//   varint   tag count, then per tag: a byte naming a common tag (1..N, see game_codec.cpp)
//            or 0 followed by the name as a string; then the value as a string
//   string   start position as FEN, empty for the standard start
//   comments leading comments: a varint count, then each comment as its text or, for a clock or
//            an eval and a clock written as lichess writes them, as numbers
//            (index/src/comment_codec.h; in version 2, strings)
//   line     the main line
// A line is a varint node count, then the nodes. A node's first byte:
//   0..250   the move, as its index among the pseudo-legal moves sorted by (from, to,
//            promotion), castling as the king taking its rook (index/src/move_index.h);
//            sorting makes the code independent of the move generator's order
//   251      a move of index 251 or more: the next byte holds index - 251
//   252      the null move
//   253      a node with annotations: a move in one of the forms above follows, then a flags
//            byte (bit 0 NAGs, bit 1 comments before, bit 2 comments after, bit 3 variations,
//            bit 4 comments after the variations), then each part present, in that order:
//            NAGs as a varint count and one byte each, comments as the leading ones,
//            variations as a varint count and lines
// Most nodes have no annotations, so most moves cost one byte (before compression).
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/game_record.h"
#include "pgndb/index/status.h"

namespace pgndb::index {

// Appends the stored form of `game` to `out`. Every move in `game` must be legal (as the
// replay visitor makes them). With `main_line_keys`, the pgn::repetition_key of every
// main-line position (the start and the end included) is appended to it: the encoder plays
// those moves anyway, and the position index needs the keys. With `opening_codes`, the first
// `opening_plies` main-line moves' codes (0..250) are appended to it, as GameSummary keeps
// them: up to the first move written in a longer form (a null move, an index above 250). With
// `variation_keys`, the repetition key of every position inside a variation, at any depth
// (each variation's start, a main-line position, included).
//
// With `played`, the moves are not played again: their codes and the keys come from it. When
// it does not hold one entry per move of `game`, it is not used.
struct PlayedMoves;
void encode_game(const pgn::GameRecord& game, std::string& out,
                 std::vector<pgn::Key>* main_line_keys = nullptr,
                 std::string* opening_codes = nullptr, std::size_t opening_plies = 0,
                 std::vector<pgn::Key>* variation_keys = nullptr,
                 const PlayedMoves* played = nullptr);

// What a replay computed of each move of a game (pgn::ReplayVisitor::played), kept so that
// encode_game need not play the moves a second time (a twentieth of an import's CPU): the
// move's code (its index among the pseudo-legal moves of the position before it) and the
// repetition key of the position after it, per move in the order encode_game visits them,
// which is the order of the text: each main-line move, then the moves of its variations, depth
// first.
struct PlayedMoves {
  static constexpr std::uint16_t null_code = 0xFFFF;
  std::vector<std::uint16_t> codes;
  std::vector<pgn::Key> keys_after;
  void add(const pgn::Position& before, pgn::Move move, const pgn::Position& after);
  void clear() {
    codes.clear();
    keys_after.clear();
  }
};

// Reads a stored game; Corruption when the bytes are not a game this version wrote.
[[nodiscard]] std::expected<pgn::GameRecord, Status> decode_game(std::string_view bytes);

// Whether `bytes` are of the format encode_game writes now (3), rather than of an older one that
// decode_game still reads (2): re-encoding an older game gives other bytes for the same game.
[[nodiscard]] bool is_current_format(std::string_view bytes);

// Where the main line of a stored game first stands in a position: the ply (0 = the start) and
// the move played there (Move::none() when the game ends there).
struct PlyMove {
  std::size_t ply = 0;
  pgn::Move move;
};
// The first ply at which the main line of the stored game stands in the position with
// pgn::repetition_key `key`, or nothing when it never does. Decodes the main line only as far
// as that ply, and steps over variations without playing them: a tree of a position past the
// summaries' opening moves reads each game this way (a fifth of a whole decode for a position
// at ply 16 of an 80-ply game).
[[nodiscard]] std::expected<std::optional<PlyMove>, Status> decode_main_line_until(
    std::string_view bytes, pgn::Key key);
// The same, stopping at the first main-line position `visit` says is Found, or giving up (nothing)
// at one it says no later position can be. `visit` gets `game` (which game this is, for a caller
// visiting many), each position, and the plies played to reach it.
enum class MainLineVisit { Next, Found, GiveUp };
using MainLineVisitor =
    std::function<MainLineVisit(std::size_t game, const pgn::Position&, unsigned ply)>;
[[nodiscard]] std::expected<std::optional<PlyMove>, Status> decode_main_line_until(
    std::string_view bytes, const MainLineVisitor& visit, std::size_t game = 0);

// Reads only the tags and the result of a stored game (no move is replayed): for listings and
// statistics over many games.
[[nodiscard]] std::expected<pgn::GameRecord, Status> decode_game_header(std::string_view bytes);

}  // namespace pgndb::index
