// SAN (and the other notations parse_san reads) on any text, in a few fixed positions, in
// English and in another language's piece letters (figurines in any).
//
// Input: the first byte picks a position of san_positions.h and a language of
// piece_letter_languages(); the rest is the move text.
// Checks: a move that parses is a legal move of the position (or the null move); its canonical
// SAN and its UCI form parse back to the same move; the canonical SAN with a suffix annotation
// does too. Read in the language, a move is legal, and its English SAN reads back as it; its
// SAN written in the language's letters (each English letter replaced) reads back as it there.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.h"
#include "pgn/fen.h"
#include "pgn/movegen.h"
#include "pgn/piece_letters.h"
#include "pgn/san.h"
#include "san_positions.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& positions = pgndb::fuzz::san_positions;
  static const auto parsed_positions = [&] {
    std::array<pgn::Position, positions.size()> all;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      auto pos = pgn::parse_fen(positions[i]);
      FUZZ_CHECK(pos);
      all[i] = *pos;
    }
    return all;
  }();
  const pgn::Position& pos = parsed_positions[data[0] % positions.size()];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);

  const auto languages = pgn::piece_letter_languages();
  const pgn::PieceLetters& language = languages[(data[0] / positions.size()) % languages.size()];
  if (auto local = pgn::parse_san(pos, text, language)) {
    if (!local->is_null()) {
      FUZZ_CHECK(pgn::legal_moves(pos).contains(*local));
      const std::string english = pgn::to_san(pos, *local);
      auto back = pgn::parse_san(pos, english);
      FUZZ_CHECK(back && *back == *local);
      std::string written;
      for (char c : english) {
        const std::string_view letters = "NBRQK";
        const auto at = letters.find(c);
        written += at == std::string_view::npos ? c : language.letters[at];
      }
      auto again = pgn::parse_san(pos, written, language);
      FUZZ_CHECK(again && *again == *local);
    }
  } else {
    FUZZ_CHECK(!local.error().message.empty());
  }

  auto move = pgn::parse_san(pos, text);
  if (!move) {
    FUZZ_CHECK(!move.error().message.empty());
    return 0;
  }
  if (move->is_null()) return 0;
  FUZZ_CHECK(pgn::legal_moves(pos).contains(*move));
  const std::string san = pgn::to_san(pos, *move);
  auto again = pgn::parse_san(pos, san);
  FUZZ_CHECK(again && *again == *move);
  auto annotated = pgn::parse_san(pos, san + "!?");
  FUZZ_CHECK(annotated && *annotated == *move);
  auto uci = pgn::parse_san(pos, pgn::to_uci(pos, *move));
  FUZZ_CHECK(uci && *uci == *move);
  return 0;
}
