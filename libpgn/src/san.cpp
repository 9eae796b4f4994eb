#include "pgn/san.h"

#include <cctype>
#include <cstdlib>

#include "pgn/bitboard.h"
#include "pgn/fen.h"
#include "pgn/movegen.h"
#include "pgn/text.h"

namespace pgn {

namespace {

constexpr std::string_view piece_chars = "  NBRQK";  // indexed by PieceType

PieceType piece_from_letter(char c) {
  switch (c) {
    case 'N': return Knight;
    case 'B': return Bishop;
    case 'R': return Rook;
    case 'Q': return Queen;
    case 'K': return King;
    default: return NoPieceType;
  }
}

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

SanError make_error(SanErrorKind kind, const Position& pos, std::string_view text,
                    std::string_view detail = {}) {
  std::string_view what = kind == SanErrorKind::Syntax    ? "unreadable move"
                          : kind == SanErrorKind::Illegal ? "illegal move"
                                                          : "ambiguous move";
  std::string message = cat(what, " '", excerpt(text), "' in ", to_fen(pos));
  if (!detail.empty()) message += cat(" (", detail, ")");
  return {kind, std::move(message)};
}

// What a SAN, LAN or UCI token says about the move it names. -1 means "not given".
struct MoveSpec {
  PieceType piece = Pawn;
  int from_file = -1, from_rank = -1;
  Square to = NoSquare;
  PieceType promotion = NoPieceType;
};

// Strips what follows the move proper: check and mate signs, suffix annotations, "e.p.".
std::string_view strip_suffixes(std::string_view s) {
  for (bool changed = true; changed && !s.empty();) {
    changed = false;
    while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' ||
                          s.back() == '?' || s.back() == ' ')) {
      s.remove_suffix(1);
      changed = true;
    }
    if (s.empty() || (s.back() != '.' && s.back() != 'p')) break;  // the common case
    for (std::string_view ep : {"e.p.", "ep"}) {
      if (s.size() > ep.size() + 1 && s.ends_with(ep) && is_rank(s[s.size() - ep.size() - 1])) {
        s.remove_suffix(ep.size());
        changed = true;
      }
    }
  }
  return s;
}

bool parse_spec(std::string_view s, MoveSpec& spec) {
  // Separators of long algebraic and old notations carry nothing we need. No move in any
  // notation is longer than the buffer; anything longer is not a move.
  char buffer[16];
  std::size_t length = 0;
  for (char c : s) {
    if (c == 'x' || c == 'X' || c == '-' || c == ':') continue;
    if (length == sizeof buffer) return false;
    buffer[length++] = c;
  }
  if (length == 0) return false;
  const std::string_view t(buffer, length);

  std::size_t i = 0;
  if (PieceType pt = piece_from_letter(t[0]); pt != NoPieceType) {
    spec.piece = pt;
    i = 1;
  }

  // Promotion at the end: `=Q`, `(Q)`, `/Q` or a bare `Q` (lower case too, as UCI writes it).
  std::size_t end = t.size();
  if (end >= 3 && t[end - 1] == ')' && t[end - 3] == '(') {
    spec.promotion = piece_from_letter(char(std::toupper(t[end - 2])));
    if (spec.promotion == NoPieceType) return false;
    end -= 3;
  } else if (end >= 3 && is_rank(t[end - 2]) && spec.piece == Pawn) {
    spec.promotion = piece_from_letter(char(std::toupper(t[end - 1])));
    if (spec.promotion != NoPieceType) --end;
  } else if (end >= 4 && (t[end - 2] == '=' || t[end - 2] == '/')) {
    spec.promotion = piece_from_letter(char(std::toupper(t[end - 1])));
    if (spec.promotion == NoPieceType) return false;
    end -= 2;
  }
  if (end >= 1 && (t[end - 1] == '=' || t[end - 1] == '/')) --end;
  if (spec.promotion == King || (spec.promotion != NoPieceType && spec.piece != Pawn)) return false;

  if (end < i + 2 || !is_file(t[end - 2]) || !is_rank(t[end - 1])) return false;
  spec.to = make_square(t[end - 2] - 'a', t[end - 1] - '1');

  // Whatever stands between the piece letter and the destination disambiguates.
  std::string_view middle = t.substr(i, end - 2 - i);
  if (middle.size() > 2) return false;
  for (char c : middle) {
    if (is_file(c) && spec.from_file < 0 && spec.from_rank < 0)
      spec.from_file = c - 'a';
    else if (is_rank(c) && spec.from_rank < 0)
      spec.from_rank = c - '1';
    else
      return false;
  }
  return true;
}

bool matches(const Position& pos, Move m, const MoveSpec& spec, bool via_king_destination) {
  Square to = m.to();
  if (m.kind() == Move::Castling) {
    if (!via_king_destination) return false;
    to = Position::castling_king_destination(m);
  }
  if (to != spec.to || pos.moved_piece_type(m) != spec.piece) return false;
  if (spec.from_file >= 0 && file_of(m.from()) != spec.from_file) return false;
  if (spec.from_rank >= 0 && rank_of(m.from()) != spec.from_rank) return false;
  if (m.kind() == Move::Promotion) return m.promotion() == spec.promotion;
  return spec.promotion == NoPieceType;
}

// True when playing the non-castling move from -> to (capturing on `captured`, which differs
// from `to` only en passant) leaves the mover's king out of check.
bool leaves_king_safe(const Position& pos, Square from, Square to, Square captured) {
  const Color us = pos.side_to_move(), them = ~us;
  const bool king_moves = pos.piece_on(from) == make_piece(us, King);
  // Out of check, a piece off every line through its king exposes nothing by moving (en
  // passant, which also lifts the captured pawn, takes the full test).
  if (!king_moves && captured == to && !pos.in_check() && !line_bb(pos.king_square(us), from))
    return true;
  const Square ksq = king_moves ? to : pos.king_square(us);
  const Bitboard occupied =
      (pos.occupied() ^ square_bb(from) ^ square_bb(captured)) | square_bb(to);
  const Bitboard enemies = pos.pieces(them) & ~square_bb(captured);
  if ((pawn_attacks(us, ksq) & pos.pieces(Pawn) & enemies) |
      (knight_attacks(ksq) & pos.pieces(Knight) & enemies) |
      (king_attacks(ksq) & pos.pieces(King) & enemies))
    return false;
  Bitboard snipers = ((bishop_rays(ksq) & (pos.pieces(Bishop) | pos.pieces(Queen))) |
                      (rook_rays(ksq) & (pos.pieces(Rook) | pos.pieces(Queen)))) &
                     enemies;
  while (snipers) {
    const Square s = pop_lsb(snipers);
    if (!(between_bb(ksq, s) & occupied & ~square_bb(s))) return false;
  }
  return true;
}

// The one legal move `spec` names, found from the destination square backwards; Move::none()
// when there is not exactly one (the caller then searches all legal moves, and explains).
Move resolve_fast(const Position& pos, const MoveSpec& spec) {
  const Color us = pos.side_to_move();
  const Square to = spec.to;
  if (pos.pieces(us) & square_bb(to)) return Move::none();
  if (spec.from_file >= 0 && spec.from_rank >= 0) return Move::none();  // UCI / LAN: rare

  Bitboard from_mask = ~Bitboard(0);
  if (spec.from_file >= 0) from_mask &= file_bb(spec.from_file);
  if (spec.from_rank >= 0) from_mask &= rank_bb(spec.from_rank);

  if (spec.piece != Pawn) {
    if (spec.promotion != NoPieceType) return Move::none();
    // Sliders are tested by the squares between (small tables, in cache) instead of by an
    // attack-table lookup from the destination.
    const PieceType pt = spec.piece;
    const Bitboard reach = pt == Knight   ? knight_attacks(to)
                           : pt == King   ? king_attacks(to)
                           : pt == Bishop ? bishop_rays(to)
                           : pt == Rook   ? rook_rays(to)
                                          : bishop_rays(to) | rook_rays(to);
    Bitboard candidates = reach & pos.pieces(us, pt) & from_mask;
    const bool slider = pt == Bishop || pt == Rook || pt == Queen;
    Move found = Move::none();
    while (candidates) {
      Square from = pop_lsb(candidates);
      if (slider && (between_bb(from, to) & pos.occupied() & ~square_bb(to))) continue;
      if (!leaves_king_safe(pos, from, to, to)) continue;
      if (!found.is_none()) return Move::none();  // ambiguous
      found = Move(from, to);
    }
    return found;
  }

  // Pawns: a capture names the file it comes from; a push comes from straight behind.
  const int up = us == White ? 8 : -8;
  const bool last_rank = rank_of(to) == relative_rank(us, 7);
  if (last_rank != (spec.promotion != NoPieceType)) return Move::none();
  // No pawn reaches its own first rank, and the square it would come from is off the board.
  if (rank_of(to) == relative_rank(us, 0)) return Move::none();
  Square from = NoSquare;
  Square captured = to;
  Move::Kind kind = last_rank ? Move::Promotion : Move::Normal;
  if (spec.from_file >= 0 && spec.from_file != file_of(to)) {
    if (std::abs(spec.from_file - file_of(to)) != 1) return Move::none();
    from = make_square(spec.from_file, rank_of(to) - up / 8);
    if (to == pos.en_passant()) {
      captured = Square(to - up);
      kind = Move::EnPassant;
    } else if (!(pos.pieces(~us) & square_bb(to))) {
      return Move::none();
    }
  } else {
    if (pos.piece_on(to) != NoPiece) return Move::none();
    from = Square(to - up);
    if (pos.piece_on(from) == NoPiece && rank_of(to) == relative_rank(us, 3))
      from = Square(to - 2 * up);
  }
  if (pos.piece_on(from) != make_piece(us, Pawn) || !(from_mask & square_bb(from)))
    return Move::none();
  if (!leaves_king_safe(pos, from, to, captured)) return Move::none();
  return kind == Move::Promotion ? Move(from, to, kind, spec.promotion) : Move(from, to, kind);
}

std::expected<Move, SanError> parse_castling(const Position& pos, std::string_view text,
                                             CastlingSide side) {
  for (Move m : legal_moves(pos))
    if (m.kind() == Move::Castling && (side == KingSide) == (m.to() > m.from())) return m;
  return std::unexpected(make_error(SanErrorKind::Illegal, pos, text));
}

}  // namespace

std::expected<Move, SanError> parse_san(const Position& pos, std::string_view text) {
  std::string_view s = strip_suffixes(text);
  if (s.empty()) return std::unexpected(make_error(SanErrorKind::Syntax, pos, text));

  // Null moves and castling start with one of these; ordinary moves never do.
  if (const char c = s[0]; c == '-' || c == 'Z' || c == '0' || c == '@' || c == 'O') {
    if (s == "--" || s == "Z0" || s == "0000" || s == "@@@@") {
      if (pos.in_check())
        return std::unexpected(
            make_error(SanErrorKind::Illegal, pos, text, "a null move while in check"));
      return Move::null();
    }
    if (s == "O-O" || s == "0-0" || s == "OO" || s == "00")
      return parse_castling(pos, text, KingSide);
    if (s == "O-O-O" || s == "0-0-0" || s == "OOO" || s == "000")
      return parse_castling(pos, text, QueenSide);
  }

  MoveSpec spec;
  if (!parse_spec(s, spec)) return std::unexpected(make_error(SanErrorKind::Syntax, pos, text));

  // Nearly every move in real games resolves here, without generating all legal moves.
  if (Move m = resolve_fast(pos, spec); !m.is_none()) return m;

  const MoveList moves = legal_moves(pos);
  // UCI writes a pawn's or a king's origin square in full: `e2e4`, `e1g1`. A bare origin square
  // names a piece by where it stands, whatever it is.
  const bool full_origin = spec.from_file >= 0 && spec.from_rank >= 0;
  if (full_origin && spec.piece == Pawn) {
    Square from = make_square(spec.from_file, spec.from_rank);
    if (pos.piece_on(from) != NoPiece) spec.piece = type_of(pos.piece_on(from));
  }

  Move found = Move::none();
  int count = 0;
  for (Move m : moves) {
    if (matches(pos, m, spec, false)) {
      found = m;
      ++count;
    }
  }
  // A king's two-square step (`Kg1`, `e1g1`) or king-takes-rook (`e1h1`) names castling.
  if (count == 0 && spec.piece == King) {
    for (Move m : moves) {
      if (m.kind() != Move::Castling) continue;
      bool rook_square = full_origin && m.to() == spec.to &&
                         m.from() == make_square(spec.from_file, spec.from_rank);
      if (matches(pos, m, spec, true) || rook_square) {
        found = m;
        ++count;
      }
    }
  }

  if (count == 1) return found;
  if (count == 0) {
    std::string_view detail;
    if (spec.piece == Pawn && spec.promotion == NoPieceType &&
        (rank_of(spec.to) == 0 || rank_of(spec.to) == 7))
      detail = "no promotion piece given";
    return std::unexpected(make_error(SanErrorKind::Illegal, pos, text, detail));
  }
  std::string candidates;
  for (Move m : moves) {
    if (matches(pos, m, spec, spec.piece == King)) {
      if (!candidates.empty()) candidates += ", ";
      candidates += to_san(pos, m);
    }
  }
  return std::unexpected(make_error(SanErrorKind::Ambiguous, pos, text, candidates));
}

std::string to_san(const Position& pos, Move m) {
  if (m.is_null()) return "--";
  std::string san;
  if (m.kind() == Move::Castling) {
    san = m.to() > m.from() ? "O-O" : "O-O-O";
  } else {
    const PieceType pt = pos.moved_piece_type(m);
    const Square from = m.from(), to = m.to();
    if (pt == Pawn) {
      if (pos.is_capture(m)) {
        san += char('a' + file_of(from));
        san += 'x';
      }
      san += square_name(to);
      if (m.kind() == Move::Promotion) {
        san += '=';
        san += piece_chars[m.promotion()];
      }
    } else {
      san += piece_chars[pt];
      // Other pieces of the same kind that could also reach `to`; only legal moves count.
      Bitboard others = attacks_bb(pt, to, pos.occupied()) & pos.pieces(pos.side_to_move(), pt) &
                        ~square_bb(from);
      if (others && pt != King) {
        bool same_file = false, same_rank = false, any = false;
        for (Move o : legal_moves(pos)) {
          if (o.to() != to || o.from() == from || !(others & square_bb(o.from()))) continue;
          any = true;
          same_file |= file_of(o.from()) == file_of(from);
          same_rank |= rank_of(o.from()) == rank_of(from);
        }
        if (any) {
          if (!same_file)
            san += char('a' + file_of(from));
          else if (!same_rank)
            san += char('1' + rank_of(from));
          else
            san += square_name(from);
        }
      }
      if (pos.is_capture(m)) san += 'x';
      san += square_name(to);
    }
  }
  Position after = pos;
  after.play(m);
  if (after.in_check()) san += has_legal_move(after) ? '+' : '#';
  return san;
}

std::string to_uci(const Position& pos, Move m) {
  if (m.is_null()) return "0000";
  Square to = m.to();
  if (m.kind() == Move::Castling && !pos.is_chess960()) to = Position::castling_king_destination(m);
  std::string uci = square_name(m.from()) + square_name(to);
  if (m.kind() == Move::Promotion) uci += char(piece_chars[m.promotion()] - 'A' + 'a');
  return uci;
}

}  // namespace pgn
