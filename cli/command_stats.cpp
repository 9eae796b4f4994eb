#include <algorithm>
#include <iostream>
#include <set>
#include <string>

#include "command.h"
#include "pgndb/index/store.h"
#include "pgndb/serve/answer_json.h"

namespace pgndb::cli {

void declare_stats(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory")(
      "json", po::bool_switch(), "print one JSON object instead of text");
}

// stats's options.
struct StatsOptions {
  std::string db;
  bool json = false;
};

Parsed<StatsOptions> parse_stats(const po::variables_map& vm) {
  return StatsOptions{vm["db"].as<std::string>(), vm["json"].as<bool>()};
}

int run_stats(const StatsOptions& o) {
  auto store = index::Store::open(o.db, {.create_if_missing = false, .read_only = true});
  if (!store) {
    std::cerr << "pgndb stats: " << store.error().message() << '\n';
    return Usage;
  }
  auto stats = store->stats();
  if (!stats) {
    std::cerr << "pgndb stats: " << stats.error().message() << '\n';
    return Usage;
  }
  std::uint64_t total_bytes = 0;
  for (const auto& [part, bytes] : stats->bytes_by_part) total_bytes += bytes;
  const double per_game = stats->games ? double(total_bytes) / double(stats->games) : 0.0;

  if (o.json) {
    std::cout << serve::json_text(serve::stats_json(*stats)) << '\n';
    return Success;
  }
  std::cout << "games:      " << stats->games << '\n'
            << "duplicates: " << stats->duplicates << '\n'
            << "rejects:    " << stats->rejects << '\n'
            << "sources:    " << stats->sources << '\n'
            << "positions:  " << stats->positions << " in " << stats->position_generations
            << (stats->position_generations == 1 ? " generation" : " generations")
            << " (a lookup reads one run in each; pgndb compact merges them)\n"
            << "players:    " << stats->players << '\n'
            << "dates:      " << (stats->first_date.empty() ? "-" : stats->first_date) << " to "
            << (stats->last_date.empty() ? "-" : stats->last_date) << '\n'
            << "on disk:    " << total_bytes << " bytes (" << std::uint64_t(per_game)
            << " per game)\n";
  for (const auto& [part, bytes] : stats->bytes_by_part)
    std::cout << "  " << part << std::string(12 - std::min<std::size_t>(part.size(), 11), ' ')
              << bytes << '\n';
  return Success;
}

extern const Command stats_command{
    "stats", "what a database holds: games, rejects, positions, players, dates, bytes",
    "pgndb stats --db DIR [--json]", declare_stats, [](const po::variables_map& vm) {
      return parse_then_run("stats", vm, parse_stats, run_stats);
    }};

}  // namespace pgndb::cli
