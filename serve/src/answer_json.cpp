#include "pgndb/serve/answer_json.h"

#include "pgn/game.h"
#include "pgn/openings.h"

#include "pgn/san.h"

namespace pgndb::serve {

Json tree_row_json(const query::TreeRow& row, const pgn::Position& root) {
  const bool end = row.move == pgn::Move::none();
  Json m;
  m["san"] = end ? Json(nullptr) : Json(row.san);
  m["uci"] = end ? Json(nullptr) : Json(pgn::to_uci(root, row.move));
  m["games"] = row.games;
  m["white_wins"] = row.white_wins;
  m["draws"] = row.draws;
  m["black_wins"] = row.black_wins;
  m["average_elo"] = row.average_elo;
  m["performance"] = row.performance;
  m["last_year"] = row.last_year;
  // The opening named at the position the move leads to (pgn/openings.h), or null.
  Json opening = nullptr;
  if (!end) {
    pgn::Position after = root;
    after.play(row.move);
    opening = opening_json(pgn::opening_at(pgn::repetition_key(after)));
  }
  m["opening"] = std::move(opening);
  return m;
}

Json stats_json(const index::StoreStats& stats) {
  Json out;
  out["games"] = stats.games;
  out["rejects"] = stats.rejects;
  out["sources"] = stats.sources;
  out["positions"] = stats.positions;
  out["position_generations"] = stats.position_generations;
  out["duplicates"] = stats.duplicates;
  out["players"] = stats.players;
  out["first_date"] = stats.first_date;
  out["last_date"] = stats.last_date;
  Json bytes = Json::object();
  std::uint64_t total = 0;
  for (const auto& [part, n] : stats.bytes_by_part) {
    bytes[part] = n;
    total += n;
  }
  out["bytes"] = std::move(bytes);
  out["bytes_total"] = total;
  out["bytes_per_game"] = stats.games ? double(total) / double(stats.games) : 0.0;
  return out;
}

}  // namespace pgndb::serve
