#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <string>

#include "command.h"
#include "pgndb/index/store.h"

namespace pgndb::cli {

void declare_compact(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory");
}

namespace {

std::uint64_t bytes_on_disk(const std::string& path) {
  std::uint64_t total = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(path, error))
    if (entry.path().extension() == ".sst") total += entry.file_size(error);
  return total;
}

}  // namespace

// Rewrites the database whole: an import leaves the position index in a few runs per bucket
// (merged by size in the background), which this folds into one. Readers go on meanwhile.
int run_compact(const DatabaseOption& o) {
  const std::string& path = o.db;
  const auto start = std::chrono::steady_clock::now();
  auto store = index::Store::open(path, {.create_if_missing = false});
  if (!store) {
    std::cerr << "pgndb compact: " << store.error().message() << '\n';
    return Usage;
  }
  if (store->upgraded_from())
    std::cerr << "pgndb compact: upgraded " << path << " from schema version "
              << store->upgraded_from() << " to " << index::schema_version << '\n';
  const std::uint64_t before = bytes_on_disk(path);
  if (auto s = store->compact(); !s.is_ok()) {
    std::cerr << "pgndb compact: " << s.message() << '\n';
    return Usage;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "compacted " << path << " in " << std::fixed << std::setprecision(1) << seconds
            << " s: " << before << " -> " << bytes_on_disk(path) << " bytes\n";
  return Success;
}

extern const Command compact_command{
    "compact", "rewrite the database whole: smallest, fastest to search (readers go on)",
    "pgndb compact --db DIR", declare_compact, [](const po::variables_map& vm) {
      return parse_then_run("compact", vm, parse_database_option, run_compact);
    }};

}  // namespace pgndb::cli
