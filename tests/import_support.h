// What an import of PGN files should store, read here with libpgn alone (the reader and the
// replay, not the importer), and a check of a database against it: the tests of import
// (test_import, test_import_folder) share them. Header-only; a failed check fails the running
// test case.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgn/writer.h"
#include "pgndb/index/store.h"
#include "support.h"

namespace pgndb::test {

// A game that cannot be replayed, as reading its file alone gives it: its original text, its
// file, and the place (in that file) of its first error.
struct ExpectedReject {
  std::string text, file;
  pgn::Location location;
};

// What reading files one after another gives: each replayable game written back (in the
// writer's export format), and each game with an error, in order.
struct ExpectedGames {
  std::vector<std::string> games;
  std::vector<ExpectedReject> rejects;
};

// Reads `files` in order; a file with the same contents as an earlier one is passed over, as
// import passes it over.
inline ExpectedGames read_expected(const std::vector<std::filesystem::path>& files) {
  ExpectedGames e;
  pgn::ReplayVisitor replay({.keep_record = true, .keep_text = true});
  std::vector<std::string> seen;
  for (const auto& file : files) {
    std::string contents = read_file(file);
    if (std::find(seen.begin(), seen.end(), contents) != seen.end()) continue;
    seen.push_back(std::move(contents));
    auto source = pgn::FileSource::open(file.string());
    REQUIRE(source);
    pgn::Reader reader(**source);
    for (;;) {
      auto more = reader.read_game(replay);
      REQUIRE(more);
      if (!*more) break;
      if (!replay.has_error()) {
        std::string text;
        pgn::write_game(replay.record(), text);
        e.games.push_back(std::move(text));
        continue;
      }
      for (const auto& p : replay.problems())
        if (p.severity == pgn::GameProblem::Severity::Error) {
          e.rejects.push_back({replay.original_text(), file.string(), p.location});
          break;
        }
    }
  }
  return e;
}

// The database at `db` holds `expected`, id by id: every game as written back, every reject's
// text, file, and the place of its first error.
inline void check_store_holds(const std::filesystem::path& db, const ExpectedGames& expected) {
  auto store = index::Store::open(db.string(), {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  REQUIRE(store->game_count() == expected.games.size());
  REQUIRE(store->reject_count() == expected.rejects.size());
  for (std::uint32_t id = 1; id <= store->game_count(); ++id) {
    auto game = store->game(id);
    REQUIRE(game);
    std::string text;
    pgn::write_game(*game, text);
    INFO("game " << id);
    CHECK(text == expected.games[id - 1]);
  }
  for (std::uint32_t id = 1; id <= store->reject_count(); ++id) {
    auto reject = store->reject(id);
    REQUIRE(reject);
    const ExpectedReject& want = expected.rejects[id - 1];
    INFO("reject " << id << ": " << reject->source << ":" << reject->location.line << ":"
                   << reject->location.column << " " << reject->error);
    CHECK(reject->text == want.text);
    CHECK_FALSE(reject->error.empty());
    CHECK(reject->source == want.file);
    CHECK(reject->location.line == want.location.line);
    CHECK(reject->location.column == want.location.column);
  }
}

}  // namespace pgndb::test
