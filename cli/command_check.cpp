#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "command.h"
#include "games.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "problems.h"

namespace pgndb::cli {

namespace {

// What checking one file found: its report lines, its counts, or the I/O error that stopped it.
struct FileReport {
  std::string lines;
  std::uint64_t games = 0, ok = 0, with_warnings = 0, with_errors = 0;
  std::string io_error;
};

FileReport check_file(const std::string& file, const std::optional<pgn::PieceLetters>& letters) {
  FileReport report;
  std::ostringstream lines;
  pgn::ReplayVisitor replay({.letters = letters});
  auto read = for_each_game(file, replay, [&] {
    ++report.games;
    for (const auto& p : replay.problems()) print_problem(lines, file, p);
    if (replay.has_error())
      ++report.with_errors;
    else if (replay.has_warning())
      ++report.with_warnings;
    else
      ++report.ok;
    return true;
  });
  if (!read) report.io_error = read.error();
  report.lines = lines.str();
  return report;
}

}  // namespace

void declare_check(po::options_description& options,
                   po::positional_options_description& positional) {
  options.add_options()("files", po::value<std::vector<std::string>>()->required(),
                        "PGN files (`-` for standard input; `.zst` files are decompressed)")(
      "jobs,j", po::value<unsigned>()->default_value(0),
      "files checked at once (0: one per core); the report keeps the order of the files");
  declare_reading_language(options);
  positional.add("files", -1);
}

// check's options, checked: every file opens before any is read.
struct CheckOptions {
  std::vector<std::string> files;
  unsigned jobs = 0;
  std::optional<pgn::PieceLetters> letters;  // --lang
};

Parsed<CheckOptions> parse_check(const po::variables_map& vm) {
  auto letters = language_option(vm);
  if (!letters) return std::unexpected(letters.error());
  CheckOptions o{vm["files"].as<std::vector<std::string>>(), vm["jobs"].as<unsigned>(), *letters};
  for (auto checked : {within("jobs", o.jobs, 0, 1024), inputs_open(o.files)})
    if (!checked) return std::unexpected(checked.error());
  return o;
}

int run_check(const CheckOptions& o) {
  const auto& files = o.files;
  unsigned jobs = o.jobs;
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min<unsigned>(jobs, unsigned(files.size()));

  // Workers take files in order; the report is printed in file order as files finish.
  std::vector<FileReport> reports(files.size());
  std::vector<char> done(files.size(), 0);
  std::mutex mutex;
  std::condition_variable finished;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::vector<std::jthread> workers;
  for (unsigned j = 0; j < jobs; ++j) {
    workers.emplace_back([&] {
      for (std::size_t i; !stop && (i = next++) < files.size();) {
        FileReport report = check_file(files[i], o.letters);
        std::lock_guard lock(mutex);
        reports[i] = std::move(report);
        done[i] = 1;
        finished.notify_all();
      }
    });
  }

  FileReport total;
  for (std::size_t i = 0; i < files.size(); ++i) {
    {
      std::unique_lock lock(mutex);
      finished.wait(lock, [&] { return done[i] != 0; });
    }
    FileReport& r = reports[i];
    std::cout << r.lines;
    if (!r.io_error.empty()) {
      stop = true;
      std::cout.flush();
      std::cerr << "pgndb check: " << r.io_error << '\n';
      return Usage;
    }
    total.games += r.games;
    total.ok += r.ok;
    total.with_warnings += r.with_warnings;
    total.with_errors += r.with_errors;
    r = FileReport();
  }
  std::cout << "games: " << total.games << ", ok: " << total.ok
            << ", warnings: " << total.with_warnings << ", errors: " << total.with_errors
            << std::endl;
  return total.with_errors ? Failure : Success;
}

extern const Command check_command{
    "check", "replay every game and report each problem as FILE:LINE:COL",
    "pgndb check FILE... [--jobs N] [--lang CODE]", declare_check, [](const po::variables_map& vm) {
      return parse_then_run("check", vm, parse_check, run_check);
    }};

}  // namespace pgndb::cli
