// The material on the board (each side's pawns, knights, bishops, rooks and queens; the kings are
// always there) and how it changes along a game: the facts a material search (material_spec.h)
// is asked about.
//
// Material changes only on a capture or a promotion, a handful of times a game, so a game's
// material is kept as its runs: the balance it started with and each later balance with the ply
// from which it holds.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "pgn/bitboard.h"
#include "pgn/position.h"

namespace pgn {

// How many pieces of each kind each side has: count[color][type - Pawn] for Pawn..Queen. A count
// above `most` is kept as `most`: no game reaches 16 pieces of a kind (a side has 15 beside its
// king), but a FEN may set them up (fen.h), and the index keeps a count in 4 bits.
struct MaterialBalance {
  static constexpr unsigned most = 15;
  std::array<std::array<std::uint8_t, 5>, 2> count{};

  [[nodiscard]] static MaterialBalance of(const Position& position);
  [[nodiscard]] static MaterialBalance start() {  // the initial position's
    return MaterialBalance{{{{8, 2, 2, 2, 1}, {8, 2, 2, 2, 1}}}};
  }
  unsigned of(Color c, PieceType t) const { return count[c][t - Pawn]; }
  // The balance with the colours swapped.
  [[nodiscard]] MaterialBalance swapped() const { return MaterialBalance{{count[1], count[0]}}; }
  bool operator==(const MaterialBalance&) const = default;
};

// A game's main line as material: its balances, each from the ply it first holds to the next's.
struct MaterialHistory {
  struct Run {
    std::uint16_t ply;  // the number of plies played when this balance first holds
    MaterialBalance balance;
  };
  std::vector<Run> runs;    // runs.front().ply == 0; each run's balance differs from the last
  std::uint16_t plies = 0;  // the main line's length
  // The squares each side's pawns stood on in the main line's positions (its first, and each
  // after a move followed): a board with a pawn of one colour on a square is reached only in a
  // game whose union for that colour holds the square, so a pattern search skips the others
  // without replaying them. Every square when not known (a database of schema 22 kept none).
  std::array<Bitboard, 2> pawn_squares{~Bitboard(0), ~Bitboard(0)};
  // The squares each side's rooks stood on there: exactly those when followed from the game,
  // their whole ranks when read back from the index (it keeps the ranks: a board with a white
  // rook on the seventh is reached only in a game whose white rooks stood on that rank), every
  // square when not known (a database of schema 23 kept none). Rooks alone: their ranks prune
  // the patterns most asked (the seventh, the back rank) for 2 bytes a game; every kind's took
  // 10 (2.2 MB on the corpus, past the material index's tenth of the database).
  std::array<Bitboard, 2> rook_squares{~Bitboard(0), ~Bitboard(0)};

  // The final position's balance.
  const MaterialBalance& final_balance() const { return runs.back().balance; }
  // How many plies the run `i` lasts: moves played from positions holding it (the final
  // position's run lasts until the last move, so a balance reached by the last move lasts 0).
  unsigned length(std::size_t i) const {
    return (i + 1 < runs.size() ? runs[i + 1].ply : plies) - runs[i].ply;
  }
};

// Follows a game move by move into a MaterialHistory: call start() with the first position, then
// played() with each main-line position after a move (a legal move, or a pass: the counts of
// the side that moved are made again only when its pawns are fewer).
class MaterialTracker {
 public:
  void start(const Position& position);
  // Called at every ply of every game imported, so the usual case (no capture, no promotion:
  // the numbers of pieces and of pawns unchanged) is decided here, inline.
  void played(const Position& after) {
    // The plies are counted to 65,535, as a game's summary counts them; later moves are not
    // followed (no game is that long but one of null moves).
    if (history_.plies == 65535) return;
    ++history_.plies;
    history_.pawn_squares[White] |= after.pieces(White, Pawn);
    history_.pawn_squares[Black] |= after.pieces(Black, Pawn);
    history_.rook_squares[White] |= after.pieces(White, Rook);
    history_.rook_squares[Black] |= after.pieces(Black, Rook);
    const int pieces = popcount(after.occupied()), pawns = popcount(after.pieces(Pawn));
    if (pieces != pieces_ || pawns != pawns_) changed(after, pieces, pawns);
  }
  // Forgets the game followed, keeping the memory of its runs.
  void clear() {
    history_.runs.clear();
    history_.plies = 0;
    history_.pawn_squares = {};
    history_.rook_squares = {};
  }
  [[nodiscard]] const MaterialHistory& history() const { return history_; }
  [[nodiscard]] MaterialHistory take() { return std::move(history_); }

 private:
  void changed(const Position& after, int pieces, int pawns);

  MaterialHistory history_;
  int pieces_ = 0, pawns_ = 0;  // on the board at the last position
};

}  // namespace pgn
