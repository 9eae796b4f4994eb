#include "game_facts.h"
#include "pgn/game_result.h"

#include <algorithm>
#include <bit>
#include <charconv>

#include "bytes.h"
#include "metadata_keys.h"
#include "move_index.h"
#include "pgn/game.h"
#include "pgn/game_ending.h"
#include "pgn/openings.h"
#include "pgn/time_control.h"
#include "pgn/writer.h"
#include "pgndb/index/game_codec.h"
#include "pgndb/index/names.h"
#include "pgndb/index/prepared_game.h"
#include "position_runs.h"

namespace pgndb::index {

namespace {

std::uint64_t key40(const pgn::Position& pos) {
  return positions::key40_of(pgn::repetition_key(pos));
}

void sort_unique(std::vector<std::uint64_t>& keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
}

// The keys of the positions inside the variations of `line` (at any depth), which starts at
// `pos`; `in_variation` when `line` is itself a variation (its positions count then).
void variation_keys(const pgn::Line& line, pgn::Position pos, bool in_variation,
                    std::vector<std::uint64_t>& out) {
  if (in_variation) out.push_back(key40(pos));
  for (const pgn::MoveNode& node : line) {
    for (const pgn::Line& variation : node.variations) variation_keys(variation, pos, true, out);
    pos.play_or_pass(node.move);
    if (in_variation) out.push_back(key40(pos));
  }
}

std::string_view tag(const pgn::GameRecord& game, std::string_view name) {
  const std::string* value = game.tag(name);
  return value ? std::string_view(*value) : std::string_view();
}

// docs/storage.md, "Metadata": the keys a game should have, without the game id. Written
// from the table there rather than by calling the writer's code.
std::vector<std::string> metadata_keys(const pgn::GameRecord& game) {
  using namespace metadata;
  std::vector<std::string> keys;
  const auto says_something = [](std::string_view v) { return !v.empty() && v != "?" && v != "-"; };
  const auto name = [&](Dimension d, std::string_view tag_name, std::string_view colour) {
    const std::string_view value = tag(game, tag_name);
    if (says_something(value))
      keys.push_back(std::string(1, char(d)) + normalize_name(value) + '\0' + std::string(colour));
  };
  name(Player, "White", std::string_view("\0", 1));
  name(Player, "Black", "\1");
  name(Event, "Event", "");
  name(Site, "Site", "");
  DateParts date;
  if (parse_date(tag(game, "Date"), date) && date.year > 0) keys.push_back(date_value(date));
  const std::string_view eco = tag(game, "ECO");
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (eco.size() == 3 && eco[0] >= 'A' && eco[0] <= 'E' && digit(eco[1]) && digit(eco[2]))
    keys.push_back(std::string(1, char(Eco)) + std::string(eco));
  return keys;
}

std::uint16_t rating(const pgn::GameRecord& game, std::string_view name) {
  const std::string_view text = tag(game, name);
  unsigned elo = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), elo);
  return error == std::errc() && end == text.data() + text.size() && elo < 65536
             ? std::uint16_t(elo)
             : 0;
}

}  // namespace

GameFacts game_facts(std::uint32_t id, std::string_view stored) {
  GameFacts facts;
  facts.id = id;
  auto decoded = decode_game(stored);
  if (!decoded) {
    facts.error = decoded.error().message();
    return facts;
  }
  const pgn::GameRecord& game = *decoded;

  // The material, counted at each ply.
  const auto balance_at = [](const pgn::Position& p) {
    pgn::MaterialBalance b;
    for (pgn::Color c : {pgn::White, pgn::Black})
      for (int t = 0; t < 5; ++t)
        b.count[c][t] =
            std::uint8_t(std::min(std::popcount(p.pieces(c, pgn::PieceType(pgn::Pawn + t))), 15));
    return b;
  };
  pgn::MaterialHistory& material = facts.material;
  material.runs.push_back({0, balance_at(game.start)});
  // The squares each side's pawns and rooks stood on.
  const auto add_pawn_squares = [&material](const pgn::Position& p) {
    for (pgn::Color c : {pgn::White, pgn::Black}) {
      material.pawn_squares[c] |= p.pieces(c, pgn::Pawn);
      material.rook_squares[c] |= p.pieces(c, pgn::Rook);
    }
  };
  material.pawn_squares = {};
  material.rook_squares = {};
  add_pawn_squares(game.start);

  // Positions: the game replayed from its start.
  pgn::Position pos = game.start;
  facts.positions.push_back(key40(pos));
  GameSummary& summary = facts.summary;
  pgn::EndingTracker ending(game.start);
  std::vector<pgn::Key> keys = {pgn::repetition_key(pos)};  // the main line's, for its opening
  bool codes_end = false;
  for (const pgn::MoveNode& node : game.moves) {
    // The summary's opening codes: a move's index while it fits one byte, up to the 16th move.
    if (!codes_end && summary.opening_length < GameSummary::opening_plies) {
      const unsigned index = node.move.is_null() ? 256 : pseudo_legal_index(pos, node.move);
      if (index <= 250)
        summary.opening[summary.opening_length++] = std::uint8_t(index);
      else
        codes_end = true;
    }
    pos.play_or_pass(node.move);
    ending.after_move(pos);
    facts.positions.push_back(key40(pos));
    if (material.plies < 65535) {  // counted to 65,535 (pgn::MaterialTracker)
      ++material.plies;
      add_pawn_squares(pos);
      if (const auto b = balance_at(pos); !(b == material.runs.back().balance))
        material.runs.push_back({material.plies, b});
    }
    if (keys.size() <= pgn::opening_plies) keys.push_back(pgn::repetition_key(pos));
  }
  const pgn::GameEnding ended = ending.finish(pos);
  summary.ending = ended.ending;
  summary.repetition = ended.repetition;
  summary.fifty_moves = ended.fifty_moves;
  sort_unique(facts.positions);
  variation_keys(game.moves, game.start, false, facts.variation_positions);
  sort_unique(facts.variation_positions);

  std::vector<std::string> metadata = metadata_keys(game);
  // docs/storage.md, "Material": a balance's value, pieces first, then the pawns; one for each
  // balance a move was played from and for the final balance, once each.
  const auto balance_value = [](char dimension, const pgn::MaterialBalance& b) {
    const auto& w = b.count[pgn::White];
    const auto& k = b.count[pgn::Black];
    std::string v(1, dimension);
    for (auto [high, low] :
         {std::pair{w[4], w[3]}, {w[2], w[1]}, {k[4], k[3]}, {k[2], k[1]}, {w[0], k[0]}})
      v += char(high << 4 | low);
    return v;
  };
  std::vector<std::string> held;
  for (std::size_t i = 0; i < material.runs.size(); ++i)
    if (material.length(i) > 0 || i + 1 == material.runs.size())
      held.push_back(balance_value('m', material.runs[i].balance));
  std::sort(held.begin(), held.end());
  held.erase(std::unique(held.begin(), held.end()), held.end());
  metadata.insert(metadata.end(), held.begin(), held.end());
  for (std::string& key : metadata) {
    bytes::put_big_endian32(key, id);
    facts.metadata.push_back(std::move(key));
  }

  // The summary from the tags and moves; whether the game is annotated, and its fingerprint,
  // only the writer's code says (prepared_game.cpp), and encoding the game again with it
  // must give the stored bytes.
  // A game of an older format (stored before schema 16) is re-encoded in the current one, whose
  // bytes differ: it is canonical when those decode to the game it is, as the writer writes it.
  const PreparedGame prepared = prepare_game(game, nullptr, &ended);
  if (is_current_format(stored)) {
    facts.canonical = prepared.encoded == stored;
  } else {
    const auto again = decode_game(prepared.encoded);
    std::string written, written_again;
    pgn::write_game(game, written);
    if (again) pgn::write_game(*again, written_again);
    facts.canonical = again && again->tags == game.tags && written_again == written;
  }
  facts.fingerprint = prepared.fingerprint;
  summary.result = pgn::code_of(pgn::game_result_of(game.result));
  metadata::DateParts date;
  if (metadata::parse_date(tag(game, "Date"), date)) {
    summary.year = std::uint16_t(date.year);
    summary.month = std::uint8_t(date.month);
    summary.day = std::uint8_t(date.day);
  }
  summary.white_elo = rating(game, "WhiteElo");
  summary.black_elo = rating(game, "BlackElo");
  summary.speed = pgn::speed_of_time_control(tag(game, "TimeControl"));
  summary.plies = std::uint16_t(std::min<std::size_t>(game.moves.size(), 65535));
  summary.standard_start = game.start == pgn::Position();
  summary.opening_id = pgn::classify_opening(keys, summary.standard_start);
  auto written = decode_summary(prepared.summary);
  summary.annotated = written && written->annotated;
  return facts;
}

}  // namespace pgndb::index
