#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "games.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgn/writer.h"
#include "pgndb/index/output.h"
#include "problems.h"

namespace pgndb::cli {

void declare_normalize(po::options_description& options,
                       po::positional_options_description& positional) {
  options.add_options()("files", po::value<std::vector<std::string>>()->required(),
                        "PGN files (`-` for standard input; `.zst` files are decompressed)")(
      "output,o", po::value<std::string>()->default_value("-"),
      "where to write (`-`: stdout; a name ending in .zst is compressed)")(
      "skip-errors", po::bool_switch(),
      "leave out games with errors instead of copying their original text");
  declare_reading_language(options);
  declare_writing_language(options, "output-lang");
  positional.add("files", -1);
}

// normalize's options, checked: every file opens, and the output is none of them, before the
// output is created.
struct NormalizeOptions {
  std::vector<std::string> files;
  std::string output;
  bool skip_errors = false;
  std::optional<pgn::PieceLetters> letters;  // read in these (--lang)
  pgn::WriterOptions writing;                // written so (--output-lang, --figurine)
};

Parsed<NormalizeOptions> parse_normalize(const po::variables_map& vm) {
  NormalizeOptions o{vm["files"].as<std::vector<std::string>>(),
                     vm["output"].as<std::string>(),
                     vm["skip-errors"].as<bool>(),
                     std::nullopt,
                     {}};
  auto letters = language_option(vm);
  if (!letters) return std::unexpected(letters.error());
  o.letters = *letters;
  auto writing = writer_options(vm, "output-lang");
  if (!writing) return std::unexpected(writing.error());
  o.writing = *writing;
  for (auto checked : {inputs_open(o.files), output_apart(o.output, o.files)})
    if (!checked) return std::unexpected(checked.error());
  return o;
}

int run_normalize(const NormalizeOptions& o) {
  auto out = index::PgnOutput::open(o.output);
  if (!out) {
    std::cerr << "pgndb normalize: " << out.error() << '\n';
    return Usage;
  }
  const bool skip_errors = o.skip_errors;

  pgn::ReplayVisitor replay({.keep_record = true, .keep_text = true, .letters = o.letters});
  std::string buffer;
  std::string write_error;
  auto flush = [&]() {
    if (auto w = out->write(buffer); !w) {
      write_error = w.error();
      return false;
    }
    buffer.clear();
    return true;
  };
  std::uint64_t games = 0, copied = 0, skipped = 0;
  for (const auto& file : o.files) {
    bool written = true;
    auto read = for_each_game(file, replay, [&] {
      ++games;
      for (const auto& p : replay.problems()) print_problem(std::cerr, file, p);
      // A game with an error is kept as it was written, so that nothing is lost.
      if (replay.has_error()) {
        if (skip_errors) {
          ++skipped;
          return true;
        }
        ++copied;
        buffer += replay.original_text();
        buffer += "\n\n";
      } else {
        pgn::write_game(replay.record(), buffer, o.writing);
      }
      if (buffer.size() > (1 << 20)) written = flush();
      return written;
    });
    if (!read) {
      std::cerr << "pgndb normalize: " << read.error() << '\n';
      return Usage;
    }
    if (!written) break;  // reported below
  }
  if (flush()) {
    if (auto c = out->close(); !c) write_error = c.error();
  }
  if (!write_error.empty()) {
    std::cerr << "pgndb normalize: " << write_error << '\n';
    return Usage;
  }
  std::cerr << "games: " << games << ", normalized: " << games - copied - skipped
            << ", copied unchanged: " << copied << ", skipped: " << skipped << '\n';
  return Success;
}

extern const Command normalize_command{
    "normalize", "rewrite games in PGN export format (canonical SAN, NAGs, 80 columns)",
    "pgndb normalize FILE... [-o OUT] [--skip-errors] [--lang CODE] [--output-lang CODE | "
    "--figurine]",
    declare_normalize, [](const po::variables_map& vm) {
      return parse_then_run("normalize", vm, parse_normalize, run_normalize);
    }};

}  // namespace pgndb::cli
