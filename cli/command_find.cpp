// pgndb find: the games that pass the filters, as a table, PGN, JSON lines or a count.
#include <algorithm>
#include <iostream>
#include <string>

#include "command.h"
#include "filter_options.h"
#include "pgn/game.h"
#include "pgn/openings.h"
#include "pgn/text.h"
#include "pgn/writer.h"
#include "pgndb/index/store.h"
#include "pgndb/query/filters.h"
#include "pgndb/query/game_facts.h"
#include "pgndb/query/search.h"
#include "pgndb/serve/game_json.h"

namespace pgndb::cli {

namespace {

std::string tag_or(const pgn::GameRecord& game, std::string_view name, std::string_view none) {
  const std::string* v = game.tag(name);
  return v ? *v : std::string(none);
}

// The first ply at which the main line stands in `position`, or `none`: only a variation
// reaches it (with --in-variations), or the index matched another position on its 40 bits.
std::string ply_text(const pgn::GameRecord& game, const pgn::Position& position,
                     std::string_view none) {
  const auto ply = query::first_ply_at(game, pgn::repetition_key(position));
  return ply ? std::to_string(*ply) : std::string(none);
}

// A column of at most `width` bytes (cut at a UTF-8 boundary), padded with spaces.
std::string column(std::string_view text, std::size_t width) {
  if (text.size() > width) {
    std::size_t cut = width;
    while (cut > 0 && (std::uint8_t(text[cut]) & 0xC0) == 0x80) --cut;
    text = text.substr(0, cut);
  }
  std::size_t shown = 0;
  for (char c : text) shown += (std::uint8_t(c) & 0xC0) != 0x80;
  return std::string(text) + std::string(width > shown ? width - shown : 0, ' ');
}

}  // namespace

void declare_find(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory")(
      "format", po::value<std::string>()->default_value("table"), "table, pgn, json or count")(
      "limit", po::value<std::uint64_t>()->default_value(0), "at most N games (0: all)")(
      "offset", po::value<std::uint64_t>()->default_value(0), "skip the first N games")(
      "sort", po::value<std::string>()->default_value("id"),
      "id, date, -date, elo or -elo (average rating; - for descending)")(
      "explain", po::bool_switch(),
      "print on stderr how the search ran: the indexes that answered, candidates, passed");
  declare_filters(options);
}

namespace {

// The plan of `pgndb find --explain`, on stderr: the results on stdout stay as they are.
void explain(const query::Plan& plan) {
  for (std::size_t i = 0; i < plan.steps.size(); ++i)
    std::cerr << "plan: " << (i == 0 ? "index " : "intersected with ") << plan.steps[i].index
              << ": " << plan.steps[i].games << " games\n";
  if (plan.every_game) std::cerr << "plan: no index answers these filters: every game\n";
  if (!plan.checked.empty()) {
    std::cerr << "plan: checked on each candidate's facts:";
    for (std::size_t i = 0; i < plan.checked.size(); ++i)
      std::cerr << (i ? ", " : " ") << plan.checked[i];
    std::cerr << '\n';
  }
  if (!plan.order.empty()) std::cerr << "plan: sorted by " << plan.order << '\n';
  if (plan.read_as_needed)
    std::cerr << (plan.epochs_read
                      ? pgn::cat("plan: the lists read an epoch of 2^20 ids at a time, as the "
                                 "search needs games: ",
                                 plan.epochs_read, plan.epochs_read == 1 ? " epoch" : " epochs",
                                 " read\n")
                      : std::string("plan: the position's games read as the search needs them\n"));
  if (plan.replayed)
    std::cerr << "plan: " << plan.replayed
              << " main lines replayed (the pattern's pieces, pawns' squares and rooks' ranks "
                 "reached)\n";
  std::cerr << "plan: " << plan.candidates
            << (plan.read_as_needed ? " candidates read, " : " candidates, ") << plan.examined
            << " examined, " << plan.passed << " passed\n";
}

}  // namespace

// find's options, checked.
struct FindOptions {
  std::string db;
  query::Filters filters;
  std::string format;  // table, pgn, json or count
  query::Order order = query::Order::Id;
  std::uint64_t offset = 0, limit = 0;
  bool explain = false;
};

Parsed<FindOptions> parse_find(const po::variables_map& vm) {
  FindOptions o;
  o.db = vm["db"].as<std::string>();
  o.format = vm["format"].as<std::string>();
  if (o.format != "table" && o.format != "pgn" && o.format != "json" && o.format != "count")
    return std::unexpected(pgn::cat("--format: '", o.format, "' is not table, pgn, json or count"));
  const std::string sort = vm["sort"].as<std::string>();
  const auto order = query::parse_order(sort);
  if (!order) return std::unexpected(pgn::cat("--sort: '", sort, "' is not ", query::order_names));
  o.order = *order;
  auto filters = checked_filters(filter_text(vm));
  if (!filters) return std::unexpected(filters.error());
  o.filters = std::move(*filters);
  o.offset = vm["offset"].as<std::uint64_t>();
  o.limit = vm["limit"].as<std::uint64_t>();
  o.explain = vm["explain"].as<bool>();
  return o;
}

int run_find(const FindOptions& o) {
  auto opened = open_for_reading(o.db, "find");
  if (!opened) return Usage;
  const index::Store* store = &*opened;
  const query::Filters* filters = &o.filters;
  const std::string& format = o.format;
  const std::uint64_t offset = o.offset, limit = o.limit;
  const bool explaining = o.explain;
  auto fail = [](const index::Status& s) {
    std::cerr << "pgndb find: " << s.message() << '\n';
    return Usage;
  };
  if (format == "count" && offset == 0) {
    query::Plan plan;
    auto n = query::count_games(*store, *filters, plan);
    if (!n) return fail(n.error());
    std::cout << (limit ? std::min(*n, limit) : *n) << '\n';
    if (explaining) explain(plan);
    return Success;
  }
  auto search = query::Search::start(*store, *filters, o.order);
  if (!search) {
    std::cerr << "pgndb find: " << search.error().message() << '\n';
    return Usage;
  }
  for (std::uint64_t skipped = 0; skipped < offset; ++skipped) {
    auto id = search->next();
    if (!id) return fail(id.error());
    if (!*id) break;
  }
  if (format == "count") {
    auto n = search->count();
    if (!n) return fail(n.error());
    std::cout << (limit ? std::min(*n, limit) : *n) << '\n';
    if (explaining) explain(search->plan());
    return Success;
  }
  const bool position = filters->position.has_value();
  // A material or pattern search gives the ply where each game matched (Search::match_ply); the
  // table shows it when no position's ply takes the column.
  const bool matched = filters->material || filters->final_material || filters->pattern;
  if (format == "table")
    std::cout << column("id", 7) << ' ' << column("White", 22) << ' ' << column("Black", 22) << ' '
              << column("Result", 7) << ' ' << column("Date", 10) << ' ' << column("Event", 24)
              << ' ' << column("ECO", 3) << ' ' << column("Plies", 5)
              << (position || matched ? " Ply " : " ") << "Opening\n";
  std::string out;
  for (std::uint64_t shown = 0; !limit || shown < limit; ++shown) {
    auto id = search->next();
    if (!id) return fail(id.error());
    if (!*id) break;
    // The table shows the number of plies and, for a position search, the ply: they need the
    // moves. JSON needs the header only.
    auto game = format == "json" && !position ? store->game_header(**id) : store->game(**id);
    if (!game) return fail(game.error());
    // The ending and the opening, for the table and JSON (the table's ECO is the opening's).
    index::GameSummary summary;
    if (format != "pgn") {
      auto read = store->summary(**id);
      if (!read) return fail(read.error());
      summary = *read;
    }
    const pgn::Opening& opening = pgn::openings()[summary.opening_id];
    out.clear();
    if (format == "pgn") {
      pgn::write_game(*game, out);
    } else {
      if (format == "table") {
        out = column(std::to_string(**id), 7) + ' ' + column(tag_or(*game, "White", "?"), 22) +
              ' ' + column(tag_or(*game, "Black", "?"), 22) + ' ' + column(game->result, 7) + ' ' +
              column(tag_or(*game, "Date", "????.??.??"), 10) + ' ' +
              column(tag_or(*game, "Event", "?"), 24) + ' ' + column(std::string(opening.eco), 3) +
              ' ' + column(std::to_string(game->moves.size()), 5);
        if (position)
          out += ' ' + ply_text(*game, *filters->position, filters->in_variations ? "var" : "-");
        else if (matched)
          out += ' ' + std::to_string(search->match_ply().value_or(0));
        out += ' ' + std::string(opening.name);
      } else {
        auto listed = serve::listed_game(**id, *game, &summary);
        if (position) {
          const auto ply = query::first_ply_at(*game, pgn::repetition_key(*filters->position));
          listed["ply"] = ply ? serve::Json(*ply) : serve::Json(nullptr);
        }
        if (matched) listed["match_ply"] = search->match_ply().value_or(0);
        out = serve::json_text(listed);
      }
      out += '\n';
    }
    std::cout << out;
  }
  std::cout.flush();
  if (explaining) explain(search->plan());
  return std::cout ? Success : Usage;
}

extern const Command find_command{
    "find", "the games that pass the filters (position, players, result, ECO, date, ...)",
    "pgndb find --db DIR [filters] [--format table|pgn|json|count] [--limit N] [--offset N]\n"
    "           [--sort id|date|-date|elo|-elo] [--explain]",
    declare_find,
    [](const po::variables_map& vm) { return parse_then_run("find", vm, parse_find, run_find); }};

}  // namespace pgndb::cli
