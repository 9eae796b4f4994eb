// Piece letters in the languages chess is written in, and figurines: SAN as players write it in
// their own language (the Czech seed: K D V S J for king, queen, rook, bishop, knight) read as
// the English SAN the PGN standard's export format requires.
#pragma once

#include <array>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "pgn/position.h"
#include "pgn/san.h"

namespace pgn {

struct PieceLetters {
  std::string_view language;  // ISO 639-1: "en", "cs", ...
  std::string_view name;      // in English: "Czech"
  // The letters of knight, bishop, rook, queen and king (PieceType Knight..King), uppercase.
  std::array<char, 5> letters;

  char letter(PieceType pt) const { return letters[pt - Knight]; }
};

// Every language pgndb reads and writes, English first: en, cs, sk, pl, no, da, sv, de, nl, fr,
// es, it, pt, hu, fi, ro, is. Several share their letters (cs and sk; no, da, sv and de; es and
// it).
[[nodiscard]] std::span<const PieceLetters> piece_letter_languages();
// The letters of `language` (an ISO 639-1 code); nothing for a language pgndb does not know.
[[nodiscard]] std::optional<PieceLetters> piece_letters(std::string_view language);

// `token` with its piece letters in `letters` (and any figurine, ♔♕♖♗♘ or ♚♛♜♝♞, in any
// language; a pawn's ♙ or ♟ dropped) written as English letters; the rest as it is. Castling
// (`O-O`), files (lowercase) and the other signs are the same in every language.
[[nodiscard]] std::string english_san(std::string_view token, const PieceLetters& letters);

// The other way: `san`, English SAN as to_san writes it, with `letters`' piece letters (castling
// stays `O-O`), or with figurines when `figurines` is set (♘ ♗ ♖ ♕ ♔, the one set for either
// side, as figurine notation prints them). Outside the PGN export format, which wants English
// letters: `--lang` and `--figurine` of normalize, export and show.
[[nodiscard]] std::string local_san(std::string_view san, const PieceLetters& letters,
                                    bool figurines = false);

// parse_san of a move written with `letters`; an error names the token as written. Outside
// English, a capital letter the language does not use for a piece (nor O, nor Z of `Z0`) is
// unreadable rather than taken as English.
[[nodiscard]] std::expected<Move, SanError> parse_san(const Position& pos, std::string_view text,
                                                      const PieceLetters& letters);

// Whether `token` holds a figurine (its UTF-8 bytes).
[[nodiscard]] bool has_figurine(std::string_view token);

}  // namespace pgn
