#include <algorithm>
#include <iostream>
#include <set>
#include <string>

#include "command.h"
#include "pgndb/index/store.h"

namespace pgndb::cli {

namespace {

// JSON string literal: quotes, backslashes and control characters escaped.
std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[(c >> 4) & 15];
      out += hex[c & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

void declare_stats(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory")(
      "json", po::bool_switch(), "print one JSON object instead of text");
}

int run_stats(const po::variables_map& vm) {
  auto store = index::Store::open(vm["db"].as<std::string>(), {.create_if_missing = false});
  if (!store) {
    std::cerr << "pgndb stats: " << store.error().message() << '\n';
    return Usage;
  }
  auto stats = store->stats();
  if (!stats) {
    std::cerr << "pgndb stats: " << stats.error().message() << '\n';
    return Usage;
  }
  // Players and dates come from the games' tags; dates keep their unknown parts (`1994.??.??`).
  std::set<std::string> players;
  std::string first_date, last_date;
  for (std::uint32_t id = 1; id <= store->game_count(); ++id) {
    auto game = store->game_header(id);
    if (!game) {
      std::cerr << "pgndb stats: " << game.error().message() << '\n';
      return Usage;
    }
    for (const char* side : {"White", "Black"})
      if (const std::string* name = game->tag(side); name && *name != "?" && !name->empty())
        players.insert(*name);
    if (const std::string* date = game->tag("Date");
        date && date->size() >= 4 && (*date)[0] != '?') {
      if (first_date.empty() || *date < first_date) first_date = *date;
      if (last_date.empty() || *date > last_date) last_date = *date;
    }
  }
  std::uint64_t total_bytes = 0;
  for (const auto& [part, bytes] : stats->bytes_by_part) total_bytes += bytes;
  const double per_game = stats->games ? double(total_bytes) / double(stats->games) : 0.0;

  if (vm["json"].as<bool>()) {
    std::cout << "{\"games\": " << stats->games << ", \"rejects\": " << stats->rejects
              << ", \"sources\": " << stats->sources << ", \"positions\": " << stats->positions
              << ", \"players\": " << players.size()
              << ", \"first_date\": " << json_string(first_date)
              << ", \"last_date\": " << json_string(last_date) << ", \"bytes\": {";
    bool first = true;
    for (const auto& [part, bytes] : stats->bytes_by_part) {
      std::cout << (first ? "" : ", ") << json_string(part) << ": " << bytes;
      first = false;
    }
    std::cout << "}, \"bytes_total\": " << total_bytes << ", \"bytes_per_game\": " << per_game
              << "}\n";
    return Success;
  }
  std::cout << "games:      " << stats->games << '\n'
            << "rejects:    " << stats->rejects << '\n'
            << "sources:    " << stats->sources << '\n'
            << "positions:  " << stats->positions << '\n'
            << "players:    " << players.size() << '\n'
            << "dates:      " << (first_date.empty() ? "-" : first_date) << " to "
            << (last_date.empty() ? "-" : last_date) << '\n'
            << "on disk:    " << total_bytes << " bytes (" << std::uint64_t(per_game)
            << " per game)\n";
  for (const auto& [part, bytes] : stats->bytes_by_part)
    std::cout << "  " << part << std::string(12 - std::min<std::size_t>(part.size(), 11), ' ')
              << bytes << '\n';
  return Success;
}

}  // namespace pgndb::cli
