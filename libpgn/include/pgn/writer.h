// PGN export format (PGN standard, section 8): what `pgndb normalize` and `export` write.
#pragma once

#include <optional>
#include <string>

#include "pgn/game_record.h"
#include "pgn/piece_letters.h"

namespace pgn {

struct WriterOptions {
  // Lines are broken at spaces so that none is longer than this; the standard asks for fewer
  // than 80 characters. (A single longer word, such as a URL in a comment, stands alone.)
  std::size_t line_width = 79;
  // Moves with another language's piece letters, or figurines (local_san): outside the export
  // format, which wants English letters; reading them back needs those letters (--lang) or
  // reads figurines as any pgndb reader does.
  std::optional<PieceLetters> letters = std::nullopt;
  bool figurines = false;
};

// Appends `game` to `out`: the Seven Tag Roster in its order (missing ones as "?",
// "????.??.??" for Date, Result from the game), the other tags in ASCII order of their names
// (PGN standard 8.1.1; tags of the same name keep the order read); then the
// movetext in canonical SAN with move numbers where the standard wants them, NAGs as `$n`,
// comments in braces (white space folded) and variations in parentheses; then the result and
// one blank line. Writing what reading this output gives yields the same text.
void write_game(const GameRecord& game, std::string& out, const WriterOptions& options = {});

// A move's SAN (as to_san gives it) as `options` write moves: in its letters or figurines.
[[nodiscard]] std::string written_san(std::string san, const WriterOptions& options);

}  // namespace pgn
