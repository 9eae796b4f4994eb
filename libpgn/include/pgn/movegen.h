// Legal move generation. Moves are generated legal directly (check and pin masks), not
// generated pseudo-legal and filtered, so counting them needs no make/unmake.
#pragma once

#include <cstddef>

#include "pgn/position.h"
#include "pgn/types.h"

namespace pgn {

// The most legal moves a reachable position has is 218, but FEN can set up more pieces than a
// game can have (one such position has 270 moves), hence the room. A fixed array, never the heap.
class MoveList {
 public:
  static constexpr std::size_t capacity = 512;

  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](std::size_t i) const { return moves_[i]; }
  bool contains(Move m) const;

  void push_back(Move m) { moves_[size_++] = m; }
  void clear() { size_ = 0; }

 private:
  Move moves_[capacity];
  std::size_t size_ = 0;
};

// Fills `list` (cleared first) with every legal move of `pos`.
void generate_legal_moves(const Position& pos, MoveList& list);
inline MoveList legal_moves(const Position& pos) {
  MoveList list;
  generate_legal_moves(pos, list);
  return list;
}
// The number of legal moves, without building the list (promotions count four times).
[[nodiscard]] int count_legal_moves(const Position& pos);
[[nodiscard]] bool has_legal_move(const Position& pos);
// Whether a legal en passant capture exists (only then does the en passant square make a
// position differ, for repetitions and position keys).
[[nodiscard]] bool has_legal_en_passant(const Position& pos);

}  // namespace pgn
