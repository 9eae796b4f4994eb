// pgndb import: every game stored whole (exported back it equals normalize of its source),
// games that cannot be replayed quarantined with their original text, counts that persist.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "import_support.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgn/san.h"
#include "pgn/writer.h"
#include "pgndb/index/store.h"
#include "support.h"

namespace fs = std::filesystem;
using pgndb::index::Store;
using pgndb::test::run_command;
using pgndb::test::TempDir;
using Expected = pgndb::test::ExpectedGames;
using pgndb::test::check_store_holds;
using pgndb::test::read_expected;

namespace {

std::string join_paths(const std::vector<fs::path>& files) {
  std::string out;
  for (const auto& f : files) out += " '" + f.string() + "'";
  return out;
}

std::vector<fs::path> edge_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(PGNDB_SHARED_DATA) / "edge"))
    if (entry.path().extension() == ".pgn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("import stores every game whole and quarantines the ones that cannot be replayed") {
  TempDir tmp;
  const fs::path db = tmp / "db";
  std::vector<fs::path> files = edge_files();
  for (const char* name : {"Kasparov.pgn", "Paehtz.pgn"})
    files.push_back(fs::path(PGNDB_SHARED_DATA) / "corpus" / name);
  const Expected expected = read_expected(files);
  REQUIRE(expected.games.size() > 5000);
  REQUIRE(expected.rejects.size() > 10);

  const auto r = run_command(std::string(PGNDB_BINARY) + " import --db '" + db.string() + "'" +
                             join_paths(files) + " 2>&1");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("imported: " + std::to_string(expected.games.size()) + " games,") !=
        std::string::npos);
  CHECK(r.out.find("rejected: " + std::to_string(expected.rejects.size()) + ",") !=
        std::string::npos);

  check_store_holds(db, expected);
}

TEST_CASE("pgndb rejects writes the quarantined games back as they were written") {
  TempDir tmp;
  const fs::path db = tmp / "db";
  const fs::path bad = tmp / "bad.pgn";
  const std::string good = "[Event \"good\"]\n\n1. e4 e5 2. Nf3 1-0";
  const std::string illegal = "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 Nc6 0-1";
  pgndb::test::write_file(bad, good + "\n\n" + illegal + "\n");
  auto r = run_command(std::string(PGNDB_BINARY) + " import --db '" + db.string() + "' '" +
                       bad.string() + "' 2>&1");
  CHECK(r.exit_code == 0);
  r = run_command(std::string(PGNDB_BINARY) + " rejects --db '" + db.string() + "' 2>/dev/null");
  CHECK(r.exit_code == 0);
  CHECK(r.out == illegal + "\n\n");

  // Importing the same file again, under any name, stores nothing twice.
  const fs::path copy = tmp / "copy.pgn";
  pgndb::test::write_file(copy, pgndb::test::read_file(bad));
  r = run_command(std::string(PGNDB_BINARY) + " import --db '" + db.string() + "' '" +
                  bad.string() + "' '" + copy.string() + "' 2>&1");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("already imported (2 games") != std::string::npos);
  CHECK(r.out.find("imported: 0 games,") != std::string::npos);
  CHECK(r.out.find("rejected: 0,") != std::string::npos);
  auto store = Store::open(db.string(), {.create_if_missing = false});
  REQUIRE(store);
  CHECK(store->game_count() == 1);
  CHECK(store->reject_count() == 1);
}

TEST_CASE("pgndb rejects on a missing database is a one-line error, exit 2") {
  TempDir tmp;
  const auto r = run_command(std::string(PGNDB_BINARY) + " rejects --db '" +
                             (tmp / "none").string() + "' 2>&1");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("no database at") != std::string::npos);
}

TEST_CASE("the position index finds every game reaching a position, transpositions included") {
  TempDir tmp;
  const fs::path db = tmp / "db";
  const fs::path games = tmp / "games.pgn";
  // 1: reaches the position after 1.Nf3 Nf6 2.Nc3 by one order, 2: by another, 3: never,
  // 4: reaches it twice (the knights go back and forth).
  pgndb::test::write_file(games,
                          "[Event \"1\"]\n\n1. Nf3 Nf6 2. Nc3 e6 *\n\n"
                          "[Event \"2\"]\n\n1. Nc3 Nf6 2. Nf3 d5 *\n\n"
                          "[Event \"3\"]\n\n1. e4 e5 *\n\n"
                          "[Event \"4\"]\n\n1. Nf3 Nf6 2. Nc3 Ng8 3. Nb1 Nf6 4. Nc3 *\n");
  const auto r = run_command(std::string(PGNDB_BINARY) + " import --db '" + db.string() + "' '" +
                             games.string() + "' 2>&1");
  REQUIRE(r.exit_code == 0);
  auto store = Store::open(db.string(), {.create_if_missing = false});
  REQUIRE(store);

  auto after = [](std::initializer_list<const char*> moves) {
    pgn::Position pos;
    for (const char* san : moves) {
      auto m = pgn::parse_san(pos, san);
      REQUIRE(m);
      pos.play(*m);
    }
    return pos;
  };
  auto describe = [](const std::vector<pgndb::index::PositionMatch>& matches) {
    std::vector<std::string> out;
    for (const auto& m : matches)
      out.push_back(std::to_string(m.game) + "@" + std::to_string(m.ply) + ":" +
                    (m.next.is_none() ? std::string("end") : std::to_string(m.next.raw())));
    return out;
  };

  const pgn::Position target = after({"Nf3", "Nf6", "Nc3"});
  auto found = store->find_position(target);
  REQUIRE(found);
  const pgn::Position p1 = target, p2 = after({"Nc3", "Nf6", "Nf3"});
  auto e6 = pgn::parse_san(p1, "e6"), d5 = pgn::parse_san(p2, "d5"),
       ng8 = pgn::parse_san(p1, "Ng8");
  REQUIRE((e6 && d5 && ng8));
  CHECK(describe(*found) == std::vector<std::string>{"1@3:" + std::to_string(e6->raw()),
                                                     "2@3:" + std::to_string(d5->raw()),
                                                     "4@3:" + std::to_string(ng8->raw()),
                                                     "4@7:end"});

  // The start position is in every game, at ply 0.
  found = store->find_position(pgn::Position());
  REQUIRE(found);
  CHECK(found->size() == 4);
  for (const auto& m : *found) CHECK(m.ply == 0);

  // A position no game reaches.
  found = store->find_position(after({"d4"}));
  REQUIRE(found);
  CHECK(found->empty());
}

TEST_CASE("an import killed part-way leaves whole games, and running it again completes it") {
  TempDir tmp;
  const fs::path db = tmp / "db";
  const fs::path corpus = fs::path(PGNDB_SHARED_DATA) / "corpus";
  const std::vector<fs::path> present = {corpus / "Kasparov.pgn", corpus / "Tal.pgn"};
  const Expected expected = read_expected(present);
  const std::string command = std::string(PGNDB_BINARY) + " import --batch 300 --db '" +
                              db.string() + "'" + join_paths(present) + " 2>&1";

  // SIGKILL at several moments: nothing is flushed or closed cleanly.
  for (const char* after : {"0.15", "0.3", "0.45"}) {
    const auto killed = run_command("timeout -s KILL " + std::string(after) + " " + command);
    INFO("killed after " << after << " s, exit " << killed.exit_code);
    const auto store = Store::open(db.string(), {.create_if_missing = false});
    if (!store) continue;  // killed before the database existed
    // Every game counted is there whole, in order, with nothing twice.
    for (std::uint32_t id = 1; id <= store->game_count(); ++id) {
      auto game = store->game(id);
      REQUIRE(game);
      std::string text;
      pgn::write_game(*game, text);
      REQUIRE(id <= expected.games.size());
      CHECK(text == expected.games[id - 1]);
    }
  }

  const auto finished = run_command(command);
  INFO(finished.out);
  CHECK(finished.exit_code == 0);
  {
    auto store = Store::open(db.string(), {.create_if_missing = false});
    REQUIRE(store);
    REQUIRE(store->game_count() == expected.games.size());
    CHECK(store->reject_count() == expected.rejects.size());
    for (std::uint32_t id = 1; id <= store->game_count(); ++id) {
      auto game = store->game(id);
      REQUIRE(game);
      std::string text;
      pgn::write_game(*game, text);
      CHECK(text == expected.games[id - 1]);
    }
  }  // closed: one process at a time writes a database
  // The position index is the same as one import without interruption writes (batches of
  // one import each write their own runs; none may overwrite another's).
  {
    const fs::path reference = tmp / "reference";
    REQUIRE(run_command(std::string(PGNDB_BINARY) + " import --batch 700 --db '" +
                        reference.string() + "'" + join_paths(present) + " 2>&1")
                .exit_code == 0);
    auto a = Store::open(db.string(), {.create_if_missing = false});
    REQUIRE(a);
    auto b = Store::open(reference.string(), {.create_if_missing = false});
    REQUIRE(b);
    auto sa = a->stats(), sb = b->stats();
    REQUIRE((sa && sb));
    CHECK(sa->positions == sb->positions);
    CHECK(sa->positions > 100 * expected.games.size() / 2);
    auto start = a->find_position(pgn::Position());
    REQUIRE(start);
    CHECK(start->size() == expected.games.size());
  }
  // And once more: nothing to do.
  const auto again = run_command(command);
  INFO(again.out);
  CHECK(again.out.find("imported: 0 games") != std::string::npos);
}

TEST_CASE("pgndb stats counts games, rejects, sources, positions, players and dates") {
  TempDir tmp;
  const fs::path db = tmp / "db";
  const fs::path games = tmp / "games.pgn";
  pgndb::test::write_file(games,
                          "[White \"A\"]\n[Black \"B\"]\n[Date \"1994.??.??\"]\n\n1. e4 e5 *\n\n"
                          "[White \"B\"]\n[Black \"C\"]\n[Date \"2001.03.04\"]\n\n1. d4 *\n\n"
                          "[White \"C\"]\n[Black \"A\"]\n\n1. e4 e5 2. Ke3 *\n");
  REQUIRE(run_command(std::string(PGNDB_BINARY) + " import --db '" + db.string() + "' '" +
                      games.string() + "' 2>&1")
              .exit_code == 0);
  const auto r =
      run_command(std::string(PGNDB_BINARY) + " stats --json --db '" + db.string() + "'");
  CHECK(r.exit_code == 0);
  // 2 games stored (the third has an illegal move), 3 + 2 positions in the one generation of
  // the import, players A, B, C.
  CHECK(
      r.out.starts_with("{\"games\":2,\"rejects\":1,\"sources\":1,\"positions\":5,"
                        "\"position_generations\":1,\"duplicates\":0,\"players\":3,\"first_date\":"
                        "\"1994.??.??\",\"last_date\":\"2001.03.04\",\"bytes\":{"));
}

TEST_CASE("each game's summary agrees with the game, read alone or in runs, across batches") {
  TempDir tmp;
  const fs::path db = tmp / "db";
  std::vector<fs::path> files = edge_files();
  files.push_back(fs::path(PGNDB_SHARED_DATA) / "corpus" / "Kasparov.pgn");
  // A batch size that is no multiple of the summaries' groups: groups end at batch ends too.
  const auto r = run_command(std::string(PGNDB_BINARY) + " import --batch 97 --db '" + db.string() +
                             "'" + join_paths(files) + " 2>&1");
  REQUIRE(r.exit_code == 0);
  auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  REQUIRE(store->game_count() > 5000);

  auto digits = [](const std::string* text, std::size_t at, std::size_t length) -> unsigned {
    if (!text || text->size() < at + length) return 0;
    const std::string part = text->substr(at, length);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) return 0;
    return unsigned(std::stoul(part));
  };
  std::vector<pgndb::index::GameSummary> alone(store->game_count() + 1);
  for (std::uint32_t id = 1; id <= store->game_count(); ++id) {
    INFO("game " << id);
    auto game = store->game(id);
    auto summary = store->summary(id);
    REQUIRE(game);
    REQUIRE(summary);
    alone[id] = *summary;
    const std::string results[] = {"*", "1-0", "0-1", "1/2-1/2"};
    CHECK(results[summary->result] == game->result);
    CHECK(summary->plies == game->moves.size());
    CHECK(summary->standard_start == (game->start == pgn::Position()));
    const std::string* date = game->tag("Date");
    if (date && date->size() == 10 && (*date)[4] == '.' && (*date)[7] == '.' &&
        (digits(date, 5, 2) || (*date)[5] == '?') && digits(date, 5, 2) <= 12 &&
        digits(date, 8, 2) <= 31) {
      CHECK(summary->year == digits(date, 0, 4));
      CHECK(summary->month == digits(date, 5, 2));
      CHECK(summary->day == digits(date, 8, 2));
    }
    for (auto [tag, elo] :
         {std::pair{"WhiteElo", summary->white_elo}, std::pair{"BlackElo", summary->black_elo}}) {
      const std::string* text = game->tag(tag);
      const unsigned value = text && text->size() <= 5 ? digits(text, 0, text->size()) : 0u;
      CHECK(elo == (value < 65536 ? value : 0u));
    }
    // The opening codes replay the game's first moves.
    std::size_t expected_codes = std::min<std::size_t>(game->moves.size(), 16);
    for (std::size_t ply = 0; ply < expected_codes; ++ply)
      if (game->moves[ply].move.is_null()) expected_codes = ply;
    pgn::Position pos = game->start;
    REQUIRE(summary->opening_length <= expected_codes);
    // (Codes stop early only at a move whose index is above 250: none in these games.)
    CHECK(summary->opening_length == expected_codes);
    for (std::size_t ply = 0; ply < summary->opening_length; ++ply) {
      const auto move = pgndb::index::opening_move(pos, summary->opening[ply]);
      REQUIRE(move);
      CHECK(*move == game->moves[ply].move);
      pos.play(*move);
    }
  }
  // In runs: every game, every third, and a few far apart; each as read alone.
  for (std::uint32_t step : {1u, 3u, 61u, 997u}) {
    INFO("every " << step);
    std::vector<std::uint32_t> ids;
    for (std::uint32_t id = 1; id <= store->game_count(); id += step) ids.push_back(id);
    std::size_t seen = 0;
    auto s = store->for_each_summary(ids, [&](std::uint32_t id, const auto& summary) {
      CHECK(id == ids[seen++]);
      CHECK(summary.date_number() == alone[id].date_number());
      CHECK((summary.plies == alone[id].plies && summary.result == alone[id].result &&
             summary.opening == alone[id].opening && summary.white_elo == alone[id].white_elo));
    });
    INFO(s.message());
    CHECK(s.is_ok());
    CHECK(seen == ids.size());
  }
  CHECK_FALSE(store->summary(store->game_count() + 1));
}

namespace {

// The games of a corpus file (LF line ends), each split into its tags and its movetext.
struct CorpusGame {
  std::string tags, movetext;
};
std::vector<CorpusGame> corpus_games(const char* name) {
  std::string text = pgndb::test::read_file(fs::path(PGNDB_SHARED_DATA) / "corpus" / name);
  std::erase(text, '\r');
  std::vector<CorpusGame> games;
  for (std::size_t at = text.find("[Event "); at != std::string::npos;) {
    const std::size_t next = text.find("\n\n[Event ", at);
    const std::string game = text.substr(at, next == std::string::npos ? next : next - at);
    const std::size_t split = game.find("\n\n");
    if (split != std::string::npos)
      games.push_back({game.substr(0, split), game.substr(split + 2)});
    at = next == std::string::npos ? next : next + 2;
  }
  return games;
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

// The import cuts a file into pieces of about 256 KiB at lines that start like a game's tags
// and reads each piece on a worker; a piece cut inside a game is read again on from where that
// game began. Each file here is several pieces long and puts such lines where no game starts,
// or lacks what the cutting relies on; the import must read each as one reader of the whole
// file does (pgn::Reader: the games, the rejects' texts and the places of their errors).
TEST_CASE("an import read in pieces reads every file as one reader of the whole file does",
          "[heavy]") {
  TempDir tmp;
  const std::vector<CorpusGame> games = corpus_games("Kasparov.pgn");
  REQUIRE(games.size() > 2000);
  auto file = [&](const std::string& name, auto&& game_text, std::string_view between = "\n\n") {
    std::string text;
    for (std::size_t i = 0; i < games.size(); ++i) {
      if (i > 0) text += between;
      text += game_text(i, games[i]);
    }
    REQUIRE(text.size() > (std::size_t(1) << 20));
    pgndb::test::write_file(tmp / name, text);
    return tmp / name;
  };
  // Now and then an illegal first move: a reject, whose error's place is checked.
  auto illegal = [](std::size_t i) { return i % 50 == 7 ? std::string("Ke8 ") : std::string(); };
  auto plain = [&](std::size_t i, const CorpusGame& g) {
    return g.tags + "\n\n" + illegal(i) + g.movetext;
  };
  std::vector<fs::path> files;
  // No termination markers: a game ends where the next one's tags begin.
  files.push_back(file("no-results.pgn", [&](std::size_t i, const CorpusGame& g) {
    std::string m = g.movetext;
    m.erase(m.find_last_of(" \n") + 1);
    return g.tags + "\n\n" + illegal(i) + m;
  }));
  // Comments holding lines that start like tags.
  files.push_back(file("comments.pgn", [&](std::size_t i, const CorpusGame& g) {
    std::string m = g.movetext;
    if (i % 3 == 0) m = "{a comment\n\n[Event \"inside a comment\"]\nstill the comment} " + m;
    return g.tags + "\n\n" + illegal(i) + m;
  }));
  // A blank line among the tags; a comment after the result; escape lines.
  files.push_back(file("tags.pgn", [&](std::size_t i, const CorpusGame& g) {
    std::string tags = g.tags;
    tags.insert(tags.find('\n', tags.find('\n') + 1) + 1, "\n");
    return tags + "\n\n" + illegal(i) + g.movetext + (i % 5 == 0 ? " {after the result}" : "") +
           (i % 7 == 0 ? "\n% an escape line" : "");
  }));
  // Lone CR line ends; CR LF with no blank line between games.
  files.push_back(file(
      "cr.pgn",
      [&](std::size_t i, const CorpusGame& g) { return replace_all(plain(i, g), "\n", "\r"); },
      "\r\r"));
  files.push_back(file(
      "crlf.pgn",
      [&](std::size_t i, const CorpusGame& g) {
        return replace_all(g.tags + "\n" + illegal(i) + g.movetext, "\n", "\r\n");
      },
      "\r\n"));
  // Games longer than a piece: a 3 MiB comment of lines, some of them starting like tags, and
  // one of a single 3 MiB line; a byte order mark at the start and in the middle, as files
  // joined into one have.
  std::string lines;
  while (lines.size() < (std::size_t(3) << 20))
    lines += "some words of a long comment\n[Site \"x\"]\n";
  files.push_back(file("long.pgn", [&](std::size_t i, const CorpusGame& g) {
    std::string m = g.movetext;
    if (i == 200) m = "{" + lines + "} " + m;
    if (i == 900) m = "{" + std::string(std::size_t(3) << 20, 'x') + "} " + m;
    return (i == 0 || i == 1500 ? "\xEF\xBB\xBF" : "") + g.tags + "\n\n" + illegal(i) + m;
  }));

  const Expected expected = read_expected(files);
  REQUIRE(expected.rejects.size() > 200);
  const fs::path db = tmp / "db";
  const auto r = run_command(std::string(PGNDB_BINARY) + " import --db '" + db.string() + "'" +
                             join_paths(files) + " 2>&1");
  REQUIRE(r.exit_code == 0);
  check_store_holds(db, expected);
}
