// pgndb export: the games that pass the filters, in PGN export format, to a file (compressed
// when its name ends in .zst) or standard output, one game at a time.
#include <iostream>
#include <string>

#include "command.h"
#include "filter_options.h"
#include "pgn/writer.h"
#include "pgndb/index/output.h"
#include "pgndb/index/store.h"
#include "pgndb/query/search.h"

namespace pgndb::cli {

void declare_export(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory")(
      "output,o", po::value<std::string>()->default_value("-"),
      "output file (.pgn, or .pgn.zst compressed); - for standard output");
  declare_writing_language(options);
  declare_filters(options);
}

// export's options, checked.
struct ExportOptions {
  std::string db, output;
  query::Filters filters;
  pgn::WriterOptions writing;
};

Parsed<ExportOptions> parse_export(const po::variables_map& vm) {
  auto filters = checked_filters(filter_text(vm));
  if (!filters) return std::unexpected(filters.error());
  auto writing = writer_options(vm);
  if (!writing) return std::unexpected(writing.error());
  return ExportOptions{vm["db"].as<std::string>(), vm["output"].as<std::string>(),
                       std::move(*filters), *writing};
}

int run_export(const ExportOptions& o) {
  auto opened = open_for_reading(o.db, "export");
  if (!opened) return Usage;
  const index::Store* store = &*opened;
  auto search = query::Search::start(*store, o.filters);
  if (!search) {
    std::cerr << "pgndb export: " << search.error().message() << '\n';
    return Usage;
  }
  // Opened (created, or truncated) only once the search has started: a failure before leaves
  // the file as it was.
  auto out = index::PgnOutput::open(o.output);
  if (!out) {
    std::cerr << "pgndb export: " << out.error() << '\n';
    return Usage;
  }
  std::string text;
  for (;;) {
    auto id = search->next();
    if (!id) {
      std::cerr << "pgndb export: " << id.error().message() << '\n';
      return Usage;
    }
    if (!*id) break;
    auto game = store->game(**id);
    if (!game) {
      std::cerr << "pgndb export: " << game.error().message() << '\n';
      return Usage;
    }
    text.clear();
    pgn::write_game(*game, text, o.writing);
    if (auto w = out->write(text); !w) {
      std::cerr << "pgndb export: " << w.error() << '\n';
      return Usage;
    }
  }
  if (auto c = out->close(); !c) {
    std::cerr << "pgndb export: " << c.error() << '\n';
    return Usage;
  }
  return Success;
}

extern const Command export_command{
    "export", "write the games that pass the filters as PGN (.pgn.zst compressed)",
    "pgndb export --db DIR [filters] [-o OUT] [--lang CODE | --figurine]", declare_export,
    [](const po::variables_map& vm) {
      return parse_then_run("export", vm, parse_export, run_export);
    }};

}  // namespace pgndb::cli
