#include "pgn/fen.h"

#include <charconv>

#include "pgn/bitboard.h"
#include "pgn/text.h"

namespace pgn {

namespace {

constexpr std::string_view piece_letters = " PNBRQK  pnbrqk";

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) fields.push_back(text.substr(start, i - start));
  }
  return fields;
}

std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

bool parse_number(std::string_view text, unsigned& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

// The one place outside Position that writes its private state: FEN is its checked constructor.
struct FenAccess {
  static std::expected<Position, FenErrors> parse(std::string_view text);
  static bool parse_placement(Position& pos, std::string_view field, FenErrors& errors);
  static void parse_castling(Position& pos, std::string_view field, FenErrors& errors);
  static void check_board(const Position& pos, FenErrors& errors);
};

bool FenAccess::parse_placement(Position& pos, std::string_view field, FenErrors& errors) {
  auto fail = [&](std::string why) {
    errors.problems.push_back({FenError::BadPlacement, "bad piece placement: " + why});
    return false;
  };
  int rank = 7, file = 0;
  for (char c : field) {
    if (c == '/') {
      if (file != 8) return fail(cat("rank ", rank + 1, " has ", file, " squares"));
      if (--rank < 0) return fail("more than 8 ranks");
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return fail(cat("rank ", rank + 1, " has more than 8 squares"));
    } else if (std::size_t i = piece_letters.find(c); i != std::string_view::npos && c != ' ') {
      if (file >= 8) return fail(cat("rank ", rank + 1, " has more than 8 squares"));
      pos.put_piece(Piece(i), make_square(file++, rank));
    } else {
      return fail(cat("unexpected character '", c, "'"));
    }
  }
  if (rank != 0) return fail(cat(8 - rank, " ranks instead of 8"));
  if (file != 8) return fail(cat("rank 1 has ", file, " squares"));
  return true;
}

void FenAccess::parse_castling(Position& pos, std::string_view field, FenErrors& errors) {
  if (field == "-") return;
  for (char c : field) {
    const bool upper = c >= 'A' && c <= 'Z';
    const Color color = upper ? White : Black;
    const char lower = upper ? char(c - 'A' + 'a') : c;
    if (lower != 'k' && lower != 'q' && (lower < 'a' || lower > 'h')) {
      errors.problems.push_back(
          {FenError::BadCastling, cat("bad castling field '", field, "': '", c, "'")});
      return;
    }
    // The king must stand on its back rank; the rook is found from it.
    const Bitboard back_rank = rank_bb(relative_rank(color, 0));
    const Bitboard kings = pos.pieces(color, King) & back_rank;
    const Bitboard rooks = pos.pieces(color, Rook) & back_rank;
    auto missing = [&] {
      errors.problems.push_back(
          {FenError::CastlingWithoutRook,
           cat("castling right '", c, "' without its king and rook in place")});
    };
    if (popcount(pos.pieces(color, King)) != 1 || !kings) {
      missing();
      continue;
    }
    const Square ksq = lsb(kings);
    Square rsq = NoSquare;
    if (lower == 'k' || lower == 'q') {
      // X-FEN: the outermost rook on that side of the king.
      for (Bitboard b = rooks; b;) {
        Square s = pop_lsb(b);
        if (lower == 'k' && s > ksq) rsq = s;  // keeps the last, i.e. the outermost
        if (lower == 'q' && s < ksq && rsq == NoSquare) rsq = s;
      }
    } else {
      Square s = make_square(lower - 'a', relative_rank(color, 0));
      if (rooks & square_bb(s)) rsq = s;
    }
    if (rsq == NoSquare) {
      missing();
      continue;
    }
    const CastlingSide side = rsq > ksq ? KingSide : QueenSide;
    const std::uint8_t bit = castling_bit(color, side);
    if (pos.castling_ & bit) {
      errors.problems.push_back(
          {FenError::BadCastling, cat("bad castling field '", field, "': a right given twice")});
      return;
    }
    pos.castling_ |= bit;
    pos.castling_rook_[castling_index(color, side)] = rsq;
    if (file_of(ksq) != 4 || (file_of(rsq) != 0 && file_of(rsq) != 7)) pos.chess960_ = true;
  }
}

void FenAccess::check_board(const Position& pos, FenErrors& errors) {
  bool kings_ok = true;
  for (Color c : {White, Black}) {
    const char* name = c == White ? "White" : "Black";
    int kings = popcount(pos.pieces(c, King));
    if (kings == 0) errors.problems.push_back({FenError::MissingKing, cat(name, " has no king")});
    if (kings > 1)
      errors.problems.push_back({FenError::TooManyKings, cat(name, " has ", kings, " kings")});
    kings_ok &= kings == 1;
  }
  if (Bitboard p = pos.pieces(Pawn) & (rank_bb(0) | rank_bb(7)))
    errors.problems.push_back({FenError::PawnOnBackRank, cat("pawn on ", square_name(lsb(p)))});
  if (kings_ok) {
    const Color them = ~pos.side_;
    if (pos.attackers_to(pos.king_square(them)) & pos.pieces(pos.side_))
      errors.problems.push_back({FenError::OpponentInCheck,
                                 cat(them == White ? "White" : "Black", " is in check but it is ",
                                     pos.side_ == White ? "White" : "Black", " to move")});
  }
}

std::expected<Position, FenErrors> FenAccess::parse(std::string_view text) {
  FenErrors errors;
  Position pos{Position::Empty{}};
  const auto fields = split_fields(text);
  if (fields.size() < 4 || fields.size() > 6)
    errors.problems.push_back(
        {FenError::WrongFieldCount, cat("expected 4 to 6 fields, found ", fields.size())});
  if (fields.empty()) return std::unexpected(errors);

  const bool board_ok = parse_placement(pos, fields[0], errors);

  if (fields.size() > 1) {
    if (fields[1] == "w" || fields[1] == "W")
      pos.side_ = White;
    else if (fields[1] == "b" || fields[1] == "B")
      pos.side_ = Black;
    else
      errors.problems.push_back(
          {FenError::BadSideToMove, cat("bad side to move '", fields[1], "'")});
  }

  if (fields.size() > 2 && board_ok) parse_castling(pos, fields[2], errors);

  if (fields.size() > 3 && fields[3] != "-") {
    const auto f = fields[3];
    if (f.size() != 2 || f[0] < 'a' || f[0] > 'h' || f[1] < '1' || f[1] > '8') {
      errors.problems.push_back({FenError::BadEnPassant, cat("bad en passant square '", f, "'")});
    } else if (board_ok) {
      // Possible only if the side not to move just pushed a pawn two squares past it.
      const Square ep = make_square(f[0] - 'a', f[1] - '1');
      const Color us = pos.side_, them = ~us;
      const int up = us == White ? 8 : -8;
      const bool possible = rank_of(ep) == relative_rank(us, 5) &&
                            pos.piece_on(Square(ep - up)) == make_piece(them, Pawn) &&
                            pos.piece_on(ep) == NoPiece && pos.piece_on(Square(ep + up)) == NoPiece;
      if (!possible)
        errors.problems.push_back(
            {FenError::ImpossibleEnPassant,
             cat("en passant square ", f, " cannot follow a double pawn step")});
      else if (pawn_attacks(them, ep) & pos.pieces(us, Pawn))
        pos.ep_ = ep;
    }
  }

  unsigned number = 0;
  if (fields.size() > 4) {
    if (parse_number(fields[4], number) && number <= 0xFFFF)
      pos.halfmove_clock_ = std::uint16_t(number);
    else
      errors.problems.push_back(
          {FenError::BadHalfmoveClock, cat("bad halfmove clock '", fields[4], "'")});
  }
  if (fields.size() > 5) {
    // 0 is read as 1: some writers start counting at 0.
    if (parse_number(fields[5], number) && number <= 0xFFFF)
      pos.fullmove_number_ = std::uint16_t(number == 0 ? 1 : number);
    else
      errors.problems.push_back(
          {FenError::BadFullmoveNumber, cat("bad fullmove number '", fields[5], "'")});
  }

  if (board_ok) check_board(pos, errors);
  if (!errors.problems.empty()) return std::unexpected(std::move(errors));

  pos.key_ = pos.compute_key();
  pos.update_checkers();
  return pos;
}

bool FenErrors::has(FenError code) const {
  for (const auto& p : problems)
    if (p.code == code) return true;
  return false;
}

std::string FenErrors::message() const {
  std::string out;
  for (const auto& p : problems) {
    if (!out.empty()) out += "; ";
    out += p.message;
  }
  return out;
}

std::expected<Position, FenErrors> parse_fen(std::string_view fen) { return FenAccess::parse(fen); }

std::string to_fen(const Position& pos) {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      Piece p = pos.piece_on(make_square(file, rank));
      if (p == NoPiece) {
        ++empty;
        continue;
      }
      if (empty) out += char('0' + empty);
      empty = 0;
      out += piece_letters[p];
    }
    if (empty) out += char('0' + empty);
    if (rank) out += '/';
  }
  out += pos.side_to_move() == White ? " w " : " b ";

  const std::size_t castling_start = out.size();
  for (Color c : {White, Black}) {
    for (CastlingSide side : {KingSide, QueenSide}) {
      if (!pos.can_castle(c, side)) continue;
      const Square rsq = pos.castling_rook(c, side);
      // Another rook of the same colour further out on the back rank makes `K`/`Q` ambiguous.
      const Bitboard rooks = pos.pieces(c, Rook) & rank_bb(rank_of(rsq));
      const Bitboard beyond =
          side == KingSide ? rooks & ~(square_bb(rsq) * 2 - 1) : rooks & (square_bb(rsq) - 1);
      char letter = beyond ? char('a' + file_of(rsq)) : (side == KingSide ? 'k' : 'q');
      out += c == White ? char(letter - 'a' + 'A') : letter;
    }
  }
  if (out.size() == castling_start) out += '-';

  out += ' ';
  out += pos.en_passant() == NoSquare ? "-" : square_name(pos.en_passant());
  out += cat(" ", pos.halfmove_clock(), " ", pos.fullmove_number());
  return out;
}

}  // namespace pgn
