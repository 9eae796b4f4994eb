#include "pgn/perft.h"

#include "pgn/movegen.h"

namespace pgn {

namespace {

// Bulk counting: the last ply is counted from the move generator, never played.
std::uint64_t perft_inner(const Position& pos, int depth) {
  if (depth == 1) return std::uint64_t(count_legal_moves(pos));
  MoveList moves;
  generate_legal_moves(pos, moves);
  std::uint64_t nodes = 0;
  for (Move m : moves) {
    Position next = pos;
    next.play(m);
    nodes += perft_inner(next, depth - 1);
  }
  return nodes;
}

}  // namespace

std::uint64_t perft(const Position& pos, int depth) {
  return depth <= 0 ? 1 : perft_inner(pos, depth);
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& pos, int depth) {
  std::vector<std::pair<Move, std::uint64_t>> result;
  for (Move m : legal_moves(pos)) {
    Position next = pos;
    next.play(m);
    result.emplace_back(m, perft(next, depth - 1));
  }
  return result;
}

}  // namespace pgn
