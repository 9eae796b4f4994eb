// pgndb: parse the subcommand and its options, run it, return its exit code.

#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "command.h"
#include "option_error.h"

namespace pgndb::cli {

void declare_perft(po::options_description&, po::positional_options_description&);
int run_perft(const po::variables_map&);
void declare_check(po::options_description&, po::positional_options_description&);
int run_check(const po::variables_map&);
void declare_normalize(po::options_description&, po::positional_options_description&);
int run_normalize(const po::variables_map&);
void declare_import(po::options_description&, po::positional_options_description&);
int run_import(const po::variables_map&);
void declare_rejects(po::options_description&, po::positional_options_description&);
int run_rejects(const po::variables_map&);
void declare_stats(po::options_description&, po::positional_options_description&);
int run_stats(const po::variables_map&);
void declare_find(po::options_description&, po::positional_options_description&);
int run_find(const po::variables_map&);
void declare_export(po::options_description&, po::positional_options_description&);
int run_export(const po::variables_map&);
void declare_show(po::options_description&, po::positional_options_description&);
int run_show(const po::variables_map&);
void declare_tree(po::options_description&, po::positional_options_description&);
int run_tree(const po::variables_map&);
void declare_serve(po::options_description&, po::positional_options_description&);
int run_serve(const po::variables_map&);
void declare_verify(po::options_description&, po::positional_options_description&);
int run_verify(const po::variables_map&);
void declare_compact(po::options_description&, po::positional_options_description&);
int run_compact(const po::variables_map&);
void declare_upgrade(po::options_description&, po::positional_options_description&);
int run_upgrade(const po::variables_map&);

std::span<const Command> commands() {
  static const Command all[] = {
      {"check", "replay every game and report each problem as FILE:LINE:COL", "pgndb check FILE...",
       declare_check, run_check},
      {"normalize", "rewrite games in PGN export format (canonical SAN, NAGs, 80 columns)",
       "pgndb normalize FILE... [-o OUT] [--skip-errors]", declare_normalize, run_normalize},
      {"import", "store games in a database (games that cannot be replayed are quarantined)",
       "pgndb import --db DIR FILE...", declare_import, run_import},
      {"rejects", "write the quarantined games back out, as they were written",
       "pgndb rejects --db DIR [-o FILE]", declare_rejects, run_rejects},
      {"stats", "what a database holds: games, rejects, positions, players, dates, bytes",
       "pgndb stats --db DIR [--json]", declare_stats, run_stats},
      {"find", "the games that pass the filters (position, players, result, ECO, date, ...)",
       "pgndb find --db DIR [filters] [--format table|pgn|json|count] [--limit N] [--offset N]\n"
       "           [--sort id|date|-date|elo|-elo]",
       declare_find, run_find},
      {"export", "write the games that pass the filters as PGN (.pgn.zst compressed)",
       "pgndb export --db DIR [filters] [-o OUT]", declare_export, run_export},
      {"show", "one game as PGN, and its board at a ply as a diagram (--svg: a drawing)",
       "pgndb show --db DIR ID [--ply N] [--svg FILE] [--flip]", declare_show, run_show},
      {"tree", "the opening explorer: every move played from a position, and how it scored",
       "pgndb tree --db DIR [--fen FEN | --moves \"...\"] [filters] [--json]", declare_tree,
       run_tree},
      {"serve", "the opening explorer and a JSON API over HTTP (lichess's explorer format)",
       "pgndb serve --db DIR [--host 127.0.0.1] [--port 9090] [--threads N]", declare_serve,
       run_serve},
      {"verify", "check every index entry against the games; exit 1 on any inconsistency",
       "pgndb verify --db DIR [--limit N] [--quiet]", declare_verify, run_verify},
      {"compact", "rewrite the database whole: smallest, fastest to search (readers go on)",
       "pgndb compact --db DIR", declare_compact, run_compact},
      {"upgrade", "convert a database of an older schema (9 to 17) to this one, in place",
       "pgndb upgrade --db DIR", declare_upgrade, run_upgrade},
      {"perft", "count the leaf nodes of the legal move tree (move generator check)",
       "pgndb perft [--fen FEN] --depth N [--divide]", declare_perft, run_perft},
  };
  return all;
}

namespace {

const Command* find_command(std::string_view name) {
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
    const Command* c = find_command(args[1]);
    if (!c) {
      std::cerr << "pgndb: unknown command '" << args[1] << "' (see pgndb --help)\n";
      return Usage;
    }
    print_command_help(*c, std::cout);
    return Success;
  }
  const Command* c = find_command(args[0]);
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
