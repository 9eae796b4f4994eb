#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "games.h"
#include "output.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgndb/index/store.h"

namespace pgndb::cli {

namespace {

// FNV-1a over a file's bytes: names a source by its contents, so that a file imported whole is
// recognised under any name, and a partly imported one is resumed.
std::expected<std::uint64_t, std::string> content_hash(const std::string& path) {
  auto file = pgn::FileSource::open(path);
  if (!file) return std::unexpected(file.error());
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  std::vector<char> buffer(1 << 20);
  for (;;) {
    auto n = (*file)->read(buffer.data(), buffer.size());
    if (!n) return std::unexpected(n.error());
    if (*n == 0) return hash;
    for (std::size_t i = 0; i < *n; ++i) hash = (hash ^ std::uint8_t(buffer[i])) * 0x100000001b3ULL;
  }
}

}  // namespace

void declare_import(po::options_description& options,
                    po::positional_options_description& positional) {
  options.add_options()("db", po::value<std::string>()->required(),
                        "database directory (created when it does not exist)")(
      "files", po::value<std::vector<std::string>>()->required(),
      "PGN files (`-` for standard input; `.zst` files are decompressed)")(
      // Each batch writes one position run per bucket it touches, so larger batches mean
      // fewer, longer runs; an interrupted import loses at most one batch of work.
      "batch", po::value<std::size_t>()->default_value(20000),
      "games per atomic write (an interrupted import loses at most one batch)");
  positional.add("files", -1);
}

int run_import(const po::variables_map& vm) {
  const auto start = std::chrono::steady_clock::now();
  const std::string db_path = vm["db"].as<std::string>();
  auto store = index::Store::open(db_path);
  if (!store) {
    std::cerr << "pgndb import: " << store.error().message() << '\n';
    return Usage;
  }
  const std::uint32_t games_before = store->game_count(), rejects_before = store->reject_count();
  const std::size_t batch_games = std::max<std::size_t>(1, vm["batch"].as<std::size_t>());

  pgn::ReplayVisitor replay({.keep_record = true, .keep_text = true});
  for (const auto& file : vm["files"].as<std::vector<std::string>>()) {
    // Files are tracked by content (standard input cannot be: it is read once).
    const bool tracked = file != "-";
    std::uint64_t hash = 0;
    index::SourceProgress progress{file, 0, false};
    if (tracked) {
      auto h = content_hash(file);
      if (!h) {
        std::cerr << "pgndb import: " << h.error() << '\n';
        return Usage;
      }
      hash = *h;
      auto known = store->source(hash);
      if (!known) {
        std::cerr << "pgndb import: " << known.error().message() << '\n';
        return Usage;
      }
      if (known->complete) {
        std::cerr << file << ": already imported (" << known->games << " games, as " << known->name
                  << "); skipped\n";
        continue;
      }
      progress.games = known->games;
      if (progress.games > 0)
        std::cerr << file << ": resuming after the " << progress.games
                  << " games an earlier run stored\n";
    }
    index::WriteBatch batch = store->begin_batch();
    index::Status written = index::Status::ok();
    auto read = for_each_game(
        file, replay,
        [&] {
          // A game that cannot be replayed goes to the quarantine, whole, with its first error.
          if (replay.has_error()) {
            for (const auto& p : replay.problems()) {
              if (p.severity != pgn::GameProblem::Severity::Error) continue;
              batch.add_reject({file, p.location, p.message, replay.original_text()});
              break;
            }
          } else {
            batch.add_game(replay.record());
          }
          ++progress.games;
          if (batch.games() >= batch_games) {
            if (tracked) batch.set_source_progress(hash, progress);
            written = batch.commit();
          }
          return written.is_ok();
        },
        progress.games);
    if (!read) {
      std::cerr << "pgndb import: " << read.error() << '\n';
      return Usage;
    }
    if (!written.is_ok()) {
      std::cerr << "pgndb import: " << written.message() << '\n';
      return Usage;
    }
    progress.complete = true;
    if (tracked) batch.set_source_progress(hash, progress);
    if (auto s = batch.commit(); !s.is_ok()) {
      std::cerr << "pgndb import: " << s.message() << '\n';
      return Usage;
    }
  }

  // One run per position bucket, sorted and compressed: the database is small and queries
  // fast from the start.
  if (auto s = store->fold_positions(); !s.is_ok()) {
    std::cerr << "pgndb import: " << s.message() << '\n';
    return Usage;
  }
  if (auto s = store->compact(); !s.is_ok()) {
    std::cerr << "pgndb import: " << s.message() << '\n';
    return Usage;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::uint32_t imported = store->game_count() - games_before;
  const std::uint32_t rejected = store->reject_count() - rejects_before;
  std::cerr << "imported: " << imported << " games, rejected: " << rejected << ", in " << seconds
            << " s (" << std::uint64_t(imported / std::max(seconds, 1e-9))
            << " games/s); the database holds " << store->game_count() << " games and "
            << store->reject_count() << " rejects\n";
  return Success;
}

void declare_rejects(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory")(
      "output,o", po::value<std::string>()->default_value("-"), "where to write (`-`: stdout)");
}

int run_rejects(const po::variables_map& vm) {
  auto store = index::Store::open(vm["db"].as<std::string>(), {.create_if_missing = false});
  if (!store) {
    std::cerr << "pgndb rejects: " << store.error().message() << '\n';
    return Usage;
  }
  auto out = Output::open(vm["output"].as<std::string>());
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
    if (!out->write(r->text + "\n\n")) {
      std::cerr << "pgndb rejects: " << out->error() << '\n';
      return Usage;
    }
  }
  if (!out->flush()) {
    std::cerr << "pgndb rejects: " << out->error() << '\n';
    return Usage;
  }
  return Success;
}

}  // namespace pgndb::cli
