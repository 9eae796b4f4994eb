// A pgndb subcommand: its name, a one-line summary, its options, and the function that runs it
// with the parsed options. main() alone turns results into exit codes.
#pragma once

#include <boost/program_options.hpp>
#include <expected>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/piece_letters.h"
#include "pgn/writer.h"

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

// A command's options as one struct, every value checked; or the one-line message naming the
// option (or input) that is wrong.
template <class Options>
using Parsed = std::expected<Options, std::string>;

// How every command runs (Command::run calls it): `parse` reads and checks all its options and
// inputs first, touching nothing on disk (no database created or upgraded, no output file
// truncated); then `run` does the work with them. A failed parse prints "pgndb NAME: message"
// and exits with Usage.
template <class Options>
int parse_then_run(std::string_view name, const po::variables_map& vm,
                   Parsed<Options> (*parse)(const po::variables_map&), int (*run)(const Options&)) {
  Parsed<Options> options = parse(vm);
  if (!options) {
    std::cerr << "pgndb " << name << ": " << options.error() << '\n';
    return Usage;
  }
  return run(*options);
}

// Checks shared by the commands' parse functions: a message naming the option, or nothing.
// `value` within [low, high].
[[nodiscard]] std::expected<void, std::string> within(std::string_view option, std::uint64_t value,
                                                      std::uint64_t low, std::uint64_t high);
// Each input file opens (`-`, standard input, always does).
[[nodiscard]] std::expected<void, std::string> inputs_open(const std::vector<std::string>& files);
// `output` (`-` for standard output) is none of `inputs`: writing it would truncate one first.
[[nodiscard]] std::expected<void, std::string> output_apart(const std::string& output,
                                                            const std::vector<std::string>& inputs);

// Piece letters (pgn/piece_letters.h). `--lang CODE` where a command reads PGN (check, import,
// normalize): the letters its moves are written in, every game read in them (none: English, and
// a game that does not read in English is tried in the others'). Where it writes moves (export,
// show, and normalize's `--output-lang`), with `--figurine`: the letters written, outside PGN's
// export format (which wants English).
void declare_reading_language(po::options_description& options);
void declare_writing_language(po::options_description& options, std::string_view option = "lang");
// The letters `--OPTION` names (nothing when it is not given), or a message listing the codes.
[[nodiscard]] std::expected<std::optional<pgn::PieceLetters>, std::string> language_option(
    const po::variables_map& vm, std::string_view option = "lang");
// How moves are written: `--OPTION` (declare_writing_language) and `--figurine`, not both.
[[nodiscard]] std::expected<pgn::WriterOptions, std::string> writer_options(
    const po::variables_map& vm, std::string_view option = "lang");

// The options of a command that takes the database alone (stats, compact, upgrade).
struct DatabaseOption {
  std::string db;
};
[[nodiscard]] inline Parsed<DatabaseOption> parse_database_option(const po::variables_map& vm) {
  return DatabaseOption{vm["db"].as<std::string>()};
}

// Each command, defined beside its options in its own file (command_NAME.cpp).
extern const Command check_command, normalize_command, import_command, rejects_command,
    stats_command, find_command, export_command, show_command, tree_command, serve_command,
    verify_command, compact_command, upgrade_command, perft_command;

// Every command, in the order `pgndb --help` lists them.
std::span<const Command> commands();

}  // namespace pgndb::cli
