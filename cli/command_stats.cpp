#include <algorithm>
#include <iostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "command.h"
#include "pgn/openings.h"
#include "pgndb/index/store.h"
#include "pgndb/serve/answer_json.h"

namespace pgndb::cli {

void declare_stats(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory")(
      "json", po::bool_switch(), "print one JSON object instead of text")(
      "openings", po::value<unsigned>()->default_value(10),
      "list the N most common openings (by position; 0: none)");
}

// stats's options.
struct StatsOptions {
  std::string db;
  bool json = false;
  unsigned openings = 10;
};

Parsed<StatsOptions> parse_stats(const po::variables_map& vm) {
  StatsOptions o{vm["db"].as<std::string>(), vm["json"].as<bool>(), vm["openings"].as<unsigned>()};
  if (auto checked = within("openings", o.openings, 0, pgn::openings().size() - 1); !checked)
    return std::unexpected(checked.error());
  return o;
}

// The `n` most common openings (pgn/openings.h), most games first: (id, games).
std::vector<std::pair<pgn::OpeningId, std::uint64_t>> most_common(
    const std::vector<std::uint64_t>& counts, std::size_t n) {
  std::vector<std::pair<pgn::OpeningId, std::uint64_t>> out;
  for (std::size_t id = 1; id < counts.size(); ++id)
    if (counts[id]) out.emplace_back(pgn::OpeningId(id), counts[id]);
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (out.size() > n) out.resize(n);
  return out;
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

  std::vector<std::uint64_t> counts;
  if (o.openings) {
    auto counted = store->opening_counts();
    if (!counted) {
      std::cerr << "pgndb stats: " << counted.error().message() << '\n';
      return Usage;
    }
    counts = std::move(*counted);
  }
  const auto common = most_common(counts, o.openings);
  if (o.json) {
    serve::Json out = serve::stats_json(*stats);
    if (o.openings) {
      serve::Json list = serve::Json::array();
      for (const auto& [id, games] : common) {
        serve::Json row = serve::opening_json(id);
        row["games"] = games;
        list.push_back(std::move(row));
      }
      out["openings"] = std::move(list);
      out["unclassified"] = counts.empty() ? 0 : counts[0];
    }
    std::cout << serve::json_text(out) << '\n';
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
  if (o.openings) {
    std::cout << "openings:   the " << common.size() << " most common, by position (" << counts[0]
              << " games unclassified)\n";
    for (const auto& [id, games] : common) {
      const pgn::Opening& opening = pgn::openings()[id];
      std::cout << "  "
                << std::string(12 - std::min<std::size_t>(11, std::to_string(games).size()), ' ')
                << games << "  " << opening.eco << " " << opening.name << '\n';
    }
  }
  return Success;
}

extern const Command stats_command{
    "stats", "what a database holds: games, rejects, positions, players, dates, bytes",
    "pgndb stats --db DIR [--json] [--openings N]", declare_stats, [](const po::variables_map& vm) {
      return parse_then_run("stats", vm, parse_stats, run_stats);
    }};

}  // namespace pgndb::cli
