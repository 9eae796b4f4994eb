#include "pgndb/query/filters.h"
#include "pgn/game_result.h"
#include "pgn/openings.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <sstream>

#include "pgn/fen.h"
#include "pgn/san.h"
#include "pgn/text.h"
#include "pgn/time_control.h"
#include "pgndb/index/names.h"

namespace pgndb::query {

namespace {

using Error = std::unexpected<std::string>;

std::optional<unsigned> number(std::string_view text) {
  unsigned v = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

// A date bound: `1985`, `1985.03` or `1985.03.01`, as year << 16 | month << 8 | day; `upper`
// fills what is missing with the largest value (so that `..1985` includes all of 1985).
std::optional<std::uint32_t> date_bound(std::string_view text, bool upper) {
  unsigned parts[3] = {0, upper ? 99u : 0u, upper ? 99u : 0u};
  std::size_t i = 0;
  while (!text.empty()) {
    if (i == 3) return std::nullopt;
    const std::size_t dot = text.find('.');
    auto v = number(text.substr(0, dot));
    if (!v || (i == 0 && *v > 9999) || (i == 1 && (*v < 1 || *v > 12)) ||
        (i == 2 && (*v < 1 || *v > 31)))
      return std::nullopt;
    parts[i++] = *v;
    text = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  }
  if (i == 0) return std::nullopt;
  return parts[0] << 16 | parts[1] << 8 | parts[2];
}

std::optional<std::string> eco_code(std::string_view text) {
  if (text.size() != 3 || text[0] < 'A' || text[0] > 'E' || !std::isdigit(std::uint8_t(text[1])) ||
      !std::isdigit(std::uint8_t(text[2])))
    return std::nullopt;
  return std::string(text);
}

std::expected<pgn::Position, std::string> after_moves(std::string_view moves) {
  pgn::Position pos;
  std::istringstream in{std::string(moves)};
  std::string played, token;
  while (in >> token) {
    // Move numbers: `1.`, `1...`, or glued to the move as in `1.e4`.
    std::size_t digits = 0;
    while (digits < token.size() && std::isdigit(std::uint8_t(token[digits]))) ++digits;
    std::size_t dots = digits;
    while (dots < token.size() && token[dots] == '.') ++dots;
    if (digits > 0 && dots > digits) token.erase(0, dots);
    if (token.empty()) continue;
    auto move = pgn::parse_san(pos, token);
    if (!move)
      return std::unexpected(pgn::cat("--moves: '", token, "' is not a legal move",
                                      played.empty() ? " from the start" : " after" + played));
    played += " " + token;
    pos.play_or_pass(*move);
  }
  return pos;
}

}  // namespace

// A tripwire: a field added to Filters changes its size, and must be named below and in
// statistics_slice (otherwise a tree or a count would answer from the position statistics
// without it). Update the size then.
static_assert(sizeof(Filters) == 656, "a field of Filters: name it in narrows_beyond_position");

bool Filters::narrows_beyond_position() const {
  return in_variations || !player.empty() || !white.empty() || !black.empty() || !event.empty() ||
         !site.empty() || !winner.empty() || !loser.empty() || player_re || white_re || black_re ||
         result || eco_tag || openings || date || plies || min_elo || max_elo || annotated ||
         speeds || rating_groups || endings || repetition || fifty_moves || material ||
         final_material || pattern;
}

std::optional<index::StatisticsSlice> Filters::statistics_slice() const {
  if (!narrows_beyond_position()) return index::StatisticsSlice{};
  const bool only_ratings_and_dates =
      !in_variations && player.empty() && white.empty() && black.empty() && event.empty() &&
      site.empty() && winner.empty() && loser.empty() && !player_re && !white_re && !black_re &&
      !result && !eco_tag && !openings && !plies && !annotated && !speeds && !rating_groups &&
      !endings && !repetition && !fifty_moves && !material && !final_material && !pattern;
  if (!only_ratings_and_dates) return std::nullopt;
  index::FactsFilter facts;
  if (date) facts.date = index::FactsFilter::Range{date->low, date->high};
  facts.min_elo = min_elo;
  facts.max_elo = max_elo;
  return index::StatisticsSlice::of(facts);
}

std::string search_key(std::string_view name) {
  return index::name_search_key(index::normalize_name(name));
}

std::span<const FilterField> filter_fields() {
  using F = FilterText;
  static const FilterField fields[] = {
      {"fen", "games that reach this position", FilterField::Text, &F::fen},
      {"moves", "games that reach the position after these moves", FilterField::Text, &F::moves},
      {"in-variations",
       "the position in variations too",
       FilterField::Switch,
       {},
       {},
       &F::in_variations},
      {"player", "a player's name, either colour", FilterField::Text, &F::player},
      {"white", "White's name", FilterField::Text, &F::white},
      {"black", "Black's name", FilterField::Text, &F::black},
      {"player-re", "regular expression over players' names", FilterField::Text, &F::player_re},
      {"white-re", "regular expression over White's name", FilterField::Text, &F::white_re},
      {"black-re", "regular expression over Black's name", FilterField::Text, &F::black_re},
      {"winner", "games this player won", FilterField::Text, &F::winner},
      {"loser", "games this player lost", FilterField::Text, &F::loser},
      {"result", "1-0, 0-1, 1/2-1/2 or *", FilterField::Text, &F::result},
      {"eco", "the opening's ECO code or range, by position: B90, B90-B99", FilterField::Text,
       &F::eco},
      {"eco-tag", "the ECO tag's code or range, as written: B90, B90-B99", FilterField::Text,
       &F::eco_tag},
      {"opening", "text in the opening's name (by position): Najdorf", FilterField::Text,
       &F::opening},
      {"opening-re", "regular expression over the opening's name", FilterField::Text,
       &F::opening_re},
      {"event", "text in the event", FilterField::Text, &F::event},
      {"site", "text in the site", FilterField::Text, &F::site},
      {"date", "date or range: 1985, 1985..1995, 1985.03.01..", FilterField::Text, &F::date},
      {"min-elo", "both players rated at least N", FilterField::Number, {}, &F::min_elo},
      {"max-elo", "both players rated at most N", FilterField::Number, {}, &F::max_elo},
      {"min-plies", "main line of at least N plies", FilterField::Number, {}, &F::min_plies},
      {"max-plies", "main line of at most N plies", FilterField::Number, {}, &F::max_plies},
      {"annotated",
       "games with comments or variations",
       FilterField::Switch,
       {},
       {},
       &F::annotated},
      {"speed", "from TimeControl: ultraBullet,bullet,blitz,rapid,classical,correspondence,unknown",
       FilterField::Text, &F::speed},
      {"rating-groups", "players' average rating in lichess's groups: 0,1000,1200,...,2200,2500",
       FilterField::Text, &F::rating_groups},
      {"ending",
       "how the main line ended: checkmate,stalemate,insufficient-material,fivefold,"
       "seventy-five,threefold,fifty,none",
       FilterField::Text, &F::ending},
      {"repetition",
       "a position stood three times at some ply",
       FilterField::Switch,
       {},
       {},
       &F::repetition},
      {"fifty-moves",
       "50 moves without a capture or a pawn move at some ply",
       FilterField::Switch,
       {},
       {},
       &F::fifty_moves},
      {"material",
       "a balance the main line held: an ending (KRPvKR) or pgn-extract's syntax (\"r2p* r=p1>=\")",
       FilterField::Text, &F::material},
      {"final-material", "the balance the game ended with, written as --material's",
       FilterField::Text, &F::final_material},
      {"either-colour",
       "the material with the colours swapped too",
       FilterField::Switch,
       {},
       {},
       &F::either_colour},
      {"stable", "plies the --material balance lasts beyond (default 2, pgn-extract's)",
       FilterField::Text, &F::stable},
      {"pattern", "a main-line board matching a pgn-extract FENPattern", FilterField::Text,
       &F::pattern},
      {"pattern-either", "a FENPattern, as written or with the colours swapped", FilterField::Text,
       &F::pattern_either},
      {"to-move", "white or black to move where the pattern matches", FilterField::Text,
       &F::to_move},
  };
  return fields;
}

namespace {

// The items of a comma-separated list; an empty list has none. An empty item is kept, for the
// caller to refuse.
std::vector<std::string_view> comma_items(std::string_view list) {
  std::vector<std::string_view> items;
  if (list.empty()) return items;
  for (std::size_t from = 0;;) {
    const std::size_t comma = list.find(',', from);
    items.push_back(list.substr(from, comma - from));
    if (comma == std::string_view::npos) break;
    from = comma + 1;
  }
  return items;
}

}  // namespace

std::expected<Filters, std::string> parse_filters(const FilterText& text) {
  Filters f;
  if (!text.fen.empty() && !text.moves.empty()) return Error("--fen and --moves: give one of them");
  if (!text.fen.empty()) {
    auto pos = pgn::parse_fen(text.fen);
    if (!pos) return Error("--fen: " + pos.error().message());
    f.position = *pos;
  } else if (!text.moves.empty()) {
    auto pos = after_moves(text.moves);
    if (!pos) return Error(pos.error());
    f.position = *pos;
  }

  if (text.in_variations && !f.position)
    return Error("--in-variations: give the position with --fen or --moves");
  f.in_variations = text.in_variations;

  struct NameOption {
    const std::string& value;
    const char* option;
    std::string& key;
  };
  for (const NameOption& n :
       {NameOption{text.player, "--player", f.player}, NameOption{text.white, "--white", f.white},
        NameOption{text.black, "--black", f.black}, NameOption{text.event, "--event", f.event},
        NameOption{text.site, "--site", f.site}, NameOption{text.winner, "--winner", f.winner},
        NameOption{text.loser, "--loser", f.loser}}) {
    if (n.value.empty()) continue;
    n.key = search_key(n.value);
    if (n.key.empty())
      return Error(pgn::cat(n.option, ": '", n.value, "' has no letter or digit to search for"));
  }

  struct PatternOption {
    const std::string& value;
    const char* option;
    std::shared_ptr<const re2::RE2>& pattern;
  };
  for (const PatternOption& p : {PatternOption{text.player_re, "--player-re", f.player_re},
                                 PatternOption{text.white_re, "--white-re", f.white_re},
                                 PatternOption{text.black_re, "--black-re", f.black_re}}) {
    if (p.value.empty()) continue;
    re2::RE2::Options options;
    options.set_case_sensitive(false);
    options.set_log_errors(false);
    auto pattern = std::make_shared<const re2::RE2>(p.value, options);
    if (!pattern->ok())
      return Error(
          pgn::cat(p.option, ": '", p.value, "' is not a regular expression: ", pattern->error()));
    p.pattern = std::move(pattern);
  }
  f.annotated = text.annotated;

  if (!text.result.empty()) {
    const auto result = pgn::parse_game_result(text.result);
    if (!result) return Error("--result: '" + text.result + "' is not 1-0, 0-1, 1/2-1/2 or *");
    f.result = *result;
  }

  // An ECO range, as --OPTION names it.
  auto eco_range = [](const std::string& value,
                      std::string_view option) -> std::expected<EcoRange, std::string> {
    const std::size_t dash = value.find('-');
    auto from = eco_code(std::string_view(value).substr(0, dash));
    auto to = dash == std::string::npos ? from : eco_code(std::string_view(value).substr(dash + 1));
    if (!from || !to)
      return Error(pgn::cat(option, ": '", value, "' is not a code (B90) or a range (B90-B99)"));
    if (*to < *from) return Error(pgn::cat(option, ": the range ", value, " is inverted"));
    return EcoRange{*from, *to};
  };
  if (!text.eco_tag.empty()) {
    auto range = eco_range(text.eco_tag, "--eco-tag");
    if (!range) return Error(range.error());
    f.eco_tag = *range;
  }
  // The openings by position: those whose code is in --eco's range and whose name holds
  // --opening's text and matches --opening-re.
  if (!text.eco.empty() || !text.opening.empty() || !text.opening_re.empty()) {
    std::optional<EcoRange> eco;
    if (!text.eco.empty()) {
      auto range = eco_range(text.eco, "--eco");
      if (!range) return Error(range.error());
      eco = *range;
    }
    const std::string key = search_key(text.opening);
    if (!text.opening.empty() && key.empty())
      return Error(
          pgn::cat("--opening: '", text.opening, "' has no letter or digit to search for"));
    std::unique_ptr<re2::RE2> pattern;
    if (!text.opening_re.empty()) {
      re2::RE2::Options options;
      options.set_case_sensitive(false);
      options.set_log_errors(false);
      pattern = std::make_unique<re2::RE2>(text.opening_re, options);
      if (!pattern->ok())
        return Error(pgn::cat("--opening-re: '", text.opening_re,
                              "' is not a regular expression: ", pattern->error()));
    }
    const auto all = pgn::openings();
    auto bits = std::make_shared<std::vector<std::uint64_t>>((all.size() + 63) / 64, 0);
    for (std::size_t id = 1; id < all.size(); ++id) {
      const pgn::Opening& o = all[id];
      if (eco && (o.eco < eco->from || o.eco > eco->to)) continue;
      if (!key.empty() && search_key(o.name).find(key) == std::string::npos) continue;
      if (pattern && !re2::RE2::PartialMatch(o.name, *pattern)) continue;
      (*bits)[id / 64] |= std::uint64_t(1) << (id % 64);
    }
    f.openings = std::move(bits);
  }

  if (!text.date.empty()) {
    const std::size_t dots = text.date.find("..");
    const std::string_view all(text.date);
    const std::string_view low = dots == std::string::npos ? all : all.substr(0, dots);
    const std::string_view high = dots == std::string::npos ? all : all.substr(dots + 2);
    auto from = low.empty() ? std::optional<std::uint32_t>(0) : date_bound(low, false);
    auto to = high.empty() ? std::optional<std::uint32_t>(0xFFFFFFFF) : date_bound(high, true);
    if (!from || !to)
      return Error("--date: '" + text.date +
                   "' is not a date (1985, 1985.03, 1985.03.01) or a "
                   "range of them (1985..1995)");
    if (*to < *from) return Error("--date: the range " + text.date + " is inverted");
    f.date = NumberRange{*from, *to};
  }

  if (text.min_elo && text.max_elo && text.min_elo > text.max_elo)
    return Error(pgn::cat("--min-elo ", text.min_elo, " is above --max-elo ", text.max_elo));
  f.min_elo = text.min_elo;
  f.max_elo = text.max_elo;

  if (text.min_plies || text.max_plies) {
    if (text.max_plies && text.min_plies > text.max_plies)
      return Error(
          pgn::cat("--min-plies ", text.min_plies, " is above --max-plies ", text.max_plies));
    const unsigned high = text.max_plies ? std::min(text.max_plies, 65535u) : 65535u;
    f.plies = NumberRange{std::min(text.min_plies, 65535u), high};
  }

  for (std::string_view item : comma_items(text.speed)) {
    const auto speed = pgn::parse_speed(item);
    if (!speed)
      return Error(pgn::cat("--speed: '", item,
                            "' is not ultraBullet, bullet, blitz, rapid, classical, "
                            "correspondence or unknown"));
    f.speeds |= std::uint8_t(1u << unsigned(*speed));
  }
  for (std::string_view item : comma_items(text.rating_groups)) {
    const auto& floors = index::rating_group_floors;
    const auto at = std::find_if(floors.begin(), floors.end(),
                                 [&](unsigned floor) { return std::to_string(floor) == item; });
    if (at == floors.end())
      return Error(pgn::cat("--rating-groups: '", item,
                            "' is not a group: 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500"));
    f.rating_groups |= std::uint16_t(1u << unsigned(at - floors.begin()));
  }
  for (std::string_view item : comma_items(text.ending)) {
    const auto ending = pgn::parse_ending(item);
    if (!ending)
      return Error(pgn::cat("--ending: '", item,
                            "' is not checkmate, stalemate, insufficient-material, fivefold, "
                            "seventy-five, threefold, fifty or none"));
    f.endings |= std::uint8_t(1u << unsigned(*ending));
  }
  f.repetition = text.repetition;
  f.fifty_moves = text.fifty_moves;

  // A fault in a spec or a pattern is told with its place in the text (1-based).
  const auto spec_error = [](const char* option, std::string_view text, std::size_t offset,
                             const std::string& message) {
    return Error(
        pgn::cat(option, ": ", message, ", at character ", offset + 1, " of \"", text, "\""));
  };
  struct Spec {
    const std::string& text;
    const char* option;
    std::shared_ptr<const pgn::MaterialSpec>& spec;
  };
  for (const Spec& s : {Spec{text.material, "--material", f.material},
                        Spec{text.final_material, "--final-material", f.final_material}}) {
    if (s.text.empty()) continue;
    auto parsed = pgn::MaterialSpec::parse(s.text);
    if (!parsed) return spec_error(s.option, s.text, parsed.error().offset, parsed.error().message);
    s.spec = std::make_shared<const pgn::MaterialSpec>(std::move(*parsed));
  }
  if (text.either_colour && !f.material && !f.final_material)
    return Error("--either-colour: give --material or --final-material");
  f.either_colour = text.either_colour;
  if (f.material && f.material->stability()) f.stable = *f.material->stability();
  if (!text.stable.empty()) {
    if (!f.material) return Error("--stable: give --material");
    unsigned n = 0;
    auto [end, error] =
        std::from_chars(text.stable.data(), text.stable.data() + text.stable.size(), n);
    if (error != std::errc() || end != text.stable.data() + text.stable.size() || n > 65535)
      return Error(pgn::cat("--stable: '", text.stable, "' is not a number of plies (0 to 65535)"));
    f.stable = n;
  }
  if (!text.pattern.empty() && !text.pattern_either.empty())
    return Error("--pattern and --pattern-either: give one of them");
  const std::string& pattern = text.pattern.empty() ? text.pattern_either : text.pattern;
  if (!pattern.empty()) {
    const char* option = text.pattern.empty() ? "--pattern-either" : "--pattern";
    auto parsed = pgn::FenPattern::parse(pattern);
    if (!parsed) return spec_error(option, pattern, parsed.error().offset, parsed.error().message);
    f.pattern = std::make_shared<const pgn::FenPattern>(std::move(*parsed));
    f.pattern_either = !text.pattern_either.empty();
  }
  if (!text.to_move.empty()) {
    if (!f.pattern) return Error("--to-move: give --pattern or --pattern-either");
    if (text.to_move == "white")
      f.to_move = pgn::White;
    else if (text.to_move == "black")
      f.to_move = pgn::Black;
    else
      return Error(pgn::cat("--to-move: '", text.to_move, "' is not white or black"));
  }
  return f;
}

}  // namespace pgndb::query
