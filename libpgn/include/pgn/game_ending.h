// How a game ended on the board (FIDE Laws 5 and 9, as the seeds give them): by itself
// (checkmate, stalemate, a dead position by material, fivefold repetition, 75 moves), or in a
// position that let the player to move claim a draw (threefold repetition, 50 moves); and
// whether a repetition or 50 moves without a capture or a pawn move occurred on the way.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "pgn/position.h"
#include "pgn/types.h"

namespace pgn {

// The number is a file format (the summaries and facts keep it: docs/storage.md).
enum class Ending : std::uint8_t {
  None = 0,
  Checkmate = 1,
  Stalemate = 2,
  InsufficientMaterial = 3,  // neither side can mate (Law 6.9; material.h)
  Fivefold = 4,              // a position stood five times (Law 9.6.1)
  SeventyFive = 5,           // 75 moves by each side without a capture or a pawn move (9.6.2)
  Threefold = 6,             // the final position stood three times: a draw could be claimed
  Fifty = 7,                 // 50 moves by each side without a capture or a pawn move: likewise
};
inline constexpr std::size_t ending_count = 8;

// As `pgndb find --ending` names them.
inline constexpr std::array<std::string_view, ending_count> ending_names = {
    "none",     "checkmate",    "stalemate", "insufficient-material",
    "fivefold", "seventy-five", "threefold", "fifty"};
constexpr std::string_view to_text(Ending e) { return ending_names[std::size_t(e)]; }
constexpr std::optional<Ending> parse_ending(std::string_view text) {
  for (std::size_t i = 0; i < ending_names.size(); ++i)
    if (text == ending_names[i]) return Ending(i);
  return std::nullopt;
}
// Whether the game ended by itself (a result other than the board's is then wrong).
constexpr bool ends_by_itself(Ending e) {
  return e != Ending::None && e != Ending::Threefold && e != Ending::Fifty;
}

struct GameEnding {
  // The first ending by itself along the main line, at `ply`; else what the final position
  // allowed (Threefold before Fifty), at the last ply; else None.
  Ending ending = Ending::None;
  std::size_t ply = 0;
  // Some position of the main line stood a third time (a threefold claim was possible there),
  // or the 50 moves passed (the halfmove clock reached 100), at some ply.
  bool repetition = false, fifty_moves = false;
};

// Follows a main line as it is played, for a replay that plays it anyway (ReplayVisitor): at
// each ply it checks the material, the repetitions since the last capture or pawn move, and the
// halfmove clock; checkmate and stalemate only at the end (no legal move follows them).
class EndingTracker {
 public:
  explicit EndingTracker(const Position& start = Position()) { reset(start); }
  void reset(const Position& start);
  // The position after each main-line move, in order.
  void after_move(const Position& pos);
  // How the game ended, `end` being the last position given (or the start).
  [[nodiscard]] GameEnding finish(const Position& end) const;
  // How many times the last position given has stood (itself included), by repetition key.
  [[nodiscard]] int repetitions() const;

 private:
  // `material_changed`: the start, or a capture or a pawn move led to `pos`.
  void note(const Position& pos, bool material_changed);
  std::vector<Key> keys_;  // the positions since the last capture or pawn move, the last last
  GameEnding ending_;      // as far as the moves so far tell
  std::size_t ply_ = 0;
};

// How the game of `moves` (legal, or Move::null()) from `start` ended.
[[nodiscard]] GameEnding game_ending(const Position& start, std::span<const Move> moves);

}  // namespace pgn
