// Hostile input through the whole import, at full size: a gigabyte-long comment, line and token,
// a gigabyte of white space, variations nested 100,000 deep, a million tags, tag values of 10
// and 100 MB, and binary noise. The input is streamed into `pgndb import -` through a pipe, so
// that nothing of that size touches the disk. Each must end the import normally (exit 0), keep
// the games around it, quarantine the hostile game with a clear one-line reason naming where it
// stands, and keep the process's peak memory far below the input's size.
//
// PGNDB_HOSTILE_MIB sets the "gigabyte" (default 1024 MiB); the sanitizer build sets it lower,
// since it is 5-10 times slower, and then the memory bound is not checked (ASan's own memory
// would blur it).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <string_view>

#include "support.h"

namespace {

using namespace pgndb::test;

// Writes bytes to the child's standard input; false once the child has closed it.
using Write = std::function<bool(std::string_view)>;

struct FedRun {
  int exit_code = -1;
  std::string err;        // standard error
  long peak_rss_mib = 0;  // the child's peak resident memory
};

// Runs `pgndb import --db DB -` with its standard input fed by `feed`.
FedRun import_fed(const TempDir& dir, const std::function<void(const Write&)>& feed) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const std::string err_path = dir / "stderr.txt", db = dir / "db";
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(fds[0], STDIN_FILENO);
    close(fds[0]);
    close(fds[1]);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = open("/dev/null", O_WRONLY);
    dup2(err, STDERR_FILENO);
    dup2(null, STDOUT_FILENO);
    execl(PGNDB_BINARY, PGNDB_BINARY, "import", "--db", db.c_str(), "--progress", "never", "-",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[0]);
  // A child that stops reading early must not kill the test with SIGPIPE.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction old {};
  sigaction(SIGPIPE, &ignore, &old);
  bool open = true;
  feed([&](std::string_view bytes) {
    while (open && !bytes.empty()) {
      const ssize_t n = write(fds[1], bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        open = false;
        break;
      }
      bytes.remove_prefix(std::size_t(n));
    }
    return open;
  });
  close(fds[1]);
  sigaction(SIGPIPE, &old, nullptr);
  int status = 0;
  rusage usage{};
  REQUIRE(wait4(pid, &status, 0, &usage) == pid);
  REQUIRE(WIFEXITED(status));
  FedRun run;
  run.exit_code = WEXITSTATUS(status);
  run.err = read_file(err_path);
  run.peak_rss_mib = usage.ru_maxrss >> 10;
  return run;
}

std::uint64_t gigabyte() {
  const char* mib = std::getenv("PGNDB_HOSTILE_MIB");
  return std::uint64_t(mib ? std::strtoull(mib, nullptr, 10) : 1024) << 20;
}
bool full_size() { return std::getenv("PGNDB_HOSTILE_MIB") == nullptr; }

// `size` bytes of `pattern` repeated, in 1 MiB writes.
void repeat(const Write& write, std::string_view pattern, std::uint64_t size) {
  std::string block;
  while (block.size() < (1 << 20)) block += pattern;
  block.resize((1 << 20) - (1 << 20) % pattern.size());
  for (std::uint64_t done = 0; done < size;) {
    const std::size_t n = std::size_t(std::min<std::uint64_t>(block.size(), size - done));
    if (!write(std::string_view(block).substr(0, n))) return;
    done += n;
  }
}

// The game before the hostile one (lines 1-6) and the one after it.
const std::string before =
    "[Event \"before\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
const std::string after =
    "\n\n[Event \"after\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

int count_lines_with(const std::string& text, const std::string& part) {
  int n = 0;
  for (std::size_t at = 0; (at = text.find(part, at)) != std::string::npos; at += part.size()) ++n;
  return n;
}

// Feeds before + `hostile` + after and checks what every case shares: exit 0, both good games
// stored, `rejects` games quarantined (each with one line on stderr), memory bounded.
FedRun check_import(const TempDir& dir, const std::function<void(const Write&)>& hostile,
                    int rejects) {
  const FedRun run = import_fed(dir, [&](const Write& write) {
    write(before);
    hostile(write);
    write(after);
  });
  INFO(run.err.substr(0, 2000));
  CHECK(run.exit_code == 0);
  CHECK(contains(run.err,
                 "the database holds 2 games and " + std::to_string(rejects) + " rejects\n"));
  CHECK(count_lines_with(run.err, "(the game is quarantined)") == rejects);
  if (full_size()) CHECK(run.peak_rss_mib < 512);
  // Both good games are there, whole.
  const CommandResult found = run_command(std::string(PGNDB_BINARY) + " find --db '" +
                                          (dir / "db").string() + "' --format pgn 2>&1");
  CHECK(found.exit_code == 0);
  CHECK(contains(found.out, "1. e4 e5 2. Nf3 1-0"));
  CHECK(contains(found.out, "1. d4 d5 0-1"));
  return run;
}

// What `pgndb rejects` writes: the quarantined games' texts, and their reasons.
CommandResult rejects_of(const TempDir& dir) {
  return run_command(std::string(PGNDB_BINARY) + " rejects --db '" + (dir / "db").string() +
                     "' 2>&1");
}

const std::string too_long_game =
    "-:8:1: error: game longer than 64 MiB: only where it stands is "
    "kept, not its text";

TEST_CASE("hostile input: a gigabyte-long comment", "[hostile]") {
  TempDir dir;
  const FedRun run = check_import(
      dir,
      [](const Write& write) {
        write("[Event \"comment\"]\n\n1. e4 {");
        repeat(write, "a comment that never ends ", gigabyte());
        write("} e5 *");
      },
      1);
  CHECK(contains(run.err, too_long_game));
}

TEST_CASE("hostile input: a gigabyte-long line of moves", "[hostile]") {
  TempDir dir;
  const FedRun run = check_import(
      dir,
      [](const Write& write) {
        write("[Event \"line\"]\n\n");
        repeat(write, "Nf3 Nf6 Ng1 Ng8 ", gigabyte());
        write("*");
      },
      1);
  CHECK(contains(run.err, too_long_game));
}

TEST_CASE("hostile input: a gigabyte-long token", "[hostile]") {
  TempDir dir;
  const FedRun run = check_import(
      dir,
      [](const Write& write) {
        write("[Event \"token\"]\n\n1. ");
        repeat(write, "x", gigabyte());
        write(" *");
      },
      1);
  CHECK(contains(run.err, too_long_game));
}

TEST_CASE("hostile input: a gigabyte of white space between games is no game", "[hostile]") {
  TempDir dir;
  check_import(
      dir, [](const Write& write) { repeat(write, " ", gigabyte()); }, 0);
}

// Runs of one character where the reader expects a few: each was once read whole into memory.
TEST_CASE("hostile input: gigabyte runs inside tokens", "[hostile]") {
  struct Case {
    const char* name;
    std::string before, run, after;
  };
  for (const Case& c :
       {Case{"dots after a move number", "[Event \"x\"]\n\n1", ".", " e4 *"},
        Case{"blanks after a tag's '['", "[", " ", "Event \"x\"]\n\n1. e4 *"},
        Case{"check signs after a promotion", "[Event \"x\"]\n\n1. e8(Q)", "+", " *"}}) {
    INFO(c.name);
    TempDir dir;
    const FedRun run = check_import(
        dir,
        [&](const Write& write) {
          write(c.before);
          repeat(write, c.run, gigabyte());
          write(c.after);
        },
        1);
    CHECK(contains(run.err, too_long_game));
  }
}

TEST_CASE("hostile input: a comment over 1 MiB before the tags quarantines the game", "[hostile]") {
  TempDir dir;
  const std::string game =
      "{" + std::string(2 << 20, 'c') + "}\n[Event \"leading comment\"]\n\n1. e4 *";
  const FedRun run = check_import(
      dir, [&](const Write& write) { write(game); }, 1);
  CHECK(contains(run.err, "-:8:1: error: comment longer than 1048576 bytes; ignored"));
  CHECK(contains(rejects_of(dir).out, game));
}

TEST_CASE("hostile input: variations nested 100,000 deep", "[hostile]") {
  TempDir dir;
  std::string game = "[Event \"deep\"]\n\n1. e4 ";
  for (int i = 0; i < 100'000; ++i) game += "( 1. d4 ";
  game += std::string(100'000, ')') + " e5 *";
  const FedRun run = check_import(
      dir, [&](const Write& write) { write(game); }, 1);
  // The first '(' past 256 levels: line 10, after "1. e4 " and 256 times "( 1. d4 ".
  CHECK(contains(run.err, "-:10:" + std::to_string(7 + 256 * 8) +
                              ": error: variations nested deeper than 256 levels"));
  // Quarantined whole: `pgndb rejects` gives the game back as it was written.
  const CommandResult rejects = rejects_of(dir);
  CHECK(rejects.exit_code == 0);
  CHECK(contains(rejects.out, game));
}

TEST_CASE("hostile input: a million tags", "[hostile]") {
  TempDir dir;
  std::string game = "[Event \"tags\"]\n";
  for (int i = 0; i < 1'000'000; ++i) game += "[Tag" + std::to_string(i) + " \"v\"]\n";
  game += "\n1. e4 *";
  const FedRun run = check_import(
      dir, [&](const Write& write) { write(game); }, 1);
  // Tag 1,000 (the Event tag is the first) is on line 8 + 1,000.
  CHECK(contains(run.err, "-:1008:1: error: more than 1000 tags; the rest are left out"));
  CHECK(contains(rejects_of(dir).out, game));
}

TEST_CASE("hostile input: tag values of 10 MB and 100 MB", "[hostile]") {
  SECTION("10 MB: over the token limit, the game is quarantined with its text") {
    TempDir dir;
    const std::string game =
        "[Event \"tag\"]\n[Annotator \"" + std::string(10 << 20, 'v') + "\"]\n\n1. e4 *";
    const FedRun run = check_import(
        dir, [&](const Write& write) { write(game); }, 1);
    CHECK(contains(run.err, "-:9:1: error: tag longer than 1048576 bytes; ignored"));
    CHECK(contains(rejects_of(dir).out, game));
  }
  SECTION("100 MB: over the game limit, only where it stands is kept") {
    TempDir dir;
    const FedRun run = check_import(
        dir,
        [](const Write& write) {
          write("[Event \"tag\"]\n[Annotator \"");
          repeat(write, "v", 100 << 20);
          write("\"]\n\n1. e4 *");
        },
        1);
    CHECK(contains(run.err, too_long_game));
  }
}

TEST_CASE("hostile input: binary noise", "[hostile]") {
  TempDir dir;
  std::mt19937_64 random(7);
  const FedRun run = import_fed(dir, [&](const Write& write) {
    write(before);
    std::string block(1 << 20, '\0');
    for (std::uint64_t done = 0; done < gigabyte() / 16; done += block.size()) {
      for (char& c : block) c = char(random());
      if (!write(block)) return;
    }
    // A `{` in the noise that no `}` closes would make the rest of the input its comment (PGN
    // gives a comment no other end), and the game after would be quarantined with the noise.
    write("}");
    write(after);
  });
  INFO(run.err.substr(0, 2000));
  CHECK(run.exit_code == 0);
  CHECK(contains(run.err, "more quarantined games: `pgndb rejects --db"));
  if (full_size()) CHECK(run.peak_rss_mib < 512);
  // The game after the noise is stored (noise that happens to read as a legal game may be too).
  const CommandResult found = run_command(std::string(PGNDB_BINARY) + " find --db '" +
                                          (dir / "db").string() + "' --white C --format count");
  CHECK(found.exit_code == 0);
  CHECK(found.out == "1\n");
}

}  // namespace
