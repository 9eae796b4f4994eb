// pgndb tree: the opening explorer. From a position, every move played in the games that pass
// the filters, with games, results, ratings and the last year played.
#include <cstdio>
#include <iostream>
#include <string>

#include "command.h"
#include "filter_options.h"
#include "pgn/game.h"
#include "pgn/openings.h"
#include "pgndb/index/store.h"
#include "pgndb/query/tree.h"
#include "pgndb/serve/answer_json.h"

namespace pgndb::cli {

namespace {

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char text[16];
  std::snprintf(text, sizeof text, "%5.1f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
  return text;
}

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

}  // namespace

void declare_tree(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory")(
      "json", po::bool_switch(), "one JSON object per move, as pgndb serve's /api/tree");
  declare_filters(options);
}

// tree's options, checked.
struct TreeCommandOptions {
  std::string db;
  query::Filters filters;  // with a position (the start when none is given)
  bool json = false;
};

Parsed<TreeCommandOptions> parse_tree(const po::variables_map& vm) {
  auto text = filter_text(vm);
  // The tree counts the moves of main lines: a game that reaches the position only in a
  // variation has no main-line move there.
  if (text.in_variations)
    return std::unexpected("--in-variations: the tree follows main lines only");
  if (text.fen.empty() && text.moves.empty()) text.moves = " ";  // the start position
  auto filters = checked_filters(text);
  if (!filters) return std::unexpected(filters.error());
  return TreeCommandOptions{vm["db"].as<std::string>(), std::move(*filters), vm["json"].as<bool>()};
}

int run_tree(const TreeCommandOptions& o) {
  auto store = open_for_reading(o.db, "tree");
  if (!store) return Usage;
  auto rows = query::opening_tree(*store, o.filters);
  if (!rows) {
    std::cerr << "pgndb tree: " << rows.error().message() << '\n';
    return Usage;
  }
  std::uint64_t total = 0;
  for (const auto& row : *rows) total += row.games;
  if (o.json) {
    for (const auto& r : *rows)
      std::cout << serve::json_text(serve::tree_row_json(r, *o.filters.position)) << '\n';
    return Success;
  }
  // The openings (pgn/openings.h) named at the position and at each one a move leads to.
  auto opening_text = [](const pgn::Position& pos) {
    const pgn::Opening& o = pgn::openings()[pgn::opening_at(pgn::repetition_key(pos))];
    return o.eco.empty() ? std::string() : std::string(o.eco) + " " + std::string(o.name);
  };
  const pgn::Position& root = *o.filters.position;
  if (const std::string here = opening_text(root); !here.empty())
    std::cout << "opening: " << here << '\n';
  std::cout << "move      games      %    white    draws    black  avg elo  perf  last  opening\n";
  for (const auto& r : *rows) {
    std::string leads_to;
    if (r.move != pgn::Move::none()) {
      pgn::Position after = root;
      after.play(r.move);
      leads_to = opening_text(after);
    }
    std::cout << r.san << std::string(r.san.size() < 8 ? 8 - r.san.size() : 1, ' ')
              << padded(std::to_string(r.games), 7) << ' ' << percent(r.games, total) << ' '
              << percent(r.white_wins, r.games) << ' ' << percent(r.draws, r.games) << ' '
              << percent(r.black_wins, r.games) << ' '
              << padded(r.average_elo ? std::to_string(r.average_elo) : "-", 8) << ' '
              << padded(r.performance ? std::to_string(r.performance) : "-", 5) << ' '
              << padded(r.last_year ? std::to_string(r.last_year) : "-", 5)
              << (leads_to.empty() ? "" : "  " + leads_to) << '\n';
  }
  std::cout << "total   " << padded(std::to_string(total), 7) << '\n';
  return Success;
}

extern const Command tree_command{
    "tree", "the opening explorer: every move played from a position, and how it scored",
    "pgndb tree --db DIR [--fen FEN | --moves \"...\"] [filters] [--json]", declare_tree,
    [](const po::variables_map& vm) { return parse_then_run("tree", vm, parse_tree, run_tree); }};

}  // namespace pgndb::cli
