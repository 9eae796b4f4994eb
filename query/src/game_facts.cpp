#include "pgndb/query/game_facts.h"

#include <charconv>

#include "pgn/game.h"

namespace pgndb::query {

std::optional<std::size_t> first_ply_at(const pgn::GameRecord& game, pgn::Key key) {
  pgn::Position pos = game.start;
  for (std::size_t ply = 0;; ++ply) {
    if (pgn::repetition_key(pos) == key) return ply;
    if (ply == game.moves.size()) return std::nullopt;
    const pgn::Move m = game.moves[ply].move;
    if (m.is_null())
      pos.play_null();
    else
      pos.play(m);
  }
}

std::optional<unsigned> number_tag(const pgn::GameRecord& game, std::string_view name,
                                   std::size_t length) {
  const std::string* text = game.tag(name);
  if (!text) return std::nullopt;
  const std::string_view digits = std::string_view(*text).substr(0, length);
  unsigned v = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (error != std::errc() || end != digits.data() + digits.size() || v == 0) return std::nullopt;
  return v;
}

}  // namespace pgndb::query
