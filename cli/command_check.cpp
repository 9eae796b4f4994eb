#include <iostream>
#include <string>
#include <vector>

#include "command.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgndb/index/input.h"
#include "problems.h"

namespace pgndb::cli {

void declare_check(po::options_description& options,
                   po::positional_options_description& positional) {
  options.add_options()("files", po::value<std::vector<std::string>>()->required(),
                        "PGN files (`-` for standard input; `.zst` files are decompressed)");
  positional.add("files", -1);
}

int run_check(const po::variables_map& vm) {
  std::uint64_t games = 0, ok = 0, with_warnings = 0, with_errors = 0;
  pgn::ReplayVisitor replay;
  for (const auto& file : vm["files"].as<std::vector<std::string>>()) {
    auto source = index::open_pgn_input(file);
    if (!source) {
      std::cerr << "pgndb check: " << source.error() << '\n';
      return Usage;
    }
    pgn::Reader reader(**source);
    for (;;) {
      auto more = reader.read_game(replay);
      if (!more) {
        std::cerr << "pgndb check: " << more.error() << '\n';
        return Usage;
      }
      if (!*more) break;
      ++games;
      for (const auto& p : replay.problems()) print_problem(std::cout, file, p);
      if (replay.has_error())
        ++with_errors;
      else if (replay.has_warning())
        ++with_warnings;
      else
        ++ok;
    }
  }
  std::cout << "games: " << games << ", ok: " << ok << ", warnings: " << with_warnings
            << ", errors: " << with_errors << std::endl;
  return with_errors ? Failure : Success;
}

}  // namespace pgndb::cli
