#include <chrono>
#include <iostream>
#include <string>

#include "command.h"
#include "pgn/fen.h"
#include "pgn/perft.h"
#include "pgn/san.h"

namespace pgndb::cli {

void declare_perft(po::options_description& options, po::positional_options_description&) {
  options.add_options()(
      "fen", po::value<std::string>()->default_value(std::string(pgn::start_fen)),
      "position to count from (FEN or EPD; Chess960 castling as X-FEN or Shredder-FEN)")(
      "depth", po::value<int>()->required(), "plies to count (1 to 20)")(
      "divide", po::bool_switch(), "also print the count below each legal move, in UCI notation")(
      "time", po::bool_switch(), "print the elapsed time and nodes per second on stderr");
}

// perft's options, checked.
struct PerftOptions {
  pgn::Position position;
  int depth = 0;
  bool divide = false, time = false;
};

Parsed<PerftOptions> parse_perft(const po::variables_map& vm) {
  const int depth = vm["depth"].as<int>();
  if (depth < 1 || depth > 20) return std::unexpected("--depth must be between 1 and 20");
  auto pos = pgn::parse_fen(vm["fen"].as<std::string>());
  if (!pos) return std::unexpected("invalid FEN: " + pos.error().message());
  return PerftOptions{*pos, depth, vm["divide"].as<bool>(), vm["time"].as<bool>()};
}

int run_perft(const PerftOptions& o) {
  const pgn::Position* pos = &o.position;
  const int depth = o.depth;
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t nodes = 0;
  if (o.divide) {
    for (const auto& [move, count] : pgn::perft_divide(*pos, depth)) {
      std::cout << pgn::to_uci(*pos, move) << ": " << count << '\n';
      nodes += count;
    }
    std::cout << '\n';
  } else {
    nodes = pgn::perft(*pos, depth);
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  std::cout << nodes << std::endl;
  if (o.time) {
    std::cerr << "time: " << elapsed.count() << " s, "
              << static_cast<std::uint64_t>(double(nodes) / std::max(elapsed.count(), 1e-9))
              << " nodes/s\n";
  }
  return Success;
}

extern const Command perft_command{
    "perft", "count the leaf nodes of the legal move tree (move generator check)",
    "pgndb perft [--fen FEN] --depth N [--divide] [--time]", declare_perft,
    [](const po::variables_map& vm) {
      return parse_then_run("perft", vm, parse_perft, run_perft);
    }};

}  // namespace pgndb::cli
