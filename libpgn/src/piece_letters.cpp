#include "pgn/piece_letters.h"

#include <algorithm>

#include "pgn/text.h"

namespace pgn {

namespace {

// Knight, bishop, rook, queen, king, as the issue and the seeds give them.
constexpr PieceLetters languages[] = {
    {"en", "English", {'N', 'B', 'R', 'Q', 'K'}},    {"cs", "Czech", {'J', 'S', 'V', 'D', 'K'}},
    {"sk", "Slovak", {'J', 'S', 'V', 'D', 'K'}},     {"pl", "Polish", {'S', 'G', 'W', 'H', 'K'}},
    {"no", "Norwegian", {'S', 'L', 'T', 'D', 'K'}},  {"da", "Danish", {'S', 'L', 'T', 'D', 'K'}},
    {"sv", "Swedish", {'S', 'L', 'T', 'D', 'K'}},    {"de", "German", {'S', 'L', 'T', 'D', 'K'}},
    {"nl", "Dutch", {'P', 'L', 'T', 'D', 'K'}},      {"fr", "French", {'C', 'F', 'T', 'D', 'R'}},
    {"es", "Spanish", {'C', 'A', 'T', 'D', 'R'}},    {"it", "Italian", {'C', 'A', 'T', 'D', 'R'}},
    {"pt", "Portuguese", {'C', 'B', 'T', 'D', 'R'}}, {"hu", "Hungarian", {'H', 'F', 'B', 'V', 'K'}},
    {"fi", "Finnish", {'R', 'L', 'T', 'D', 'K'}},    {"ro", "Romanian", {'C', 'N', 'T', 'D', 'R'}},
    {"is", "Icelandic", {'R', 'B', 'H', 'D', 'K'}},
};

// The figurines' UTF-8 encodings: U+2654..U+2659 (white king, queen, rook, bishop, knight,
// pawn) and U+265A..U+265F (black), all E2 99 94..9F.
PieceType figurine_at(std::string_view s, std::size_t i) {
  if (i + 2 >= s.size() || std::uint8_t(s[i]) != 0xE2 || std::uint8_t(s[i + 1]) != 0x99)
    return NoPieceType;
  const unsigned c = std::uint8_t(s[i + 2]);
  if (c < 0x94 || c > 0x9F) return NoPieceType;
  constexpr PieceType order[] = {King, Queen, Rook, Bishop, Knight, Pawn};
  return order[(c - 0x94) % 6];
}

}  // namespace

std::span<const PieceLetters> piece_letter_languages() { return languages; }

std::optional<PieceLetters> piece_letters(std::string_view language) {
  for (const PieceLetters& l : languages)
    if (l.language == language) return l;
  return std::nullopt;
}

bool has_figurine(std::string_view token) {
  for (std::size_t i = 0; i + 2 < token.size(); ++i)
    if (figurine_at(token, i) != NoPieceType) return true;
  return false;
}

std::string english_san(std::string_view token, const PieceLetters& letters) {
  constexpr std::string_view english = "NBRQK";  // Knight..King
  std::string out;
  out.reserve(token.size());
  for (std::size_t i = 0; i < token.size(); ++i) {
    const char c = token[i];
    if (const PieceType figurine = figurine_at(token, i); figurine != NoPieceType) {
      if (figurine != Pawn) out += english[figurine - Knight];
      i += 2;
      continue;
    }
    // Castling is `O-O` in every language; a letter of this language otherwise.
    if (c >= 'A' && c <= 'Z' && c != 'O') {
      bool mapped = false;
      for (std::size_t p = 0; p < letters.letters.size() && !mapped; ++p)
        if (letters.letters[p] == c) {
          out += english[p];
          mapped = true;
        }
      if (mapped) continue;
    }
    out += c;
  }
  return out;
}

std::string local_san(std::string_view san, const PieceLetters& letters, bool figurines) {
  constexpr std::string_view english = "NBRQK";  // Knight..King
  // U+2658 ♘, U+2657 ♗, U+2656 ♖, U+2655 ♕, U+2654 ♔: E2 99 98..94.
  constexpr std::string_view glyphs[] = {"\u2658", "\u2657", "\u2656", "\u2655", "\u2654"};
  std::string out;
  out.reserve(san.size() + (figurines ? 2 : 0));
  for (const char c : san) {
    const std::size_t piece = english.find(c);
    if (piece == std::string_view::npos)
      out += c;
    else if (figurines)
      out += glyphs[piece];
    else
      out += letters.letters[piece];
  }
  return out;
}

std::expected<Move, SanError> parse_san(const Position& pos, std::string_view text,
                                        const PieceLetters& letters) {
  // In another language a capital is one of its piece letters, castling's O, or the null
  // move's Z: an English letter it lacks (a B in a Romanian game) does not read, so that a
  // game in English with a bad move is not taken for another language read half in English.
  if (letters.language != "en")
    for (char c : text)
      if (c >= 'A' && c <= 'Z' && c != 'O' && c != 'Z' &&
          std::find(letters.letters.begin(), letters.letters.end(), c) == letters.letters.end())
        return std::unexpected(
            SanError{SanErrorKind::Syntax,
                     cat("unreadable move '", text, "' in ", letters.name, " piece letters (",
                         std::string_view(letters.letters.data(), letters.letters.size()),
                         " for N B R Q K)")});
  const std::string english = english_san(text, letters);
  auto move = parse_san(pos, english);
  if (move || english == text) return move;
  // The message quotes the token read; name it as written.
  SanError error = move.error();
  const std::string quoted = "'" + english + "'";
  if (const auto at = error.message.find(quoted); at != std::string::npos)
    error.message.replace(at, quoted.size(), "'" + std::string(text) + "'");
  return std::unexpected(std::move(error));
}

}  // namespace pgn
