// FEN on any text, and SAN over the positions it accepts.
//
// Checks: a FEN that parses is written (to_fen) as a FEN that parses to the same position and is
// written the same way again; every legal move of the position has a SAN (and a UCI form) that
// parses back to that move, and the move can be played.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.h"
#include "pgn/fen.h"
#include "pgn/movegen.h"
#include "pgn/san.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto pos = pgn::parse_fen(text);
  if (!pos) {
    FUZZ_CHECK(!pos.error().problems.empty());
    return 0;
  }
  const std::string fen = pgn::to_fen(*pos);
  auto again = pgn::parse_fen(fen);
  FUZZ_CHECK(again);
  FUZZ_CHECK(*again == *pos);
  FUZZ_CHECK(pgn::to_fen(*again) == fen);

  const pgn::MoveList moves = pgn::legal_moves(*pos);
  FUZZ_CHECK(std::size_t(pgn::count_legal_moves(*pos)) == moves.size());
  for (pgn::Move m : moves) {
    const std::string san = pgn::to_san(*pos, m);
    auto parsed = pgn::parse_san(*pos, san);
    FUZZ_CHECK(parsed && *parsed == m);
    auto uci = pgn::parse_san(*pos, pgn::to_uci(*pos, m));
    FUZZ_CHECK(uci && *uci == m);
    pgn::Position after = *pos;
    after.play(m);
    // A legal move never leaves its own king attacked.
    const pgn::Color mover = pos->side_to_move();
    FUZZ_CHECK(after.side_to_move() != mover);
    FUZZ_CHECK(
        !(after.attackers_to(after.king_square(mover)) & after.pieces(after.side_to_move())));
  }
  return 0;
}
