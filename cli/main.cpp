// pgndb: parse the subcommand and its options, run it, return its exit code.

#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "command.h"
#include "option_error.h"

namespace pgndb::cli {

std::span<const Command> commands() {
  static const Command all[] = {
      check_command,  normalize_command, import_command,  rejects_command, stats_command,
      find_command,   export_command,    show_command,    tree_command,    serve_command,
      verify_command, compact_command,   upgrade_command, perft_command,
  };
  return all;
}

namespace {

const Command* command_named(std::string_view name) {
  for (const auto& c : commands())
    if (c.name == name) return &c;
  return nullptr;
}

void print_overview(std::ostream& out) {
  out << "pgndb: a searchable database for PGN chess archives\n\n"
         "usage: pgndb COMMAND [OPTIONS]\n"
         "       pgndb help COMMAND\n\n"
         "commands:\n";
  for (const auto& c : commands()) {
    out << "  " << c.name << std::string(12 - std::min<std::size_t>(c.name.size(), 11), ' ')
        << c.summary << '\n';
  }
  out << "  help        show the options of a command\n";
}

void print_command_help(const Command& c, std::ostream& out) {
  po::options_description options("options");
  po::positional_options_description positional;
  c.declare(options, positional);
  out << "usage: " << c.usage << "\n\n" << c.summary << "\n\n" << options;
}

int run_command(const Command& c, const std::vector<std::string>& args) {
  po::options_description options("options");
  po::positional_options_description positional;
  c.declare(options, positional);
  options.add_options()("help,h", "show this help");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    if (vm.count("help")) {
      print_command_help(c, std::cout);
      return Success;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "pgndb " << c.name << ": " << option_error_message(e, args) << " (see pgndb help "
              << c.name << ")\n";
    return Usage;
  }
  return c.run(vm);
}

}  // namespace
}  // namespace pgndb::cli

int main(int argc, char** argv) {
  using namespace pgndb::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    print_overview(args.empty() ? std::cerr : std::cout);
    return args.empty() ? Usage : Success;
  }
  if (args[0] == "--version") {
    std::cout << "pgndb " << PGNDB_VERSION << '\n';
    return Success;
  }
  if (args[0] == "help") {
    if (args.size() < 2) {
      print_overview(std::cout);
      return Success;
    }
    const Command* c = command_named(args[1]);
    if (!c) {
      std::cerr << "pgndb: unknown command '" << args[1] << "' (see pgndb --help)\n";
      return Usage;
    }
    print_command_help(*c, std::cout);
    return Success;
  }
  const Command* c = command_named(args[0]);
  if (!c) {
    std::cerr << "pgndb: unknown " << (args[0].starts_with('-') ? "option" : "command") << " '"
              << args[0] << "' (see pgndb --help)\n";
    return Usage;
  }
  try {
    return run_command(*c, std::vector<std::string>(args.begin() + 1, args.end()));
  } catch (const std::exception& e) {
    // Unexpected (the commands return their errors): an error that stops the run, like I/O.
    std::cerr << "pgndb " << c->name << ": " << e.what() << '\n';
    return Usage;
  }
}
