// Embedded commands in PGN comments, as lichess, ChessBase and engines write them:
// `[%clk 0:03:00]` (clock), `[%emt 0:00:05]` (time spent on the move), `[%eval 0.17]` or
// `[%eval #-3]` (engine evaluation). The comment text itself is left as it is; these are typed
// readings of it.
#pragma once

#include <optional>
#include <string_view>

namespace pgn {

struct Evaluation {
  enum class Kind { Centipawns, Mate };
  Kind kind;
  // Centipawns from White's point of view, or moves to mate (negative: Black mates).
  int value;
};

struct CommentCommands {
  std::optional<double> clock_seconds;    // [%clk h:mm:ss[.fff]]
  std::optional<double> elapsed_seconds;  // [%emt h:mm:ss[.fff]]
  std::optional<Evaluation> eval;         // [%eval pawns] or [%eval #n] (",depth" ignored)
};

// Reads the commands in a comment; a malformed command is left unread (its value stays empty).
[[nodiscard]] CommentCommands parse_comment_commands(std::string_view comment);

}  // namespace pgn
