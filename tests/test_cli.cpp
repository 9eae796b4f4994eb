// The pgndb executable as a user meets it: help, usage errors and exit codes, perft output.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <cstdio>
#include <string>

namespace {

struct Run {
  int exit_code;
  std::string out;  // stdout and stderr together
};

Run run(const std::string& args) {
  std::string command = std::string(PGNDB_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  int status = pclose(pipe);
  REQUIRE(WIFEXITED(status));
  return {WEXITSTATUS(status), out};
}

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind('\n') == std::string::npos ? 0 : t.rfind('\n') + 1);
}

int count_lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

}  // namespace

TEST_CASE("pgndb --help lists the commands") {
  Run r = run("--help");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("perft") != std::string::npos);
  CHECK(r.out.find("help") != std::string::npos);
}

TEST_CASE("pgndb help CMD shows the command's options") {
  Run r = run("help perft");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("--depth") != std::string::npos);
  CHECK(r.out.find("--divide") != std::string::npos);
  CHECK(run("perft --help").out == r.out);
}

TEST_CASE("usage errors are one line and exit with code 2") {
  for (const char* args :
       {"frobnicate", "--frobnicate", "help frobnicate", "perft --depth 3 --bogus", "perft",
        "perft --depth x", "perft --depth 3 --fen 'not a fen'"}) {
    INFO(args);
    Run r = run(args);
    CHECK(r.exit_code == 2);
    CHECK(count_lines(r.out) == 1);
  }
  CHECK(run("").exit_code == 2);
}

TEST_CASE("pgndb perft prints the node count as its last line") {
  Run r = run("perft --depth 4");
  CHECK(r.exit_code == 0);
  CHECK(last_line(r.out) == "197281");

  r = run("perft --fen '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1' --depth 5");
  CHECK(r.exit_code == 0);
  CHECK(last_line(r.out) == "674624");
}

TEST_CASE("pgndb perft --divide lists each move in UCI, then the total") {
  Run r = run("perft --depth 2 --divide");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("e2e4: 20\n") != std::string::npos);
  CHECK(r.out.find("g1f3: 20\n") != std::string::npos);
  CHECK(count_lines(r.out) == 20 + 2);
  CHECK(last_line(r.out) == "400");
}
