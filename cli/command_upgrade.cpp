// `pgndb upgrade --db DIR`: brings a database of an older schema that this pgndb can convert
// (versions 9 and 10) to the current one, in place, and nothing else: any writer would, but an
// import needs files and `pgndb compact` also rewrites the whole position index.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <string>

#include "command.h"
#include "pgndb/index/store.h"

namespace pgndb::cli {

void declare_upgrade(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory");
}

int run_upgrade(const DatabaseOption& o) {
  const std::string& path = o.db;
  const auto start = std::chrono::steady_clock::now();
  auto store = index::Store::open(path, {.create_if_missing = false});
  if (!store) {
    std::cerr << "pgndb upgrade: " << store.error().message() << '\n';
    return Usage;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!store->upgraded_from()) {
    std::cout << path << " is at schema version " << store->version() << ": nothing to do\n";
    return Success;
  }
  std::cout << "upgraded " << path << " from schema version " << store->upgraded_from() << " to "
            << store->version() << " in " << std::fixed << std::setprecision(1) << seconds
            << " s\n";
  return Success;
}

extern const Command upgrade_command{
    "upgrade", "convert a database of an older schema (9 or later) to this one, in place",
    "pgndb upgrade --db DIR", declare_upgrade, [](const po::variables_map& vm) {
      return parse_then_run("upgrade", vm, parse_database_option, run_upgrade);
    }};

}  // namespace pgndb::cli
