// pgn-extract's FENPattern (pgn::FenPattern) on any text, matched against the positions of
// san_positions.h and their colour-flipped mirrors.
//
// Checks: a rejected text gets a message and an offset within it. A pattern that parses is
// written (to_string) as text that parses to an equal pattern, and inverting twice gives it
// back. Its matcher (bitboard masks, and a per-rank matcher for ranks with `*`) agrees with a
// plain backtracking matcher over its text, written here after pgn-extract's; a pattern matches
// a position exactly when its inversion matches the mirrored position; and a position it
// matches keeps to its pruning bounds (min_pieces, required, excluded).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "check.h"
#include "pgn/fen.h"
#include "pgn/fen_pattern.h"
#include "san_positions.h"

namespace {

// A square as pgn-extract writes a rank for its matcher: the piece letter, or `_` when empty.
char square_letter(const pgn::Position& pos, int file, int rank) {
  static constexpr char letters[] = "_PNBRQK__pnbrqk_";
  return letters[pos.piece_on(pgn::make_square(file, rank))];
}

// Whether element `e` (a letter, `_ ? ! A a m`) matches square letter `s`.
bool element_matches(char e, char s) {
  switch (e) {
    case '?': return true;
    case '!': return s != '_';
    case 'A': return s >= 'A' && s <= 'Z';
    case 'a': return s >= 'a' && s <= 'z';
    case 'm': return s != 'P' && s != 'p';
    default: return e == s;
  }
}

// pgn-extract's matcher, for one rank: `pattern` against the square letters of `squares`, all of
// both consumed; `*` tries every length, longest first.
bool rank_matches(std::string_view pattern, std::string_view squares) {
  if (pattern.empty()) return squares.empty();
  const char c = pattern[0];
  if (c == '*') {
    for (std::size_t n = squares.size() + 1; n-- > 0;)
      if (rank_matches(pattern.substr(1), squares.substr(n))) return true;
    return false;
  }
  if (c >= '1' && c <= '8') {
    const std::size_t n = std::size_t(c - '0');
    if (squares.size() < n) return false;
    for (std::size_t k = 0; k < n; ++k)
      if (squares[k] != '_') return false;
    return rank_matches(pattern.substr(1), squares.substr(n));
  }
  if (squares.empty()) return false;
  if (c == '[') {
    const std::size_t close = pattern.find(']');
    FUZZ_CHECK(close != std::string_view::npos);
    std::string_view elements = pattern.substr(1, close - 1);
    const bool negated = !elements.empty() && elements[0] == '^';
    if (negated) elements.remove_prefix(1);
    bool any = false;
    for (char e : elements) any = any || element_matches(e, squares[0]);
    return any != negated && rank_matches(pattern.substr(close + 1), squares.substr(1));
  }
  return element_matches(c, squares[0]) && rank_matches(pattern.substr(1), squares.substr(1));
}

bool reference_matches(std::string_view text, const pgn::Position& pos) {
  for (int rank = 7; rank >= 0; --rank) {
    const std::size_t slash = text.find('/');
    const std::string_view pattern = text.substr(0, slash);
    std::string squares;
    for (int file = 0; file < 8; ++file) squares += square_letter(pos, file, rank);
    if (!rank_matches(pattern, squares)) return false;
    text.remove_prefix(slash == std::string_view::npos ? text.size() : slash + 1);
  }
  return true;
}

// The position with ranks mirrored and colours swapped (the board a pattern's inversion sees),
// the other side to move; no castling or en passant.
pgn::Position mirrored(const pgn::Position& pos) {
  std::string board;
  for (int rank = 0; rank < 8; ++rank) {
    for (int file = 0; file < 8; ++file) {
      const pgn::Piece p = pos.piece_on(pgn::make_square(file, rank));
      if (p == pgn::NoPiece)
        board += '1';
      else
        board += square_letter(pos, file, rank) ^ 0x20;  // swap the case: the other colour
    }
    if (rank != 7) board += '/';
  }
  auto flipped =
      pgn::parse_fen(board + (pos.side_to_move() == pgn::White ? " b" : " w") + " - - 0 1");
  FUZZ_CHECK(flipped);
  return *flipped;
}

bool within_bounds(const pgn::FenPattern& p, const pgn::Position& pos) {
  for (pgn::Color c : {pgn::White, pgn::Black}) {
    for (int t = pgn::Pawn; t <= pgn::King; ++t) {
      const auto type = pgn::PieceType(t);
      const pgn::Bitboard held = pos.pieces(c, type);
      if (unsigned(std::popcount(held)) < p.min_pieces(c, type)) return false;
      if (p.required(c, type) & ~held) return false;
      if (p.excluded(c, type) & held) return false;
    }
  }
  return !(p.required_empty() & pos.occupied()) && !(p.excluded_empty() & ~pos.occupied());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = pgn::FenPattern::parse(text);
  if (!parsed) {
    FUZZ_CHECK(!parsed.error().message.empty());
    FUZZ_CHECK(parsed.error().offset <= text.size());
    return 0;
  }
  const pgn::FenPattern& pattern = *parsed;
  const std::string written = pattern.to_string();
  auto again = pgn::FenPattern::parse(written);
  FUZZ_CHECK(again && *again == pattern && again->to_string() == written);
  const pgn::FenPattern inverse = pattern.inverted();
  FUZZ_CHECK(inverse.inverted() == pattern);
  const std::string inverse_text = inverse.to_string();

  // Each position with its mirror, both ways round.
  static const std::vector<std::pair<pgn::Position, pgn::Position>> positions = [] {
    std::vector<std::pair<pgn::Position, pgn::Position>> out;
    for (std::string_view fen : pgndb::fuzz::san_positions) {
      auto pos = pgn::parse_fen(fen);
      FUZZ_CHECK(pos);
      out.emplace_back(*pos, mirrored(*pos));
      out.emplace_back(out.back().second, out.back().first);
    }
    return out;
  }();
  // The reference tries every length of each `*`: on the text as given only when no two stars
  // stand together (their lengths multiply), always on the written form (one `*` a run).
  const bool plain_stars = text.find("**") == std::string_view::npos;
  for (const auto& [pos, mirror] : positions) {
    const bool matched = pattern.matches(pos);
    FUZZ_CHECK(matched == reference_matches(written, pos));
    if (plain_stars) FUZZ_CHECK(matched == reference_matches(text, pos));
    FUZZ_CHECK(matched == inverse.matches(mirror));
    if (matched) FUZZ_CHECK(within_bounds(pattern, pos));
    const bool inverse_matched = inverse.matches(pos);
    FUZZ_CHECK(inverse_matched == reference_matches(inverse_text, pos));
    if (inverse_matched) FUZZ_CHECK(within_bounds(inverse, pos));
  }
  return 0;
}
