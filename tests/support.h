// Helpers shared by the test executables: temporary directories, whole files, shell commands,
// white space, FEN positions and material histories. Header-only. A helper that can fail fails the
// running test case (REQUIRE) rather than hand back a result a test could take for a real one.
#pragma once

#include <catch2/catch.hpp>

#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "pgn/fen.h"
#include "pgn/material_balance.h"
#include "pgn/position.h"
#include "pgn/san.h"

namespace pgndb::test {

// A fresh, empty directory under the system's temporary directory (mkdtemp), removed with its
// contents when the object goes. `dir / "name"` is the path of an entry in it.
class TempDir {
 public:
  TempDir() {
    std::string name = (std::filesystem::temp_directory_path() / "pgndb-test-XXXXXX").string();
    if (!mkdtemp(name.data())) throw std::runtime_error("mkdtemp failed");
    path_ = name;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(std::string_view name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// The bytes of the file at `path`; REQUIREs that it opens.
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  INFO(path.string());
  REQUIRE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Writes `text` to `path` as it is (binary), replacing the file; REQUIREs that the write worked.
inline void write_file(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), std::streamsize(text.size()));
  REQUIRE(out.good());
}

// Every `.pgn` file under `dir` (recursively, in path order), one after another in one text:
// one import of one file instead of one per file, each waiting for its writes to reach the disk.
inline std::string pgn_files_joined(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.path().extension() == ".pgn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::string all;
  for (const auto& f : files) all += read_file(f) + "\n\n";
  return all;
}

// The inconsistencies a verify report lists (pgndb::index::VerifyReport), one a line, for INFO:
// a template, so that tests of libpgn alone need not link the index.
template <class Report>
std::string listing(const Report& report) {
  std::string out;
  for (const auto& p : report.listed) out += p.family + ": " + p.text + "\n";
  return out;
}

// `text` with each run of white space (space, tab, CR, LF) as one space, and none at either end.
inline std::string squeeze(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    if (space) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The games of PGN text as pgn-extract writes it, each game's lines joined with spaces
// (pgn-extract wraps its lines, comments included: a comment is read from the joined text). A
// game starts at an [Event tag that follows movetext.
inline std::vector<std::string> joined_games(const std::string& text) {
  std::vector<std::string> games;
  std::istringstream in(text);
  std::string line, game;
  bool in_moves = false;
  while (std::getline(in, line)) {
    if (line.rfind("[Event ", 0) == 0 && in_moves) {
      games.push_back(std::move(game));
      game.clear();
      in_moves = false;
    }
    if (!line.empty() && line[0] != '[') in_moves = true;
    game += line + ' ';
  }
  if (!game.empty()) games.push_back(std::move(game));
  return games;
}

struct CommandResult {
  int exit_code;
  std::string out;  // standard output only: redirect standard error in the command if needed
};

// Runs `shell_command` with /bin/sh (popen) and waits for it, collecting its standard output.
// REQUIREs that it started and exited normally (not killed by a signal); its exit code is for
// the caller to check.
inline CommandResult run_command(const std::string& shell_command) {
  FILE* pipe = popen(shell_command.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  const int status = pclose(pipe);
  REQUIRE(WIFEXITED(status));
  return {WEXITSTATUS(status), out};
}

// The position the FEN (or EPD) `text` describes; REQUIREs that parse_fen accepts it, and on
// failure shows the text and parse_fen's message.
inline pgn::Position fen(std::string_view text) {
  auto pos = pgn::parse_fen(text);
  INFO("FEN: " << text << (pos ? std::string() : "\nrejected: " + pos.error().message()));
  REQUIRE(pos.has_value());
  return *pos;
}

// The main line's material history of the game played from `fen_text` by `moves` (SAN, each
// REQUIREd to be a legal move there).
inline pgn::MaterialHistory material_history_of(std::string_view fen_text,
                                                const std::vector<std::string>& moves) {
  pgn::Position position = fen(fen_text);
  pgn::MaterialTracker tracker;
  tracker.start(position);
  for (const auto& san : moves) {
    auto move = pgn::parse_san(position, san);
    INFO(san);
    REQUIRE(move);
    position.play(*move);
    tracker.played(position);
  }
  return tracker.take();
}

}  // namespace pgndb::test
