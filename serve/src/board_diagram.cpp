#include "pgndb/serve/board_diagram.h"

#include "pgn/text.h"

namespace pgndb::serve {

namespace {

// Figurines by piece type (Pawn..King), White's set and Black's.
constexpr std::string_view white_figurines[] = {"", "♙", "♘", "♗", "♖", "♕", "♔"};
constexpr std::string_view black_figurines[] = {"", "♟", "♞", "♝", "♜", "♛", "♚"};
constexpr char fen_letters[] = " pnbrqk";

char fen_letter(pgn::Piece p) {
  const char c = fen_letters[pgn::type_of(p)];
  return pgn::color_of(p) == pgn::White ? char(c - 'a' + 'A') : c;
}

std::string square_name(pgn::Square s) {
  return {char('a' + pgn::file_of(s)), char('1' + pgn::rank_of(s))};
}

bool marked(const DiagramOptions& options, pgn::Square s) {
  const pgn::Move m = options.last_move;
  if (m == pgn::Move::none() || m.is_null()) return false;
  // Castling is stored as the king taking its rook: the king's square is the one to mark.
  const pgn::Square to =
      m.kind() == pgn::Move::Castling ? pgn::Position::castling_king_destination(m) : m.to();
  return m.from() == s || to == s;
}

// The squares in the order a diagram shows them: top row first, left to right.
pgn::Square shown_square(const DiagramOptions& options, int row, int column) {
  return options.black_at_bottom ? pgn::make_square(7 - column, row)
                                 : pgn::make_square(column, 7 - row);
}

}  // namespace

std::string unicode_board(const pgn::Position& pos, const DiagramOptions& options) {
  std::string out;
  for (int row = 0; row < 8; ++row) {
    const pgn::Square first = shown_square(options, row, 0);
    out += pgn::cat("  ", char('1' + pgn::rank_of(first)), ' ');
    for (int column = 0; column < 8; ++column) {
      const pgn::Square s = shown_square(options, row, column);
      const pgn::Piece p = pos.piece_on(s);
      const std::string_view figure = p == pgn::NoPiece ? "·"
                                      : pgn::color_of(p) == pgn::White
                                          ? white_figurines[pgn::type_of(p)]
                                          : black_figurines[pgn::type_of(p)];
      const bool mark = marked(options, s);
      out += mark ? "[" : " ";
      out += figure;
      out += mark ? "]" : " ";
    }
    out += '\n';
  }
  out += "    ";
  for (int column = 0; column < 8; ++column)
    out += pgn::cat(' ', char('a' + pgn::file_of(shown_square(options, 7, column))), ' ');
  out += '\n';
  return out;
}

std::string svg_board(const pgn::Position& pos, const DiagramOptions& options) {
  constexpr int square = 45, margin = 20, board = 8 * square;
  std::string out =
      pgn::cat("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", board + 2 * margin,
               "\" height=\"", board + 2 * margin, "\" viewBox=\"0 0 ", board + 2 * margin, ' ',
               board + 2 * margin, "\" font-family=\"DejaVu Sans, Segoe UI Symbol, sans-serif\">\n",
               "<rect width=\"100%\" ", "height=\"100%\" fill=\"#ffffff\"/>\n");
  for (int row = 0; row < 8; ++row) {
    for (int column = 0; column < 8; ++column) {
      const pgn::Square s = shown_square(options, row, column);
      const int x = margin + column * square, y = margin + row * square;
      const bool light = (pgn::file_of(s) + pgn::rank_of(s)) % 2 == 1;
      out += pgn::cat("<rect x=\"", x, "\" y=\"", y, "\" width=\"", square, "\" height=\"", square,
                      "\" fill=\"", light ? "#f0d9b5" : "#b58863", "\"/>\n");
      if (marked(options, s))
        out += pgn::cat("<rect x=\"", x, "\" y=\"", y, "\" width=\"", square, "\" height=\"",
                        square, "\" fill=\"#cdd26a\" fill-opacity=\"0.8\"/>\n");
      const pgn::Piece p = pos.piece_on(s);
      if (p == pgn::NoPiece) continue;
      // The solid figurine for both sides, filled white or black: it reads the same in every
      // font, where the outlined set differs from font to font.
      const bool white = pgn::color_of(p) == pgn::White;
      out += pgn::cat("<text data-square=\"", square_name(s), "\" data-piece=\"", fen_letter(p),
                      "\" x=\"", x + square / 2, "\" y=\"", y + square * 4 / 5,
                      "\" font-size=\"38\" text-anchor=\"middle\" fill=\"",
                      white ? "#ffffff" : "#000000", "\" stroke=\"#000000\" stroke-width=\"",
                      white ? "1.2" : "0.5", "\">", black_figurines[pgn::type_of(p)], "</text>\n");
    }
  }
  for (int i = 0; i < 8; ++i) {
    const pgn::Square rank_square = shown_square(options, i, 0);
    const pgn::Square file_square = shown_square(options, 7, i);
    out += pgn::cat("<text x=\"", margin / 2, "\" y=\"", margin + i * square + square / 2 + 5,
                    "\" font-size=\"13\" text-anchor=\"middle\">",
                    char('1' + pgn::rank_of(rank_square)), "</text>\n");
    out += pgn::cat("<text x=\"", margin + i * square + square / 2, "\" y=\"", board + margin + 15,
                    "\" font-size=\"13\" text-anchor=\"middle\">",
                    char('a' + pgn::file_of(file_square)), "</text>\n");
  }
  out += "</svg>\n";
  return out;
}

}  // namespace pgndb::serve
