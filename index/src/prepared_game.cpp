#include "pgndb/index/prepared_game.h"
#include "pgn/game_result.h"

#include "bytes.h"
#include "material_record.h"
#include "metadata_keys.h"

#include <charconv>
#include <optional>

#include "pgn/game.h"
#include "pgn/game_ending.h"
#include "pgn/openings.h"
#include "pgn/text.h"
#include "pgn/time_control.h"
#include "pgndb/index/game_codec.h"
#include "pgndb/index/game_summary.h"
#include "pgndb/index/names.h"

namespace pgndb::index {

namespace {

class Fingerprint {
 public:
  void add(std::string_view s) {
    for (char c : s) byte(std::uint8_t(c));
    byte(0xFF);  // ends the field, so that ("ab", "c") and ("a", "bc") differ
  }
  void add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) byte(std::uint8_t(v >> (8 * i)));
  }
  // FNV-1a, then a finaliser that spreads every input bit over the whole result.
  std::uint64_t value() const {
    std::uint64_t z = hash_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  void byte(std::uint8_t b) { hash_ = (hash_ ^ b) * 0x100000001b3ULL; }
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

std::string_view tag_or_empty(const pgn::GameRecord& game, std::string_view name) {
  const std::string* v = game.tag(name);
  return v ? std::string_view(*v) : std::string_view();
}

// A tag that says nothing (`?`, `-`, empty) is not indexed.
bool known(std::string_view value) { return !value.empty() && value != "?" && value != "-"; }

// A rating tag's value, 0 when it is not a number below 65,536.
std::uint16_t rating(const pgn::GameRecord& game, std::string_view tag) {
  const std::string_view text = tag_or_empty(game, tag);
  unsigned elo = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), elo);
  return error == std::errc() && end == text.data() + text.size() && elo < 65536
             ? std::uint16_t(elo)
             : 0;
}

void add_metadata(const pgn::GameRecord& game, std::vector<std::string>& keys) {
  using namespace metadata;
  const auto name = [&](std::string_view tag) {
    const std::string_view value = tag_or_empty(game, tag);
    return known(value) ? std::optional<std::string>(normalize_name(value)) : std::nullopt;
  };
  if (auto white = name("White")) keys.push_back(player_value(*white, 0));
  if (auto black = name("Black")) keys.push_back(player_value(*black, 1));
  if (auto event = name("Event")) keys.push_back(name_value(Event, *event));
  if (auto site = name("Site")) keys.push_back(name_value(Site, *site));

  DateParts date;
  if (parse_date(tag_or_empty(game, "Date"), date) && date.year > 0)
    keys.push_back(date_value(date));

  if (const std::string_view eco = tag_or_empty(game, "ECO"); is_eco_code(eco))
    keys.push_back(eco_value(eco));
}

// A comment with something beside the commands programs write into every move (clock, time
// spent, engine evaluation: `[%clk 0:03:00]`, `[%emt 0:00:05]`, `[%eval 0.17]`). Text counts,
// and so do the arrows and highlighted squares people draw (`[%cal Ge2e4]`, `[%csl Rd5]`).
bool has_text(std::string_view comment) {
  for (std::size_t i = 0; i < comment.size(); ++i) {
    // The commands are compared only where a `[` stands: three comparisons at every character
    // took 3% of a lichess-style import, whose every move has such a comment.
    const std::string_view rest = comment.substr(i);
    if (comment[i] == '[' &&
        (rest.starts_with("[%clk ") || rest.starts_with("[%emt ") || rest.starts_with("[%eval "))) {
      const std::size_t end = comment.find(']', i);
      if (end == std::string_view::npos) return true;
      i = end;
    } else if (!std::isspace(std::uint8_t(comment[i]))) {
      return true;
    }
  }
  return false;
}

bool any_text(const std::vector<std::string>& comments) {
  return std::any_of(comments.begin(), comments.end(), has_text);
}

bool annotated(const pgn::GameRecord& game) {
  if (any_text(game.leading_comments)) return true;
  for (const pgn::MoveNode& node : game.moves)
    if (!node.variations.empty() || any_text(node.comments_before) ||
        any_text(node.comments_after) || any_text(node.comments_after_variations))
      return true;
  return false;
}

// How the main line of `game` ended, playing it.
pgn::GameEnding ending_of(const pgn::GameRecord& game) {
  pgn::EndingTracker tracker(game.start);
  pgn::Position pos = game.start;
  for (const pgn::MoveNode& node : game.moves) {
    pos.play_or_pass(node.move);
    tracker.after_move(pos);
  }
  return tracker.finish(pos);
}

GameSummary summarize(const pgn::GameRecord& game, std::string_view opening_codes,
                      const pgn::GameEnding& ending) {
  GameSummary summary;
  summary.result = pgn::code_of(pgn::game_result_of(game.result));
  metadata::DateParts date;
  if (metadata::parse_date(tag_or_empty(game, "Date"), date)) {
    summary.year = std::uint16_t(date.year);
    summary.month = std::uint8_t(date.month);
    summary.day = std::uint8_t(date.day);
  }
  summary.white_elo = rating(game, "WhiteElo");
  summary.black_elo = rating(game, "BlackElo");
  summary.speed = pgn::speed_of_time_control(tag_or_empty(game, "TimeControl"));
  summary.plies = std::uint16_t(std::min<std::size_t>(game.moves.size(), 65535));
  summary.annotated = annotated(game);
  summary.standard_start = game.start == pgn::Position();
  summary.ending = ending.ending;
  summary.repetition = ending.repetition;
  summary.fifty_moves = ending.fifty_moves;
  summary.opening_length = std::uint8_t(opening_codes.size());
  std::copy(opening_codes.begin(), opening_codes.end(), summary.opening.begin());
  return summary;
}

}  // namespace

pgn::MaterialHistory material_of(const pgn::GameRecord& game) {
  pgn::MaterialTracker tracker;
  pgn::Position pos = game.start;
  tracker.start(pos);
  for (const pgn::MoveNode& node : game.moves) {
    pos.play_or_pass(node.move);
    tracker.played(pos);
  }
  return tracker.take();
}

void material_values_of(const pgn::MaterialHistory& history, std::vector<std::uint64_t>& values) {
  values.clear();
  for (std::size_t i = 0; i < history.runs.size(); ++i) {
    // No move played from it, and not the final balance: no search can match it.
    if (history.length(i) || i + 1 == history.runs.size())
      values.push_back(material::packed(history.runs[i].balance));
  }
  // A game may come back to a balance (rarely): its list holds the game once.
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

PreparedGame prepare_game(const pgn::GameRecord& game, const PlayedMoves* played,
                          const pgn::GameEnding* ending, const pgn::MaterialHistory* material) {
  PreparedGame prepared;
  prepared.positions.reserve(game.moves.size() + 1);
  std::string opening;
  encode_game(game, prepared.encoded, &prepared.positions, &opening, GameSummary::opening_plies,
              &prepared.variation_positions, played);
  auto& in_variations = prepared.variation_positions;
  std::sort(in_variations.begin(), in_variations.end());
  in_variations.erase(std::unique(in_variations.begin(), in_variations.end()), in_variations.end());
  GameSummary summary = summarize(game, opening, ending ? *ending : ending_of(game));
  // The opening from the main line's positions, already keyed as the tables are.
  summary.opening_id = pgn::classify_opening(prepared.positions, summary.standard_start);
  encode_summary(summary, prepared.summary);
  prepared.facts = summary.facts();
  for (std::size_t ply = 0; ply < summary.opening_length; ++ply)
    prepared.opening_moves[ply] = game.moves[ply].move;

  Fingerprint fingerprint;
  fingerprint.add(game.start.key());
  for (const pgn::MoveNode& node : game.moves) fingerprint.add(node.move.raw());
  fingerprint.add(tag_or_empty(game, "White"));
  fingerprint.add(tag_or_empty(game, "Black"));
  fingerprint.add(tag_or_empty(game, "Date"));
  fingerprint.add(game.result);
  prepared.fingerprint = fingerprint.value();

  // The keys are built one by one in a buffer of this thread, then packed.
  thread_local std::vector<std::string> keys;
  keys.clear();
  add_metadata(game, keys);
  const auto add_material = [&prepared](const pgn::MaterialHistory& history) {
    material_values_of(history, prepared.material_values);
    material::encode_history(history, prepared.material);
  };
  if (material && !material->runs.empty())
    add_material(*material);
  else
    add_material(material_of(game));
  std::size_t size = 0;
  for (const std::string& key : keys) size += key.size() + 2;
  prepared.metadata.reserve(size);
  for (const std::string& key : keys) bytes::put_string(prepared.metadata, key);
  return prepared;
}

}  // namespace pgndb::index
