// A pgndb subcommand: its name, a one-line summary, its options, and the function that runs it
// with the parsed options. main() alone turns results into exit codes.
#pragma once

#include <boost/program_options.hpp>
#include <span>
#include <string>
#include <string_view>

namespace pgndb::cli {

namespace po = boost::program_options;

// Exit codes shared by every command.
enum ExitCode : int {
  Success = 0,
  Failure = 1,  // the command ran and found what it reports as a failure (e.g. bad games)
  Usage = 2,    // bad command line, or an I/O error before any work
};

struct Command {
  std::string_view name;
  std::string_view summary;
  std::string_view usage;  // e.g. "pgndb perft --fen FEN --depth N [--divide]"
  // Declares the command's options and positional arguments.
  void (*declare)(po::options_description& options, po::positional_options_description& positional);
  // Runs with options already parsed and stored; returns an exit code.
  int (*run)(const po::variables_map& options);
};

// Each command, defined beside its options in its own file (command_NAME.cpp).
extern const Command check_command, normalize_command, import_command, rejects_command,
    stats_command, find_command, export_command, show_command, tree_command, serve_command,
    verify_command, compact_command, upgrade_command, perft_command;

// Every command, in the order `pgndb --help` lists them.
std::span<const Command> commands();

}  // namespace pgndb::cli
