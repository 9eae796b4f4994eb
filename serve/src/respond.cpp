#include "pgndb/serve/respond.h"

#include <algorithm>
#include <charconv>
#include <exception>
#include <optional>
#include <unordered_map>
#include <vector>

#include "assets.h"
#include "pgn/fen.h"
#include "pgn/game.h"
#include "pgn/openings.h"
#include "pgn/san.h"
#include "pgn/text.h"
#include "pgn/writer.h"
#include "pgndb/query/filters.h"
#include "pgndb/query/search.h"
#include "pgndb/query/tree.h"
#include "pgndb/serve/answer_json.h"
#include "pgndb/serve/board_diagram.h"
#include "pgndb/serve/game_json.h"
#include "pgndb/serve/parameters.h"
#include "pgndb/serve/query_string.h"
#include "zstd_stream.h"

namespace pgndb::serve {

namespace {

struct Failure {
  int status;
  std::string message;
};
using Answer = std::expected<Response, Failure>;

Failure bad(std::string message) {
  // The filters' messages name the CLI's option (`--date: ...`); a parameter has no dashes.
  if (message.starts_with("--")) message.erase(0, 2);
  return {400, std::move(message)};
}
Failure failed(const index::Status& status) { return {500, status.message()}; }

Response json_response(const Json& body) { return {200, "application/json", json_text(body), {}}; }

// The number at the end of a path such as /api/game/17; nothing unless it is all digits.
std::optional<std::uint32_t> trailing_id(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix)) return std::nullopt;
  const std::string_view digits = path.substr(prefix.size());
  std::uint32_t id = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
    return std::nullopt;
  return id;
}

std::expected<pgn::GameRecord, Failure> stored_game(const index::Store& store, std::uint32_t id) {
  if (id == 0 || id > store.game_count())
    return std::unexpected(Failure{404, pgn::cat("no game ", id, " (the database holds games 1 to ",
                                                 store.game_count(), ")")});
  auto game = store.game(id);
  if (!game) return std::unexpected(failed(game.error()));
  return std::move(*game);
}

// ---- the explorer in lichess's format ------------------------------------------------------

// Whether `uci` has the shape of a move in UCI notation: two squares and maybe a promotion.
bool uci_shaped(std::string_view uci) {
  return (uci.size() == 4 || uci.size() == 5) && uci[0] >= 'a' && uci[0] <= 'h' && uci[1] >= '1' &&
         uci[1] <= '8' && uci[2] >= 'a' && uci[2] <= 'h' && uci[3] >= '1' && uci[3] <= '8' &&
         (uci.size() == 4 || std::string_view("qrbn").find(uci[4]) != std::string_view::npos);
}

// The position of a `fen` parameter; the start when it is absent or empty.
std::expected<pgn::Position, Failure> position_of(std::string_view fen) {
  if (fen.empty()) return pgn::Position();
  auto parsed = pgn::parse_fen(fen);
  if (!parsed) return std::unexpected(bad(pgn::cat("fen: '", fen, "' is not a position")));
  return *parsed;
}

// `pos` after the UCI moves of `play` (comma-separated; castling as e1g1 or e1h1). With `named`,
// the opening (pgn/openings.h) named deepest along the line, `pos` included: lichess's explorer
// names a position by it.
std::expected<pgn::Position, Failure> play_uci(pgn::Position pos, std::string_view play,
                                               pgn::OpeningId* named = nullptr) {
  auto note = [&] {
    if (!named) return;
    if (const pgn::OpeningId id = pgn::opening_at(pgn::repetition_key(pos))) *named = id;
  };
  note();
  if (play.empty()) return pos;
  while (true) {
    const std::size_t comma = play.find(',');
    const std::string_view uci = play.substr(0, comma);
    auto move = uci_shaped(uci)
                    ? pgn::parse_san(pos, uci)
                    : std::expected<pgn::Move, pgn::SanError>(std::unexpected(pgn::SanError{}));
    if (!move || move->is_null())
      return std::unexpected(bad(
          pgn::cat("play: '", uci, "' is not a legal move in UCI notation in ", pgn::to_fen(pos))));
    pos.play(*move);
    note();
    if (comma == std::string_view::npos) return pos;
    play = play.substr(comma + 1);
  }
}

// `fen` (or the start) and the UCI moves of `play` after it; `named` as play_uci's.
std::expected<pgn::Position, Failure> explorer_position(ParameterReader& reader,
                                                        pgn::OpeningId* named = nullptr) {
  auto fen = reader.text("fen");
  auto play = reader.text("play");
  if (!fen) return std::unexpected(bad(fen.error()));
  if (!play) return std::unexpected(bad(play.error()));
  auto pos = position_of(fen->value_or(""));
  if (!pos) return std::unexpected(pos.error());
  return play_uci(*pos, play->value_or(""), named);
}

// `since` and `until`: a year (lichess's masters explorer) or a month, `YYYY-MM` (its lichess
// games explorer), as a date range of query::FilterText.
std::expected<std::string, Failure> explorer_dates(ParameterReader& reader) {
  std::string bounds[2];
  const char* names[2] = {"since", "until"};
  for (int i = 0; i < 2; ++i) {
    auto v = reader.text(names[i]);
    if (!v) return std::unexpected(bad(v.error()));
    if (!*v) continue;
    const std::string& t = **v;
    const auto digits = [&](std::size_t from, std::size_t n) {
      return std::all_of(t.begin() + from, t.begin() + from + n,
                         [](char c) { return c >= '0' && c <= '9'; });
    };
    if (t.size() == 4 && digits(0, 4))
      bounds[i] = t;
    else if (t.size() == 7 && digits(0, 4) && t[4] == '-' && digits(5, 2))
      bounds[i] = t.substr(0, 4) + "." + t.substr(5, 2);
    else
      return std::unexpected(
          bad(pgn::cat(names[i], ": '", t, "' is not a year (1952) or a month (2015-03)")));
  }
  if (bounds[0].empty() && bounds[1].empty()) return std::string();
  return bounds[0] + ".." + bounds[1];
}

// A message of query::parse_filters naming lichess's parameter where the CLI's option it
// names stands for one (`--speed` for `speeds`, `--rating-groups` for `ratings`).
std::string lichess_names(std::string message) {
  for (auto [option, parameter] :
       {std::pair{"--speed:", "speeds:"}, std::pair{"--rating-groups:", "ratings:"}})
    if (message.starts_with(option))
      return parameter + message.substr(std::string_view(option).size());
  return message;
}

// Which of lichess's explorers a game object is shaped for: its masters' games, or its own
// (with the speed and the mode).
enum class GameShape { Masters, Lichess };

// The opening named at the position `move` leads to from `pos` (pgn/openings.h), as lichess's
// explorer gives each move's: `{"eco", "name"}`, or null.
Json opening_after(const pgn::Position& pos, pgn::Move move) {
  pgn::Position after = pos;
  after.play(move);
  return opening_json(pgn::opening_at(pgn::repetition_key(after)));
}

// lichess's game object of game `id`, from its tags.
std::expected<Json, Failure> header_json(const index::Store& store, std::uint32_t id,
                                         GameShape shape) {
  auto game = store.game_header(id);
  if (!game) return std::unexpected(failed(game.error()));
  return shape == GameShape::Lichess ? lichess_game(id, *game) : explorer_game(id, *game);
}

// The one game behind a move played once from `root`: among the games at the position after it,
// the one whose main line stands first in `root` and plays the move there.
std::expected<Json, Failure> single_game(const index::Store& store, query::Filters filters,
                                         const pgn::Position& root, pgn::Move move,
                                         GameShape shape) {
  pgn::Position child = root;
  child.play(move);
  filters.position = child;
  auto search = query::Search::start(store, filters);
  if (!search) return std::unexpected(failed(search.error()));
  const pgn::Key key = pgn::repetition_key(root);
  // A move played once leads to a position few games reach by other orders; past this many
  // candidates the answer says null rather than read on.
  for (int examined = 0; examined < 64; ++examined) {
    auto id = search->next();
    if (!id) return std::unexpected(failed(id.error()));
    if (!*id) break;
    auto at = store.main_line_at(**id, key);
    if (!at) return std::unexpected(failed(at.error()));
    if (*at && (*at)->move == move) return header_json(store, **id, shape);
  }
  return Json(nullptr);
}

// lichess's `variant`: standard chess only.
std::expected<void, Failure> standard_variant(ParameterReader& reader) {
  auto variant = reader.text("variant");
  if (!variant) return std::unexpected(bad(variant.error()));
  if (*variant && **variant != "standard")
    return std::unexpected(bad(pgn::cat("variant: '", **variant, "': only standard chess")));
  return {};
}

// The explorer's totals: the games at the position by result.
void add_totals(Json& out, const std::vector<query::TreeRow>& rows) {
  std::uint64_t white = 0, draws = 0, black = 0;
  for (const auto& r : rows) {
    white += r.white_wins;
    draws += r.draws;
    black += r.black_wins;
  }
  out["white"] = white;
  out["draws"] = draws;
  out["black"] = black;
}

// lichess's game object of game `id` led by the move it played in `root` (top and recent games).
std::expected<Json, Failure> game_with_move(const index::Store& store, std::uint32_t id,
                                            const pgn::Position& root, pgn::Move move,
                                            GameShape shape) {
  auto game = header_json(store, id, shape);
  if (!game) return std::unexpected(game.error());
  Json out;
  out["uci"] = pgn::to_uci(root, move);
  for (const auto& [k, v] : game->items()) out[k] = v;
  return out;
}

// The latest games (by date) among those `filters` select that play a move in their position,
// at most `wanted`, the newest first, each with its move.
std::expected<Json, Failure> recent_games(const index::Store& store, const query::Filters& filters,
                                          std::size_t wanted, GameShape shape) {
  Json games = Json::array();
  if (wanted == 0) return games;
  auto search = query::Search::start(store, filters, query::Order::DateDescending);
  if (!search) return std::unexpected(failed(search.error()));
  const pgn::Key key = pgn::repetition_key(*filters.position);
  while (games.size() < wanted) {
    auto id = search->next();
    if (!id) return std::unexpected(failed(id.error()));
    if (!*id) break;
    auto at = store.main_line_at(**id, key);
    if (!at) return std::unexpected(failed(at.error()));
    if (!*at || (*at)->move == pgn::Move::none()) continue;
    auto game = game_with_move(store, **id, *filters.position, (*at)->move, shape);
    if (!game) return std::unexpected(game.error());
    games.push_back(std::move(*game));
  }
  return games;
}

// The answer of lichess's masters explorer (GameShape::Masters) or its lichess-games explorer
// (GameShape::Lichess: speeds, rating groups and recent games besides). docs/serve.md.
Answer games_explorer(const index::Store& store, const Parameters& parameters, GameShape shape) {
  const bool lichess = shape == GameShape::Lichess;
  ParameterReader reader(parameters);
  if (auto standard = standard_variant(reader); !standard) return std::unexpected(standard.error());
  pgn::OpeningId named = 0;
  auto position = explorer_position(reader, &named);
  if (!position) return std::unexpected(position.error());
  query::FilterText text;
  auto dates = explorer_dates(reader);
  if (!dates) return std::unexpected(dates.error());
  text.date = *dates;
  auto move_rows = reader.number("moves", 0, 256);
  if (!move_rows) return std::unexpected(bad(move_rows.error()));
  auto top_games = reader.number("topGames", 0, index::top_games_kept);
  if (!top_games) return std::unexpected(bad(top_games.error()));
  std::optional<std::size_t> recent;
  if (lichess) {
    auto speeds = reader.text("speeds");
    auto ratings = reader.text("ratings");
    auto recent_games = reader.number("recentGames", 0, 15);
    if (!speeds) return std::unexpected(bad(speeds.error()));
    if (!ratings) return std::unexpected(bad(ratings.error()));
    if (!recent_games) return std::unexpected(bad(recent_games.error()));
    text.speed = speeds->value_or("");
    text.rating_groups = ratings->value_or("");
    recent = recent_games->value_or(4);
  }
  // lichess ignores parameters it does not know; so do these paths (docs/serve.md).

  auto filters = query::parse_filters(text);
  if (!filters) return std::unexpected(bad(lichess_names(filters.error())));
  filters->position = *position;
  const std::size_t wanted_top = top_games->value_or(lichess ? 4 : index::top_games_kept);
  auto explored = query::explore(store, *filters, {.top_games = wanted_top});
  if (!explored) return std::unexpected(failed(explored.error()));
  const auto& rows = explored->rows;
  const auto& best = explored->top_games;

  Json out;
  add_totals(out, rows);
  Json moves = Json::array();
  const std::size_t shown = move_rows->value_or(12);
  for (const auto& r : rows) {
    if (moves.size() >= shown) break;
    if (r.move == pgn::Move::none()) continue;
    Json m;
    m["uci"] = pgn::to_uci(*position, r.move);
    m["san"] = r.san;
    m["averageRating"] = r.average_elo;
    m["white"] = r.white_wins;
    m["draws"] = r.draws;
    m["black"] = r.black_wins;
    m["game"] = nullptr;
    if (r.games == 1) {
      // The one game of the move: among the best-rated games when it is there.
      const auto listed = std::find_if(best.begin(), best.end(),
                                       [&](const index::TopGame& g) { return g.move == r.move; });
      std::expected<Json, Failure> game =
          listed != best.end() ? header_json(store, listed->game, shape)
                               : single_game(store, *filters, *position, r.move, shape);
      if (!game) return std::unexpected(game.error());
      m["game"] = std::move(*game);
    }
    m["opening"] = opening_after(*position, r.move);
    moves.push_back(std::move(m));
  }
  out["moves"] = std::move(moves);

  // The best-rated games that played a move here (by the players' average rating).
  Json top = Json::array();
  for (const index::TopGame& g : best) {
    auto game = game_with_move(store, g.game, *position, g.move, shape);
    if (!game) return std::unexpected(game.error());
    top.push_back(std::move(*game));
  }
  out["topGames"] = std::move(top);
  if (recent) {
    auto games = recent_games(store, *filters, *recent, shape);
    if (!games) return std::unexpected(games.error());
    out["recentGames"] = std::move(*games);
  }
  out["opening"] = opening_json(named);
  return json_response(out);
}

// lichess's player explorer: the tree of one player's games with one colour, and the most
// recent of them.
Answer player_tree(const index::Store& store, const Parameters& parameters) {
  ParameterReader reader(parameters);
  if (auto standard = standard_variant(reader); !standard) return std::unexpected(standard.error());
  auto player = reader.text("player");
  auto color = reader.text("color");
  if (!player) return std::unexpected(bad(player.error()));
  if (!color) return std::unexpected(bad(color.error()));
  if (!*player || (*player)->empty()) return std::unexpected(bad("player: a name is required"));
  if (!*color || (**color != "white" && **color != "black"))
    return std::unexpected(bad("color: white or black is required"));
  pgn::OpeningId named = 0;
  auto position = explorer_position(reader, &named);
  if (!position) return std::unexpected(position.error());
  query::FilterText text;
  (**color == "white" ? text.white : text.black) = **player;
  auto dates = explorer_dates(reader);
  if (!dates) return std::unexpected(dates.error());
  text.date = *dates;
  auto move_rows = reader.number("moves", 0, 256);
  if (!move_rows) return std::unexpected(bad(move_rows.error()));
  auto recent = reader.number("recentGames", 0, 15);
  if (!recent) return std::unexpected(bad(recent.error()));
  auto speeds = reader.text("speeds");
  if (!speeds) return std::unexpected(bad(speeds.error()));
  text.speed = speeds->value_or("");
  auto filters = query::parse_filters(text);
  if (!filters) return std::unexpected(bad(lichess_names(filters.error())));
  filters->position = *position;
  auto explored = query::explore(store, *filters);
  if (!explored) return std::unexpected(failed(explored.error()));

  Json out;
  add_totals(out, explored->rows);
  Json moves = Json::array();
  // The player's side, whoever moves: the player's opponents' rating and the player's
  // performance.
  const bool player_moves = (position->side_to_move() == pgn::White) == (**color == "white");
  for (const auto& r : explored->rows) {
    if (moves.size() >= move_rows->value_or(12)) break;
    if (r.move == pgn::Move::none()) continue;
    Json m;
    m["uci"] = pgn::to_uci(*position, r.move);
    m["san"] = r.san;
    m["averageOpponentRating"] = player_moves ? r.average_opponent_elo : r.average_elo;
    m["performance"] = player_moves ? r.performance : r.other_performance;
    m["white"] = r.white_wins;
    m["draws"] = r.draws;
    m["black"] = r.black_wins;
    m["game"] = nullptr;
    if (r.games == 1) {
      auto game = single_game(store, *filters, *position, r.move, GameShape::Lichess);
      if (!game) return std::unexpected(game.error());
      m["game"] = std::move(*game);
    }
    m["opening"] = opening_after(*position, r.move);
    moves.push_back(std::move(m));
  }
  out["moves"] = std::move(moves);
  // The latest games that played a move here, the newest first.
  auto games = recent_games(store, *filters, recent->value_or(8), GameShape::Lichess);
  if (!games) return std::unexpected(games.error());
  out["recentGames"] = std::move(*games);
  out["opening"] = opening_json(named);
  return json_response(out);
}

// ---- pgndb's own API -----------------------------------------------------------------------

// The filters of query::filter_fields() from `reader`, checked; the position required when
// `need_position`.
std::expected<query::Filters, Failure> api_filters(ParameterReader& reader) {
  query::FilterText text;
  if (auto taken = reader.filters(text); !taken) return std::unexpected(bad(taken.error()));
  // `play`: UCI moves after `fen` (or the start), as the explorer takes them; the position after
  // them is the filter.
  auto play = reader.text("play");
  if (!play) return std::unexpected(bad(play.error()));
  if (*play && !(*play)->empty()) {
    if (!text.moves.empty()) return std::unexpected(bad("play: give either moves or play"));
    auto start = position_of(text.fen);
    if (!start) return std::unexpected(start.error());
    auto position = play_uci(*start, **play);
    if (!position) return std::unexpected(position.error());
    text.fen = pgn::to_fen(*position);
  }
  auto filters = query::parse_filters(text);
  if (!filters) return std::unexpected(bad(filters.error()));
  return std::move(*filters);
}

std::expected<void, Failure> no_unknown(const ParameterReader& reader) {
  if (auto name = reader.unknown())
    return std::unexpected(bad(pgn::cat("unknown parameter '", *name, "'")));
  return {};
}

Answer api_tree(const index::Store& store, const Parameters& parameters) {
  ParameterReader reader(parameters);
  auto filters = api_filters(reader);
  if (!filters) return std::unexpected(filters.error());
  if (auto known = no_unknown(reader); !known) return std::unexpected(known.error());
  if (filters->in_variations)
    return std::unexpected(bad("in-variations: the tree follows main lines only"));
  if (!filters->position) filters->position = pgn::Position();
  auto rows = query::opening_tree(store, *filters);
  if (!rows) return std::unexpected(failed(rows.error()));
  Json out;
  out["fen"] = pgn::to_fen(*filters->position);
  std::uint64_t games = 0;
  Json moves = Json::array();
  for (const auto& r : *rows) {
    games += r.games;
    moves.push_back(tree_row_json(r, *filters->position));
  }
  out["games"] = games;
  out["moves"] = std::move(moves);
  return json_response(out);
}

std::expected<query::Order, Failure> sort_order(ParameterReader& reader) {
  auto sort = reader.text("sort");
  if (!sort) return std::unexpected(bad(sort.error()));
  if (!*sort) return query::Order::Id;
  if (auto order = query::parse_order(**sort)) return *order;
  return std::unexpected(bad(pgn::cat("sort: '", **sort, "' is not ", query::order_names)));
}

Answer api_find(const index::Store& store, const Parameters& parameters) {
  ParameterReader reader(parameters);
  auto filters = api_filters(reader);
  if (!filters) return std::unexpected(filters.error());
  auto order = sort_order(reader);
  if (!order) return std::unexpected(order.error());
  auto limit = reader.number("limit", 1, 1000);
  if (!limit) return std::unexpected(bad(limit.error()));
  auto offset = reader.number("offset", 0, 1'000'000'000);
  if (!offset) return std::unexpected(bad(offset.error()));
  auto count = reader.flag("count");
  if (!count) return std::unexpected(bad(count.error()));
  if (auto known = no_unknown(reader); !known) return std::unexpected(known.error());

  Json out;
  if (count->value_or(false)) {
    query::Plan plan;
    auto n = query::count_games(store, *filters, plan);
    if (!n) return std::unexpected(failed(n.error()));
    out["total"] = *n;
  }
  auto search = query::Search::start(store, *filters, *order);
  if (!search) return std::unexpected(failed(search.error()));
  const unsigned skip = offset->value_or(0), wanted = limit->value_or(20);
  for (unsigned skipped = 0; skipped < skip; ++skipped) {
    auto id = search->next();
    if (!id) return std::unexpected(failed(id.error()));
    if (!*id) break;
  }
  std::vector<std::uint32_t> ids;
  std::vector<std::optional<unsigned>> match_plies;  // where a material or pattern search matched
  bool more = false;
  while (true) {
    auto id = search->next();
    if (!id) return std::unexpected(failed(id.error()));
    if (!*id) break;
    if (ids.size() == wanted) {
      more = true;
      break;
    }
    ids.push_back(**id);
    match_plies.push_back(search->match_ply());
  }
  // The page's summaries (endings, openings), in one pass over the family (ascending ids).
  std::vector<std::uint32_t> ascending = ids;
  std::sort(ascending.begin(), ascending.end());
  std::unordered_map<std::uint32_t, index::GameSummary> summaries;
  if (const index::Status s = store.for_each_summary(
          ascending,
          [&](std::uint32_t id, const index::GameSummary& summary) { summaries[id] = summary; });
      !s.is_ok())
    return std::unexpected(failed(s));
  const bool matched = filters->material || filters->final_material || filters->pattern;
  Json games = Json::array();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::uint32_t id = ids[i];
    auto game = store.game_header(id);
    if (!game) return std::unexpected(failed(game.error()));
    const auto summary = summaries.find(id);
    Json g = listed_game(id, *game, summary != summaries.end() ? &summary->second : nullptr);
    if (filters->position) {
      auto at = store.main_line_at(id, pgn::repetition_key(*filters->position));
      if (!at) return std::unexpected(failed(at.error()));
      g["ply"] = *at ? Json((*at)->ply) : Json(nullptr);
    }
    if (matched) g["match_ply"] = match_plies[i].value_or(0);
    games.push_back(std::move(g));
  }
  out["offset"] = skip;
  out["games"] = std::move(games);
  out["next_offset"] = more ? Json(skip + wanted) : Json(nullptr);
  return json_response(out);
}

// How moves are written: `lang` (another language's piece letters) or `figurine`, as `pgndb
// export --lang`, `--figurine`: outside PGN's export format.
std::expected<pgn::WriterOptions, Failure> writer_parameters(ParameterReader& reader) {
  auto lang = reader.text("lang");
  if (!lang) return std::unexpected(bad(lang.error()));
  auto figurine = reader.flag("figurine");
  if (!figurine) return std::unexpected(bad(figurine.error()));
  pgn::WriterOptions writing;
  if (*lang) {
    writing.letters = pgn::piece_letters(**lang);
    if (!writing.letters)
      return std::unexpected(bad(pgn::cat("lang: '", **lang, "' is not a language pgndb knows")));
  }
  writing.figurines = figurine->value_or(false);
  if (writing.letters && writing.figurines)
    return std::unexpected(bad("lang and figurine: give one"));
  return writing;
}

Answer api_game(const index::Store& store, std::uint32_t id, const Parameters& parameters) {
  ParameterReader reader(parameters);
  auto format = reader.text("format");
  if (!format) return std::unexpected(bad(format.error()));
  auto writing = writer_parameters(reader);
  if (!writing) return std::unexpected(writing.error());
  if (auto known = no_unknown(reader); !known) return std::unexpected(known.error());
  const std::string f = format->value_or("json");
  if (f != "json" && f != "pgn")
    return std::unexpected(bad(pgn::cat("format: '", f, "' is not json or pgn")));
  auto game = stored_game(store, id);
  if (!game) return std::unexpected(game.error());
  if (f == "json") return json_response(game_json(id, *game, *writing));
  Response r{200, "application/x-chess-pgn", {}, {}};
  pgn::write_game(*game, r.body, *writing);
  return r;
}

Answer api_stats(const index::Store& store, const Parameters& parameters) {
  ParameterReader reader(parameters);
  if (auto known = no_unknown(reader); !known) return std::unexpected(known.error());
  auto stats = store.stats();
  if (!stats) return std::unexpected(failed(stats.error()));
  const Json out = stats_json(*stats);
  return json_response(out);
}

// The games as PGN, a few at a time as the client reads them.
Answer api_export(const std::shared_ptr<const index::Store>& store, const Parameters& parameters) {
  ParameterReader reader(parameters);
  auto filters = api_filters(reader);
  if (!filters) return std::unexpected(filters.error());
  auto order = sort_order(reader);
  if (!order) return std::unexpected(order.error());
  auto limit = reader.number("limit", 0, 4'000'000'000u);
  if (!limit) return std::unexpected(bad(limit.error()));
  auto compress = reader.text("compress");
  if (!compress) return std::unexpected(bad(compress.error()));
  if (*compress && **compress != "zst")
    return std::unexpected(bad(pgn::cat("compress: '", **compress, "' is not zst")));
  auto writing = writer_parameters(reader);
  if (!writing) return std::unexpected(writing.error());
  if (auto known = no_unknown(reader); !known) return std::unexpected(known.error());
  auto search = query::Search::start(*store, *filters, *order);
  if (!search) return std::unexpected(failed(search.error()));
  struct State {
    std::shared_ptr<const index::Store> store;
    query::Search search;
    std::uint64_t left;
    std::unique_ptr<ZstdStream> zstd;  // with compress=zst
    std::string text;
    pgn::WriterOptions writing;
  };
  auto state = std::make_shared<State>(State{store,
                                             std::move(*search),
                                             limit->value_or(0) ? **limit : UINT64_MAX,
                                             *compress ? std::make_unique<ZstdStream>() : nullptr,
                                             {},
                                             *writing});
  Response r{200, *compress ? "application/zstd" : "application/x-chess-pgn", {}, {}};
  // A failure halfway cannot change the status any more: the stream ends early, and the client
  // sees a truncated body (docs/serve.md; a zstd frame left unended says so to its reader).
  r.stream = [state](std::string& out) {
    std::string& text = state->zstd ? state->text : out;
    text.clear();
    bool more = true;
    for (int n = 0; n < 64 && more; ++n) {
      if (state->left == 0) {
        more = false;
        break;
      }
      --state->left;
      auto id = state->search.next();
      if (!id) return false;
      if (!*id) {
        more = false;
        break;
      }
      auto game = state->store->game(**id);
      if (!game) return false;
      pgn::write_game(*game, text, state->writing);
    }
    if (state->zstd && !state->zstd->compress(text, out, !more)) return false;
    return more;
  };
  return r;
}

// A board as an SVG drawing: `fen` (the start when absent), `lastmove` (UCI: its squares are
// marked), `flip` (Black at the bottom).
Answer board_svg(const Parameters& parameters) {
  ParameterReader reader(parameters);
  auto fen = reader.text("fen");
  auto last = reader.text("lastmove");
  auto flip = reader.flag("flip");
  if (!fen) return std::unexpected(bad(fen.error()));
  if (!last) return std::unexpected(bad(last.error()));
  if (!flip) return std::unexpected(bad(flip.error()));
  if (auto known = no_unknown(reader); !known) return std::unexpected(known.error());
  auto pos = position_of(fen->value_or(""));
  if (!pos) return std::unexpected(pos.error());
  DiagramOptions options;
  options.black_at_bottom = flip->value_or(false);
  if (*last && !(*last)->empty()) {
    const std::string& m = **last;
    if (!uci_shaped(m))
      return std::unexpected(bad(pgn::cat("lastmove: '", m, "' is not a move in UCI")));
    options.last_move = pgn::Move(pgn::make_square(m[0] - 'a', m[1] - '1'),
                                  pgn::make_square(m[2] - 'a', m[3] - '1'));
  }
  return Response{200, "image/svg+xml", svg_board(*pos, options), {}};
}

Answer route(const std::shared_ptr<const index::Store>& store, std::string_view path,
             const Parameters& parameters) {
  if (path == "/" || path == "/index.html") {
    if (!parameters.empty()) return std::unexpected(bad("the page takes no parameters"));
    return Response{200, "text/html; charset=utf-8", std::string(assets::index_html), {}};
  }
  if (path == "/api/board.svg") return board_svg(parameters);
  if (path == "/masters") return games_explorer(*store, parameters, GameShape::Masters);
  if (path == "/lichess") return games_explorer(*store, parameters, GameShape::Lichess);
  if (auto id = trailing_id(path, "/masters/pgn/")) {
    auto game = stored_game(*store, *id);
    if (!game) return std::unexpected(game.error());
    Response r{200, "application/x-chess-pgn", {}, {}};
    pgn::write_game(*game, r.body);
    return r;
  }
  if (path == "/player") return player_tree(*store, parameters);
  if (path == "/api/tree") return api_tree(*store, parameters);
  if (path == "/api/find") return api_find(*store, parameters);
  if (path == "/api/export") return api_export(store, parameters);
  if (path == "/api/stats") return api_stats(*store, parameters);
  if (auto id = trailing_id(path, "/api/game/")) return api_game(*store, *id, parameters);
  return std::unexpected(Failure{404, pgn::cat("no such path: ", path)});
}

}  // namespace

Response respond(const std::shared_ptr<const index::Store>& store, std::string_view path,
                 std::string_view query) {
  Answer answer;
  try {
    auto parameters = parse_query_string(query);
    answer = parameters ? route(store, path, *parameters)
                        : Answer(std::unexpected(bad(parameters.error())));
  } catch (const std::exception& e) {
    // Out of memory, or a library's exception: the request fails, the server goes on.
    answer = std::unexpected(Failure{500, pgn::cat("internal error: ", e.what())});
  }
  if (answer) return std::move(*answer);
  Json error;
  error["error"] = answer.error().message;
  return {answer.error().status, "application/json", json_text(error), {}};
}

}  // namespace pgndb::serve
