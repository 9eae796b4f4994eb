#include "pgndb/serve/game_json.h"

#include <charconv>
#include <string>

#include "pgn/fen.h"
#include "pgn/game.h"
#include "pgn/piece_letters.h"
#include "pgn/san.h"
#include "pgn/time_control.h"

namespace pgndb::serve {

namespace {

Json strings(const std::vector<std::string>& texts) {
  Json out = Json::array();
  for (const auto& t : texts) out.push_back(t);
  return out;
}

// The moves of `line`, played from `pos` (which is left as it was).
Json line_json(const pgn::Line& line, pgn::Position pos, unsigned first_ply,
               const pgn::WriterOptions& writing) {
  Json moves = Json::array();
  unsigned ply = first_ply;
  for (const pgn::MoveNode& node : line) {
    Json m;
    m["ply"] = ply;
    m["san"] = pgn::written_san(pgn::to_san(pos, node.move), writing);
    m["uci"] = pgn::to_uci(pos, node.move);
    if (!node.comments_before.empty()) m["comments_before"] = strings(node.comments_before);
    if (!node.variations.empty()) {
      Json variations = Json::array();
      for (const pgn::Line& variation : node.variations)
        variations.push_back(line_json(variation, pos, ply, writing));
      m["variations"] = std::move(variations);
    }
    pos.play_or_pass(node.move);
    m["fen"] = pgn::to_fen(pos);
    if (!node.nags.empty()) {
      Json nags = Json::array();
      for (std::uint8_t nag : node.nags) nags.push_back(nag);
      m["nags"] = std::move(nags);
    }
    if (!node.comments_after.empty()) m["comments_after"] = strings(node.comments_after);
    if (!node.comments_after_variations.empty())
      m["comments_after_variations"] = strings(node.comments_after_variations);
    moves.push_back(std::move(m));
    ++ply;
  }
  return moves;
}

// The number at the start of `text` (a rating, a year), or null.
Json leading_number(std::string_view text, std::size_t digits) {
  unsigned n = 0;
  if (text.size() < digits) return nullptr;
  const auto [end, error] = std::from_chars(text.data(), text.data() + digits, n);
  if (error != std::errc() || end != text.data() + digits) return nullptr;
  return n;
}

Json player(const pgn::GameRecord& game, std::string_view name_tag, std::string_view elo_tag) {
  const std::string* name = game.tag(name_tag);
  const std::string* elo = game.tag(elo_tag);
  Json p;
  p["name"] = name ? *name : "?";
  Json rating = elo ? leading_number(*elo, elo->size()) : Json(nullptr);
  p["rating"] = rating.is_number() && rating.get<unsigned>() > 0 ? rating : Json(nullptr);
  return p;
}

}  // namespace

Json game_json(std::uint32_t id, const pgn::GameRecord& game, const pgn::WriterOptions& writing) {
  std::vector<pgn::Move> main_line;
  main_line.reserve(game.moves.size());
  for (const pgn::MoveNode& node : game.moves) main_line.push_back(node.move);
  // What the index keeps of the game, found from its moves here.
  index::GameSummary summary;
  const pgn::GameEnding ending = pgn::game_ending(game.start, main_line);
  summary.ending = ending.ending;
  summary.repetition = ending.repetition;
  summary.fifty_moves = ending.fifty_moves;
  summary.opening_id = pgn::opening_of(game);
  Json out = listed_game(id, game, &summary);
  out["start"] = pgn::to_fen(game.start);
  if (!game.leading_comments.empty()) out["leading_comments"] = strings(game.leading_comments);
  out["moves"] = line_json(game.moves, game.start, 1, writing);
  return out;
}

Json opening_json(pgn::OpeningId id) {
  const auto all = pgn::openings();
  if (id == 0 || id >= all.size()) return nullptr;
  Json out;
  out["eco"] = all[id].eco;
  out["name"] = all[id].name;
  return out;
}

Json listed_game(std::uint32_t id, const pgn::GameRecord& game, const index::GameSummary* summary) {
  Json out;
  out["id"] = id;
  out["result"] = game.result;
  if (summary) {
    out["ending"] = pgn::to_text(summary->ending);
    out["repetition"] = summary->repetition;
    out["fifty_moves"] = summary->fifty_moves;
    out["opening"] = opening_json(summary->opening_id);
  }
  Json tags = Json::object();
  for (const auto& [name, value] : game.tags) tags[name] = value;
  out["tags"] = std::move(tags);
  return out;
}

std::string json_text(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json explorer_game(std::uint32_t id, const pgn::GameRecord& game) {
  Json out;
  out["id"] = std::to_string(id);
  out["winner"] = game.result == "1-0"   ? Json("white")
                  : game.result == "0-1" ? Json("black")
                                         : Json(nullptr);
  out["white"] = player(game, "White", "WhiteElo");
  out["black"] = player(game, "Black", "BlackElo");
  // The Date tag, or where its year is unknown the UTCDate tag (lichess's exports of its first
  // years wrote `????.??.??` and the date in UTCDate).
  const std::string* date = game.tag("Date");
  if (!date || !leading_number(*date, 4).is_number())
    if (const std::string* utc = game.tag("UTCDate")) date = utc;
  const Json year = date ? leading_number(*date, 4) : Json(nullptr);
  out["year"] = year;
  out["month"] = nullptr;
  if (year.is_number() && date->size() >= 7 && (*date)[4] == '.' &&
      leading_number(std::string_view(*date).substr(5), 2).is_number())
    out["month"] = date->substr(0, 4) + "-" + date->substr(5, 2);
  return out;
}

Json lichess_game(std::uint32_t id, const pgn::GameRecord& game) {
  const Json masters = explorer_game(id, game);
  Json out;
  for (const auto& [key, value] : masters.items()) {
    out[key] = value;
    if (key != "winner") continue;
    const std::string* time_control = game.tag("TimeControl");
    out["speed"] = pgn::to_text(pgn::speed_of_time_control(time_control ? *time_control : ""));
    if (const std::string* event = game.tag("Event")) {
      if (event->starts_with("Rated ")) out["mode"] = "rated";
      if (event->starts_with("Casual ")) out["mode"] = "casual";
    }
  }
  return out;
}

}  // namespace pgndb::serve
