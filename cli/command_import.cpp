#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "pgn/text.h"
#include "pgndb/index/importer.h"
#include "pgndb/index/output.h"
#include "pgndb/index/store.h"

#include <unistd.h>

namespace pgndb::cli {

namespace {

// One line, rewritten in place, while the import runs on a terminal.
class ProgressLine {
 public:
  ProgressLine() : start_(std::chrono::steady_clock::now()) {}

  void show(const std::string& file, const index::ImportProgress& p) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    std::string line = pgn::cat(file, ": ", p.games, " games");
    if (p.duplicates) line += pgn::cat(", ", p.duplicates, " duplicates");
    if (p.rejects) line += pgn::cat(", ", p.rejects, " rejected");
    line +=
        pgn::cat(", ", std::uint64_t(double(p.all_games) / std::max(seconds, 1e-3)), " games/s");
    if (p.bytes_total) {  // of this file
      const double done = double(p.bytes_read) / double(p.bytes_total);
      line += pgn::cat(", ", p.bytes_read >> 20, " of ", p.bytes_total >> 20, " MiB (",
                       int(done * 100), "%)");
    }
    if (p.all_bytes_total) {  // of the whole import
      const double done = double(p.all_bytes_read) / double(p.all_bytes_total);
      if (done > 0.01) line += pgn::cat(", ETA ", int(seconds * (1 - done) / done), " s");
    }
    std::cerr << '\r' << line << "\x1b[K" << std::flush;
    shown_ = true;
  }
  void clear() {
    if (shown_) std::cerr << "\r\x1b[K" << std::flush;
  }

 private:
  std::chrono::steady_clock::time_point start_, last_;
  bool shown_ = false;
};

}  // namespace

void declare_import(po::options_description& options,
                    po::positional_options_description& positional) {
  options.add_options()("db", po::value<std::string>()->required(),
                        "database directory (created when it does not exist)")(
      "files", po::value<std::vector<std::string>>()->required(),
      "PGN files (`-` for standard input; `.zst` files are decompressed)")(
      "threads", po::value<unsigned>()->default_value(0),
      "threads replaying games (0: one per core)")(
      "skip-duplicates", po::bool_switch(),
      "leave out games identical to a stored one (same moves, players, date and result); by "
      "default they are stored and marked")(
      // Each batch writes one position run per bucket it touches, so larger batches mean
      // fewer, longer runs; an interrupted import loses at most one batch of work.
      "batch", po::value<std::size_t>()->default_value(300000),
      "games per atomic write, at most: larger batches merge less; an interrupted import "
      "loses at most one batch")(
      "batch-mb", po::value<std::size_t>()->default_value(160),
      "a batch also ends when its games take this many MB; two batches are in memory at once "
      "(or one of three times this size holding a whole import), so lower it on a small "
      "machine (at the default, 1,000,000 games peaked at 668 MiB, 300,000 at 621, and 300,000 "
      "with a "
      "clock and an eval on every move at 669; with 20, 494, 396 and 410)")(
      "progress", po::value<std::string>()->default_value("auto"),
      "show progress on stderr: auto (when stderr is a terminal), always, never");
  declare_reading_language(options);
  positional.add("files", -1);
}

// import's options, checked.
struct ImportCommandOptions {
  std::string db;
  std::vector<std::string> files;
  unsigned threads = 0;
  std::size_t batch_games = 0, batch_mb = 0;
  bool skip_duplicates = false;
  std::string progress;                      // auto, always or never
  std::optional<pgn::PieceLetters> letters;  // --lang
};

Parsed<ImportCommandOptions> parse_import(const po::variables_map& vm) {
  ImportCommandOptions o;
  o.db = vm["db"].as<std::string>();
  o.files = vm["files"].as<std::vector<std::string>>();
  o.threads = vm["threads"].as<unsigned>();
  o.batch_games = vm["batch"].as<std::size_t>();
  o.batch_mb = vm["batch-mb"].as<std::size_t>();
  o.skip_duplicates = vm["skip-duplicates"].as<bool>();
  o.progress = vm["progress"].as<std::string>();
  if (o.progress != "auto" && o.progress != "always" && o.progress != "never")
    return std::unexpected("--progress must be auto, always or never");
  auto letters = language_option(vm);
  if (!letters) return std::unexpected(letters.error());
  o.letters = *letters;
  for (auto checked :
       {within("threads", o.threads, 0, 1024),
        within("batch", o.batch_games, 1, index::WriteBatch::max_games),
        within("batch-mb", o.batch_mb, 1, std::size_t(1) << 20), inputs_open(o.files)})
    if (!checked) return std::unexpected(checked.error());
  return o;
}

int run_import(const ImportCommandOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const std::string& db_path = o.db;
  auto store = index::Store::open(db_path);
  if (!store) {
    std::cerr << "pgndb import: " << store.error().message() << '\n';
    return Usage;
  }
  if (store->upgraded_from())
    std::cerr << "pgndb import: upgraded " << db_path << " from schema version "
              << store->upgraded_from() << " to " << index::schema_version << '\n';
  const bool show_progress =
      o.progress == "always" || (o.progress == "auto" && isatty(STDERR_FILENO));
  index::ImportOptions options;
  options.threads = o.threads;
  options.batch_games = o.batch_games;
  options.batch_bytes = o.batch_mb << 20;
  options.skip_duplicates = o.skip_duplicates;
  options.letters = o.letters;
  // Why games were quarantined, as compilers say it; the first few only, since a damaged file
  // can hold thousands (`pgndb rejects` lists them all, with their texts).
  constexpr std::uint64_t rejects_shown = 20;
  std::uint64_t rejects_seen = 0;
  options.on_reject = [&](const index::Reject& r) {
    if (++rejects_seen > rejects_shown) return;
    std::cerr << r.source << ':' << r.location.line << ':' << r.location.column
              << ": error: " << r.error << " (the game is quarantined)\n";
  };
  // One import of all the files: they share batches (a folder costs what its games cost in one
  // file); the progress line names the file being read.
  ProgressLine line;
  if (show_progress)
    options.on_progress = [&](const index::ImportProgress& p) { line.show(o.files[p.file], p); };
  auto imported = index::import_files(*store, o.files, options);
  line.clear();
  if (!imported) {
    // Each batch is committed whole: what was committed stays, and the next run resumes.
    const bool resumable = imported.error().code() == index::Status::Code::NoSpace;
    std::cerr << "pgndb import: " << imported.error().message()
              << (resumable ? "; the games imported before stay, and the import resumes after "
                              "them when run again"
                            : "")
              << '\n';
    return Usage;
  }
  index::FileImport total;
  for (std::size_t i = 0; i < o.files.size(); ++i) {
    const index::FileImport& file = (*imported)[i];
    if (file.already_imported) {
      std::cerr << o.files[i] << ": already imported (" << file.games << " games, as "
                << file.imported_as << "); skipped\n";
      continue;
    }
    if (file.resumed_after)
      std::cerr << o.files[i] << ": resumed after the " << file.resumed_after
                << " games an earlier run handled\n";
    total.games += file.games;
    total.duplicates += file.duplicates;
    total.rejects += file.rejects;
    total.positions += file.positions;
  }

  auto since_start = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const double imported_at = since_start();
  // The background compactions RocksDB chose for what was imported (`pgndb compact` folds the
  // whole position index).
  if (auto s = store->settle(); !s.is_ok()) {
    std::cerr << "pgndb import: " << s.message() << '\n';
    return Usage;
  }
  const double seconds = since_start();
  if (rejects_seen > rejects_shown)
    std::cerr << "... and " << rejects_seen - rejects_shown
              << " more quarantined games: `pgndb rejects --db " << db_path
              << "` lists them all, with their texts\n";
  auto tenths = [](double s) { return pgn::cat(std::int64_t(s), '.', std::int64_t(s * 10) % 10); };
  std::cerr << "imported: " << total.games << " games, duplicates: " << total.duplicates
            << (options.skip_duplicates ? " (left out)" : " (kept, marked)")
            << ", rejected: " << total.rejects << ", positions indexed: " << total.positions
            << ", in " << tenths(seconds) << " s ("
            << std::uint64_t(double(total.games) / std::max(seconds, 1e-9))
            << " games/s: " << tenths(imported_at) << " s reading and writing games, "
            << tenths(seconds - imported_at) << " s merging what it wrote); the database holds "
            << store->game_count() << " games and " << store->reject_count() << " rejects\n";
  return Success;
}

void declare_rejects(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory")(
      "output,o", po::value<std::string>()->default_value("-"),
      "where to write (`-`: stdout; a name ending in .zst is compressed)");
}

struct RejectsOptions {
  std::string db, output;
};

Parsed<RejectsOptions> parse_rejects(const po::variables_map& vm) {
  return RejectsOptions{vm["db"].as<std::string>(), vm["output"].as<std::string>()};
}

int run_rejects(const RejectsOptions& o) {
  auto store = index::Store::open(o.db, {.create_if_missing = false, .read_only = true});
  if (!store) {
    std::cerr << "pgndb rejects: " << store.error().message() << '\n';
    return Usage;
  }
  auto out = index::PgnOutput::open(o.output);
  if (!out) {
    std::cerr << "pgndb rejects: " << out.error() << '\n';
    return Usage;
  }
  // Each rejected game as it was written; why it was rejected goes to stderr.
  for (std::uint32_t id = 1; id <= store->reject_count(); ++id) {
    auto r = store->reject(id);
    if (!r) {
      std::cerr << "pgndb rejects: " << r.error().message() << '\n';
      return Usage;
    }
    std::cerr << r->source << ':' << r->location.line << ':' << r->location.column
              << ": error: " << r->error << '\n';
    if (auto w = out->write(r->text + "\n\n"); !w) {
      std::cerr << "pgndb rejects: " << w.error() << '\n';
      return Usage;
    }
  }
  if (auto c = out->close(); !c) {
    std::cerr << "pgndb rejects: " << c.error() << '\n';
    return Usage;
  }
  return Success;
}

extern const Command import_command{
    "import", "store games in a database (games that cannot be replayed are quarantined)",
    "pgndb import --db DIR FILE... [--threads N] [--skip-duplicates] [--batch N] [--batch-mb MB]\n"
    "             [--progress auto|always|never] [--lang CODE]",
    declare_import, [](const po::variables_map& vm) {
      return parse_then_run("import", vm, parse_import, run_import);
    }};

extern const Command rejects_command{
    "rejects", "write the quarantined games back out, as they were written",
    "pgndb rejects --db DIR [-o FILE]", declare_rejects, [](const po::variables_map& vm) {
      return parse_then_run("rejects", vm, parse_rejects, run_rejects);
    }};

}  // namespace pgndb::cli
