// The positions fuzz_san parses moves in (its first input byte picks one), shared with the seed
// generator. Each is here for a kind of move SAN has to get right.
#pragma once

#include <array>
#include <string_view>

namespace pgndb::fuzz {

inline constexpr std::array<std::string_view, 10> san_positions = {
    // The start.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Castling on both sides, for both colours.
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    // En passant (f6), beside a pawn that cannot take it.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Promotions, with and without capture, and a promotion that gives check.
    "1r2k3/P1P3P1/8/8/8/8/6p1/4K2R w K - 0 1",
    "4k3/8/8/8/8/8/1p4p1/R1N1K3 b - - 0 1",
    // Knights that need a file, a rank or both to tell apart; queens the same.
    "4k3/8/8/2N3N1/8/2N3N1/8/4K3 w - - 0 1",
    "4k3/8/8/8/1Q5Q/8/8/Q3K2Q w - - 0 1",
    // Chess960 castling (Shredder-FEN), the king beside its rook.
    "1r1kr3/8/8/8/8/8/8/1R1KR3 w EBeb - 0 1",
    // In check, with a pinned piece: few legal moves among many that look fine.
    "4k3/8/8/b7/8/8/3N4/r3K2R w K - 0 1",
};

}  // namespace pgndb::fuzz
