#include <iostream>
#include <string>

#include "command.h"
#include "pgndb/index/store.h"
#include "pgndb/index/verify.h"

namespace pgndb::cli {

void declare_verify(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory")(
      "limit", po::value<std::size_t>()->default_value(100),
      "print at most this many inconsistencies (all are counted)")(
      "threads", po::value<unsigned>()->default_value(0),
      "threads decoding and replaying games (0: one per core)")(
      "quiet,q", po::bool_switch(), "print nothing; the exit code tells");
}

// verify's options, checked.
struct VerifyOptions {
  std::string db;
  std::size_t limit = 100;
  unsigned threads = 0;
  bool quiet = false;
};

Parsed<VerifyOptions> parse_verify(const po::variables_map& vm) {
  VerifyOptions o{vm["db"].as<std::string>(), vm["limit"].as<std::size_t>(),
                  vm["threads"].as<unsigned>(), vm["quiet"].as<bool>()};
  if (auto checked = within("threads", o.threads, 0, 1024); !checked)
    return std::unexpected(checked.error());
  return o;
}

// Exit 0 when the database is consistent, 1 when it is not, 2 when it cannot be read.
int run_verify(const VerifyOptions& o) {
  auto store = index::Store::open(o.db, {.create_if_missing = false, .read_only = true});
  if (!store) {
    std::cerr << "pgndb verify: " << store.error().message() << '\n';
    return Usage;
  }
  const bool quiet = o.quiet;
  auto report = index::verify_store(*store, {.threads = o.threads, .keep = quiet ? 0 : o.limit});
  if (!report) {
    std::cerr << "pgndb verify: " << report.error().message() << '\n';
    return Usage;
  }
  if (quiet) return report->consistent() ? Success : Failure;
  for (const auto& problem : report->listed)
    std::cout << problem.family << ": " << problem.text << '\n';
  if (report->inconsistencies > report->listed.size())
    std::cout << "... and " << report->inconsistencies - report->listed.size() << " more\n";
  const auto& r = *report;
  std::cout << "checked " << r.games << " games (" << r.undecodable << " undecodable), "
            << r.summaries << " summaries, " << r.facts << " facts, " << r.materials
            << " material histories, " << r.positions << " positions, " << r.variation_positions
            << " variation positions, " << r.position_statistics
            << " position statistics, "
            // Since schema 15 the metadata family is empty: its keys are named only when found.
            << (r.metadata ? std::to_string(r.metadata) + " metadata keys, " : std::string())
            << r.postings << " lists of games, " << r.names << " names, " << r.name_index
            << " name index keys, " << r.fingerprints << " fingerprints, " << r.duplicates
            << " duplicates, " << r.rejects << " rejects, " << r.sources << " sources: "
            << (r.consistent() ? std::string("consistent")
                               : std::to_string(r.inconsistencies) + " inconsistencies")
            << '\n';
  return report->consistent() ? Success : Failure;
}

extern const Command verify_command{
    "verify", "check every index entry against the games; exit 1 on any inconsistency",
    "pgndb verify --db DIR [--limit N] [--quiet] [--threads N]", declare_verify,
    [](const po::variables_map& vm) {
      return parse_then_run("verify", vm, parse_verify, run_verify);
    }};

}  // namespace pgndb::cli
