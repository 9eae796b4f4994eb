#include "pgn/fen_pattern.h"

#include <bit>

#include "pgn/bitboard.h"

namespace pgn {

namespace {

// Square states as bits of a Token's mask, bit i for Piece value i.
constexpr std::uint16_t bit(Piece p) { return std::uint16_t(1u << p); }
constexpr std::uint16_t empty_state = bit(NoPiece);
constexpr std::uint16_t white_pieces = 0x7E;  // WhitePawn (1) .. WhiteKing (6)
constexpr std::uint16_t black_pieces = white_pieces << 8;
constexpr std::uint16_t pawns = bit(WhitePawn) | bit(BlackPawn);
constexpr std::uint16_t any_state = empty_state | white_pieces | black_pieces;

constexpr int board_rank(int text_rank) { return 7 - text_rank; }

// The states one character stands for, as a token or inside a set; 0 when it is none of them.
std::uint16_t element_states(char c) {
  switch (c) {
    case 'P': return bit(WhitePawn);
    case 'N': return bit(WhiteKnight);
    case 'B': return bit(WhiteBishop);
    case 'R': return bit(WhiteRook);
    case 'Q': return bit(WhiteQueen);
    case 'K': return bit(WhiteKing);
    case 'p': return bit(BlackPawn);
    case 'n': return bit(BlackKnight);
    case 'b': return bit(BlackBishop);
    case 'r': return bit(BlackRook);
    case 'q': return bit(BlackQueen);
    case 'k': return bit(BlackKing);
    case '_': return empty_state;
    case '?': return any_state;
    case '!': return white_pieces | black_pieces;
    case 'A': return white_pieces;
    case 'a': return black_pieces;
    case 'm': return any_state & ~pawns;
    default: return 0;
  }
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// A character for a message: itself when printable, else its byte value.
std::string shown(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7F) return std::string("'") + c + "'";
  static constexpr char hex[] = "0123456789abcdef";
  return std::string("byte 0x") + hex[byte >> 4] + hex[byte & 15];
}

std::unexpected<PatternError> fail(std::size_t offset, std::string message) {
  return std::unexpected(PatternError{offset, std::move(message)});
}

// The same states with the colours swapped.
constexpr std::uint16_t swap_colours(std::uint16_t states) {
  return std::uint16_t((states & empty_state) | ((states & white_pieces) << 8) |
                       ((states & black_pieces) >> 8));
}

// Letters of the pieces among `states` of one colour, or the colour's wildcard when all are.
void append_pieces(std::string& out, std::uint16_t states, Color c) {
  static constexpr char letters[2][7] = {"PNBRQK", "pnbrqk"};
  const std::uint16_t colour = c == White ? white_pieces : black_pieces;
  if ((states & colour) == colour) {
    out += c == White ? 'A' : 'a';
    return;
  }
  for (int t = Pawn; t <= King; ++t)
    if (states & bit(make_piece(c, PieceType(t)))) out += letters[c][t - 1];
}

}  // namespace

std::expected<FenPattern, PatternError> FenPattern::parse(std::string_view text) {
  if (text.empty()) return fail(0, "empty pattern");
  FenPattern pattern;
  int text_rank = 0;  // 0 is rank 8
  std::size_t i = 0;
  // The rank being read.
  std::size_t rank_start = 0;
  unsigned fixed_squares = 0;                        // the squares its tokens other than `*` take
  std::size_t overflow_at = std::string_view::npos;  // the token that took it past 8
  bool has_star = false;
  bool has_symbol = false;  // a character pgn-extract counts (anything but `[`, `]`, `^`)

  auto push = [&](Token t) {
    Rank& rank = pattern.ranks_[board_rank(text_rank)];
    // Runs of `*`, and of empty squares, are one token: the rank matches the same boards.
    if (!rank.empty()) {
      Token& last = rank.back();
      if (t.squares == 0 && last.squares == 0) return;
      if (t.states == empty_state && last.states == empty_state && t.squares && last.squares &&
          last.squares + t.squares <= 8) {
        last.squares = std::uint8_t(last.squares + t.squares);
        return;
      }
    }
    rank.push_back(t);
  };
  auto add_squares = [&](unsigned n, std::size_t at) {
    fixed_squares += n;
    if (fixed_squares > 8 && overflow_at == std::string_view::npos) overflow_at = at;
  };
  // Checks the rank that ends at `end` (a `/` or the text's end).
  auto end_rank = [&](std::size_t end) -> std::expected<void, PatternError> {
    const std::string rank = "rank " + std::to_string(board_rank(text_rank) + 1);
    if (end == rank_start) return fail(end, rank + " is empty");
    if (!has_symbol)
      return fail(rank_start,
                  rank + " holds only '[^]' sets (pgn-extract reads no square in it: write '?')");
    const std::string squares = " has " + std::to_string(fixed_squares) + " squares";
    if (fixed_squares > 8)
      return fail(overflow_at, rank + squares + (has_star ? " besides '*'" : ""));
    if (!has_star && fixed_squares < 8) return fail(end, rank + squares);
    return {};
  };
  auto count_ranks = [&](std::size_t from) {
    int ranks = text_rank + 1;
    for (std::size_t j = from; j < text.size() && !is_space(text[j]); ++j) ranks += text[j] == '/';
    return ranks;
  };

  while (i < text.size()) {
    const char c = text[i];
    if (is_space(c))
      return fail(i, (c == ' ' ? std::string("space") : shown(c)) +
                         " in the pattern (a label or FEN's other fields are not part of it)");
    if (c == '/') {
      if (auto ok = end_rank(i); !ok) return std::unexpected(ok.error());
      if (text_rank == 7)
        return fail(i, "8 ranks expected, found " + std::to_string(count_ranks(i)));
      ++text_rank;
      rank_start = i + 1;
      fixed_squares = 0;
      overflow_at = std::string_view::npos;
      has_star = has_symbol = false;
      ++i;
      continue;
    }
    if (c == '*') {
      push(Token{any_state, 0});
      has_star = has_symbol = true;
      ++i;
      continue;
    }
    if (c >= '1' && c <= '8') {
      push(Token{empty_state, std::uint8_t(c - '0')});
      add_squares(unsigned(c - '0'), i);
      has_symbol = true;
      ++i;
      continue;
    }
    if (c == '0' || c == '9')
      return fail(i, std::string("'") + c + "' empty squares (a digit counts 1 to 8)");
    if (c == ']') return fail(i, "']' without '['");
    if (c == '^') return fail(i, "'^' outside a set");
    if (c == '[') {
      const std::size_t open = i++;
      const bool negated = i < text.size() && text[i] == '^';
      if (negated) ++i;
      std::uint16_t states = 0;
      for (; i < text.size() && text[i] != ']'; ++i) {
        const char e = text[i];
        if (e == '/' || is_space(e)) break;
        if (e == '[') return fail(i, "'[' inside a set");
        if (e == '^') return fail(i, "'^' not first in a set");
        if (e == '*') return fail(i, "'*' inside a set");
        if (e >= '0' && e <= '9')
          return fail(
              i, std::string("digit '") + e + "' inside a set (write '_' for an empty square)");
        const std::uint16_t s = element_states(e);
        if (s == 0) return fail(i, "unknown character " + shown(e));
        states |= s;
        has_symbol = true;
      }
      if (i == text.size() || text[i] != ']') return fail(open, "unclosed '['");
      if (negated) states = any_state & ~states;
      if (states == 0) return fail(open, "the set matches no square");
      push(Token{states, 1});
      add_squares(1, open);
      ++i;
      continue;
    }
    const std::uint16_t s = element_states(c);
    if (s == 0) return fail(i, "unknown character " + shown(c));
    push(Token{s, 1});
    add_squares(1, i);
    has_symbol = true;
    ++i;
  }
  if (auto ok = end_rank(text.size()); !ok) return std::unexpected(ok.error());
  if (text_rank != 7)
    return fail(text.size(), "8 ranks expected, found " + std::to_string(text_rank + 1));
  pattern.compile();
  return pattern;
}

void FenPattern::compile() {
  forbidden_.fill(0);
  required_.fill(0);
  min_pieces_.fill(0);
  required_pawns_ = 0;
  star_ranks_ = 0;
  present_ranks_.fill(0);
  const std::uint16_t pawn_states =
      std::uint16_t(1u << make_piece(White, Pawn) | 1u << make_piece(Black, Pawn));
  // Records what token `t` says of the squares it takes from `file` on rank `rank`.
  auto fixed = [&](const Token& t, int rank, int file) {
    for (int k = 0; k < t.squares; ++k) {
      const Bitboard sq = square_bb(make_square(file + k, rank));
      for (int s = 0; s < 16; ++s) {
        if (!((any_state >> s) & 1)) continue;
        if (!((t.states >> s) & 1)) forbidden_[s] |= sq;
        if (t.states == (1u << s)) required_[s] |= sq;
      }
      if (t.states && !(t.states & ~pawn_states)) required_pawns_ |= sq;
    }
  };
  for (int rank = 0; rank < 8; ++rank) {
    const Rank& tokens = ranks_[rank];
    std::size_t first_star = tokens.size();
    for (std::size_t k = 0; k < tokens.size(); ++k) {
      const Token& t = tokens[k];
      if (t.squares == 0 && first_star == tokens.size()) first_star = k;
      // A token of one piece alone takes a square of its own: one more such piece.
      if (t.squares == 1 && std::has_single_bit(t.states) && t.states != empty_state)
        ++min_pieces_[std::countr_zero(t.states)];
    }
    int file = 0;
    for (std::size_t k = 0; k < first_star; ++k) {
      fixed(tokens[k], rank, file);
      file += tokens[k].squares;
    }
    if (first_star == tokens.size()) continue;
    // A rank of `*` alone matches any rank: nothing to run.
    if (tokens.size() > 1) star_ranks_ |= std::uint8_t(1u << rank);
    for (const Token& t : tokens)
      if (t.squares > 0 && std::has_single_bit(t.states))
        present_ranks_[std::countr_zero(t.states)] |= std::uint8_t(1u << rank);
    // The rank takes exactly 8 squares, so the tokens after the last `*` end on the h-file.
    file = 8;
    for (std::size_t k = tokens.size(); k-- > first_star && tokens[k].squares != 0;) {
      file -= tokens[k].squares;
      fixed(tokens[k], rank, file);
    }
  }
  checked_count_ = 0;
  present_count_ = 0;
  for (int s = 0; s < 16; ++s) {
    if (forbidden_[s]) checked_states_[checked_count_++] = std::uint8_t(s);
    if (present_ranks_[s]) present_states_[present_count_++] = std::uint8_t(s);
  }
}

namespace {

// The squares of the board in one of `states`: a colour's pieces as one bitboard when the
// states hold them all (`A`, `a`, `!`, `?`), else piece by piece.
Bitboard squares_in(std::uint16_t states, const Position& position) {
  Bitboard out = states & empty_state ? ~position.occupied() : 0;
  for (Color c : {White, Black}) {
    const std::uint16_t colour = c == White ? white_pieces : black_pieces;
    const std::uint16_t held = states & colour;
    if (held == colour) {
      out |= position.pieces(c);
      continue;
    }
    for (std::uint16_t left = held; left; left &= std::uint16_t(left - 1))
      out |= position.pieces(c, type_of(Piece(std::countr_zero(left))));
  }
  return out;
}

}  // namespace

bool FenPattern::rank_matches(int rank, const Position& position) const {
  // reach: bit n when the tokens so far can take exactly the first n squares (files a and on).
  unsigned reach = 1;
  for (const Token& t : ranks_[rank]) {
    if (t.squares == 0) {
      // `*`: any number of squares, from the fewest reached so far on.
      reach = 0x1FFu & ~((reach & (0u - reach)) - 1u);
      continue;
    }
    // fit: bit f when file f's square is in one of the token's states.
    const unsigned fit = unsigned(squares_in(t.states, position) >> (8 * rank)) & 0xFFu;
    // starts: bit f when the token's squares f .. f + squares - 1 all fit.
    unsigned starts = fit;
    for (int k = 1; k < t.squares; ++k) starts &= fit >> k;
    reach = (reach & starts) << t.squares;
    if (!reach) return false;
  }
  return reach & 0x100u;
}

bool FenPattern::matches(const Position& position) const {
  // The squares in state `s` (0: empty).
  const auto holding = [&](int s) {
    return s == NoPiece ? ~position.occupied()
                        : position.pieces(color_of(Piece(s)), type_of(Piece(s)));
  };
  for (int k = 0; k < checked_count_; ++k) {
    const int s = checked_states_[k];
    if (holding(s) & forbidden_[s]) return false;
  }
  for (int k = 0; k < present_count_; ++k) {
    const int s = present_states_[k];
    const Bitboard squares = holding(s);
    for (unsigned ranks = present_ranks_[s]; ranks; ranks &= ranks - 1)
      if (!(squares & rank_bb(std::countr_zero(ranks)))) return false;
  }
  for (unsigned stars = star_ranks_; stars; stars &= stars - 1)
    if (!rank_matches(std::countr_zero(stars), position)) return false;
  return true;
}

FenPattern FenPattern::inverted() const {
  FenPattern out;
  for (int rank = 0; rank < 8; ++rank) {
    Rank& tokens = out.ranks_[7 - rank];
    tokens = ranks_[rank];
    for (Token& t : tokens) t.states = swap_colours(t.states);
  }
  out.compile();
  return out;
}

unsigned FenPattern::min_pieces(Color color, PieceType type) const {
  return min_pieces_[make_piece(color, type)];
}

Bitboard FenPattern::required(Color color, PieceType type) const {
  return required_[make_piece(color, type)];
}

std::uint8_t FenPattern::required_ranks(Color color, PieceType type) const {
  const Piece piece = make_piece(color, type);
  return ranks_of(required_[piece]) | present_ranks_[piece];
}

Bitboard FenPattern::excluded(Color color, PieceType type) const {
  return forbidden_[make_piece(color, type)];
}

std::string FenPattern::to_string() const {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    for (const Token& t : ranks_[rank]) {
      if (t.squares == 0) {
        out += '*';
      } else if (t.states == empty_state) {
        out += char('0' + t.squares);
      } else if (t.states == any_state) {
        out += '?';
      } else if (t.states == (white_pieces | black_pieces)) {
        out += '!';
      } else if (t.states == (any_state & ~pawns)) {
        out += 'm';
      } else {
        std::string elements;
        if (t.states & empty_state) elements += '_';
        append_pieces(elements, t.states, White);
        append_pieces(elements, t.states, Black);
        if (elements.size() == 1)
          out += elements;
        else
          out += '[' + elements + ']';
      }
    }
    if (rank) out += '/';
  }
  return out;
}

}  // namespace pgn
