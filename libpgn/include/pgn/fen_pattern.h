// pgn-extract's FENPattern: a board written like FEN's first field, with wildcards, matched
// against the board of a position (side to move, castling, en passant and clocks are ignored).
//
// The syntax and its meaning are pgn-extract's (v19-04, source/fenmatcher.c; checked against
// /usr/games/pgn-extract by tests/test_fen_pattern.cpp). Eight ranks, rank 8 first, separated by
// `/`. Each rank is matched on its own, a to h, and must take up exactly its 8 squares:
//
//   K Q R B N P k q r b n p   that piece (white upper case, black lower case)
//   1 .. 8                    that many empty squares
//   _                         one empty square (undocumented in pgn-extract, but it reads it)
//   ?                         one square, empty or not
//   !                         one occupied square
//   A / a                     one square holding a white / a black piece
//   m                         one square without a pawn, empty or not (undocumented: [^Pp])
//   [xyz]                     one square matching any element: piece letters, `_ ? ! A a m`
//   [^xyz]                    one square matching none of the elements
//   *                         any number of squares (0 to 8) of this rank, whatever they hold
//
// `*` never reaches into another rank, and a rank may hold several; the rank matches when some
// choice of lengths for its stars makes the rank's tokens cover its 8 squares exactly (pgn-extract
// backtracks over every choice). So tokens before a rank's first `*` stand on fixed squares from
// the a-file, and tokens after its last `*` on fixed squares counted back from the h-file.
//
// FENPatternI tries a pattern and its inversion (inverted()): rank 8 becomes rank 1 and so on,
// each rank's squares keep their files, and every element changes colour (P <-> p, A <-> a).
//
// Where this differs from pgn-extract, on purpose:
//  - `m` keeps its meaning in the inversion. pgn-extract inverts a pattern by swapping the case
//    of its letters, which turns `m` into `M`, a letter it matches against no square: the
//    inverted half of a FENPatternI holding `m` never matches there. Here it means [^Pp] still.
//  - parse() rejects text that pgn-extract accepts but that cannot describe a board, with the
//    offset of the fault: a rank without `*` that is not 8 squares long (or one with `*` whose
//    other tokens exceed 8), an unclosed `[`, a character it would compare with no square
//    (`x`, `0`, `9`, `M`), and inside a set a digit, `*` or a `^` after the first place, or a set
//    that matches no square (`[]`, `[^?]`). pgn-extract takes all of these and never matches
//    (or, for an unclosed `[` at the pattern's end, may read past the end of its string).
//  - The pattern text is the board alone. pgn-extract's tag files allow a label after white
//    space (`FENPattern "*/*/*/*/*/*/*/*" mylabel`); the caller splits it off, parse() rejects
//    white space.
// As in pgn-extract, a rank that holds nothing but `[^]` sets is rejected (pgn-extract counts no
// symbol in it), though it could be read as `?`s.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/position.h"
#include "pgn/types.h"

namespace pgn {

struct PatternError {
  std::size_t offset;   // 0-based, into the text given to parse(); its length for "too short"
  std::string message;  // one line naming what is wrong, e.g. "rank 3 has 9 squares"
};

class FenPattern {
 public:
  // Reads a pattern (see above). Linear in the text's length.
  [[nodiscard]] static std::expected<FenPattern, PatternError> parse(std::string_view text);

  // Whether the position's board matches. Ranks without `*` are checked together as bitboard
  // masks; only ranks with `*` run the general matcher.
  [[nodiscard]] bool matches(const Position& position) const;

  // The pattern with colours swapped and ranks mirrored: the second try of FENPatternI (see the
  // difference for `m` above). A FENPatternI matches a position when the pattern or its inversion
  // does.
  [[nodiscard]] FenPattern inverted() const;

  // Bounds for pruning an index search. Each is sound: a position that matches satisfies it.
  //
  // The fewest pieces of this colour and type any matching board holds: one per token that
  // matches that piece alone (a letter, or a set such as `[P]`), as each takes its own square.
  [[nodiscard]] unsigned min_pieces(Color color, PieceType type) const;
  // The squares every matching board has occupied by this piece: tokens that match that piece
  // alone on a fixed square (a rank without `*`, or before a rank's first `*` or after its last).
  [[nodiscard]] Bitboard required(Color color, PieceType type) const;
  // The ranks (bit r: rank r, 0 the first) on each of which every matching board has this piece:
  // those of required(), and the ranks with `*` holding a token of that piece alone.
  [[nodiscard]] std::uint8_t required_ranks(Color color, PieceType type) const;
  // The squares every matching board has occupied by a pawn of either colour: tokens that match
  // pawns alone on a fixed square (`P`, `p`, `[Pp]`).
  [[nodiscard]] Bitboard required_pawns() const { return required_pawns_; }
  // The squares no matching board has occupied by this piece: fixed-square tokens that exclude it
  // (a digit's empty squares, another letter, `a` for a white piece, a set without it, ...).
  [[nodiscard]] Bitboard excluded(Color color, PieceType type) const;
  // The squares every matching board has empty (fixed-square digits and `_`), and those no
  // matching board has empty (fixed-square `!`, letters, `A`, `a`, sets without `_`).
  [[nodiscard]] Bitboard required_empty() const { return required_[0]; }
  [[nodiscard]] Bitboard excluded_empty() const { return forbidden_[0]; }

  // The pattern written back in a canonical form that parse() reads as an equal pattern: runs
  // of empty squares as one digit, runs of `*` as one, each set as its simplest spelling.
  [[nodiscard]] std::string to_string() const;

  // Equal patterns match the same boards (the converse does not hold: `?*` and `*?` differ).
  bool operator==(const FenPattern& other) const { return ranks_ == other.ranks_; }

 private:
  // A token of a rank: the states a square may be in, one bit per Piece value (bit 0, NoPiece,
  // is an empty square), and how many consecutive squares it takes; 0 squares is `*`.
  struct Token {
    std::uint16_t states = 0;
    std::uint8_t squares = 0;
    bool operator==(const Token&) const = default;
  };
  using Rank = std::vector<Token>;

  FenPattern() = default;
  // Fills the masks below from ranks_.
  void compile();
  bool rank_matches(int rank, const Position& position) const;

  std::array<Rank, 8> ranks_;  // indexed by board rank: [0] is rank 1, the text's last
  // Indexed by Piece value (0: an empty square). forbidden_[s]: the fixed squares whose token
  // excludes state s; required_[s]: those whose token allows state s alone.
  std::array<Bitboard, 16> forbidden_{};
  std::array<Bitboard, 16> required_{};
  std::array<std::uint8_t, 16> min_pieces_{};
  Bitboard required_pawns_ = 0;
  // The states with a forbidden square, so that matches() looks at those alone.
  std::array<std::uint8_t, 13> checked_states_{};
  std::uint8_t checked_count_ = 0;
  // A rank with `*` holding a token of one state (a letter, a digit, `_`) matches only boards
  // with that state somewhere on the rank: bit r of present_ranks_[s] for state s and rank r.
  // matches() checks these (a bitboard each) before running the ranks' matcher: a white rook
  // on the seventh (`*/*R*/*/*/*/*/*/*`) is on no board of most plies.
  std::array<std::uint8_t, 16> present_ranks_{};
  std::array<std::uint8_t, 13> present_states_{};
  std::uint8_t present_count_ = 0;
  std::uint8_t star_ranks_ = 0;  // bit r: rank r holds a `*`
};

}  // namespace pgn
