// What an import writes besides games and positions: the metadata index (names normalised, the
// key of each dimension), duplicate detection, progress, and reading while an import runs.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "pgn/fen.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgn/san.h"
#include "pgndb/index/game_summary.h"
#include "pgndb/index/names.h"
#include "pgndb/index/prepared_game.h"
#include "pgndb/index/store.h"
#include "support.h"

namespace fs = std::filesystem;
using pgndb::index::normalize_name;
using pgndb::index::Store;
using pgndb::test::run_command;
using pgndb::test::TempDir;
using namespace std::string_literals;

namespace {

pgn::GameRecord replay_one(const std::string& text) {
  pgn::StringSource source(text);
  pgn::Reader reader(source);
  pgn::ReplayVisitor replay({.keep_record = true, .keep_text = false});
  auto read = reader.read_game(replay);
  REQUIRE(read);
  REQUIRE(*read);
  REQUIRE_FALSE(replay.has_error());
  return replay.record();
}

std::string import(const fs::path& db, const std::string& files, const std::string& extra = "") {
  const auto r = run_command(std::string(PGNDB_BINARY) + " import --db '" + db.string() + "' " +
                             files + " " + extra + " 2>&1");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("player names are normalised so that one person's spellings meet") {
  CHECK(normalize_name("Carlsen, Magnus") == "carlsen, magnus");
  CHECK(normalize_name("CARLSEN,Magnus") == "carlsen, magnus");
  CHECK(normalize_name("  Carlsen ,  M. ") == "carlsen, m");
  CHECK(normalize_name("Andersson,  Ulf") == "andersson, ulf");
  // Accents of Latin letters fold to the base letter, also outside Latin-1.
  CHECK(normalize_name("Hübner, Róbert") == "hubner, robert");
  CHECK(normalize_name("Łukasz Ćwik") == "lukasz cwik");
  CHECK(normalize_name("Großmann") == "grossmann");
  CHECK(normalize_name("Ærøskøbing") == "aeroskobing");
  // Other scripts stay as they are (not lower-cased: that needs Unicode tables).
  CHECK(normalize_name("Карлсен") == "Карлсен");
  CHECK(normalize_name("") == "");
  CHECK(normalize_name(" . ") == "");
}

TEST_CASE("a game's metadata index keys follow docs/storage.md") {
  const pgn::GameRecord game = replay_one(
      "[Event \"Tata Steel Masters\"]\n[Site \"Wijk aan Zee NED\"]\n[Date \"2023.01.??\"]\n"
      "[White \"Carlsen, Magnus\"]\n[Black \"Giri, Anish\"]\n[Result \"1/2-1/2\"]\n"
      "[WhiteElo \"2859\"]\n[BlackElo \"?\"]\n[ECO \"C65\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 "
      "1/2-1/2\n");
  const auto prepared = pgndb::index::prepare_game(game);
  // Dimension byte, value, (the store then appends the game id). 2859 = 0x0B2B.
  const std::vector<std::string> expected = {"pcarlsen, magnus\0\0"s,  "pgiri, anish\0\1"s,
                                             "etata steel masters\0"s, "swijk aan zee ned\0"s,
                                             "d\x07\xE7\x01\x00"s,     "oC65"s};
  std::vector<std::string> keys;
  pgndb::index::for_each_metadata_key(prepared.metadata,
                                      [&](std::string_view key) { keys.emplace_back(key); });
  CHECK(keys == expected);
  // The material balances (dimension 'm', docs/storage.md, "Material"), apart, as numbers: those
  // moves were played from and the final one, here only the initial position's (Q 1 R 2, B 2
  // N 2 for each side, 8 and 8 pawns), its five bytes big-endian.
  const std::uint64_t initial_material = 0x1222122288;
  CHECK(prepared.material_values == std::vector<std::uint64_t>{initial_material});
  // Six positions: the start and one after each of the five moves.
  CHECK(prepared.positions.size() == 6);

  // The summary: what queries read of many games at once.
  auto summary = pgndb::index::decode_summary(prepared.summary);
  REQUIRE(summary);
  CHECK(summary->result == 3);
  CHECK((summary->year == 2023 && summary->month == 1 && summary->day == 0));
  CHECK((summary->white_elo == 2859 && summary->black_elo == 0));
  CHECK(summary->plies == 5);
  CHECK(!summary->annotated);
  CHECK(summary->standard_start);
  // The facts (result, date, ratings, plies) are the summary's.
  CHECK(prepared.facts == summary->facts());
  // The opening codes name the game's moves, one after another.
  REQUIRE(summary->opening_length == 5);
  pgn::Position pos;
  for (std::size_t ply = 0; ply < 5; ++ply) {
    const auto move = pgndb::index::opening_move(pos, summary->opening[ply]);
    REQUIRE(move);
    CHECK(*move == game.moves[ply].move);
    pos.play(*move);
  }

  // Keys are packed with their lengths: a long one (a length of two bytes) comes back whole.
  const std::string long_event(300, 'x');
  const auto long_prepared =
      pgndb::index::prepare_game(replay_one("[Event \"" + long_event + "\"]\n\n1. e4 *\n"));
  keys.clear();
  pgndb::index::for_each_metadata_key(long_prepared.metadata,
                                      [&](std::string_view key) { keys.emplace_back(key); });
  CHECK(keys == std::vector<std::string>{"e" + long_event + '\0'});
  CHECK(long_prepared.material_values == std::vector<std::uint64_t>{initial_material});
}

TEST_CASE("a game is annotated by a comment with text or a variation, not by clock commands") {
  auto annotated = [](const std::string& movetext) {
    const auto prepared = pgndb::index::prepare_game(replay_one("[Event \"E\"]\n\n" + movetext));
    auto summary = pgndb::index::decode_summary(prepared.summary);
    REQUIRE(summary);
    return summary->annotated;
  };
  CHECK(!annotated("1. e4 e5 *\n"));
  CHECK(!annotated("1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:59] [%eval 0.2] } *\n"));
  CHECK(!annotated("1. e4! e5?! *\n"));  // NAGs alone
  CHECK(annotated("1. e4 { best by test } e5 *\n"));
  CHECK(annotated("{ A game from the archive } 1. e4 e5 *\n"));
  CHECK(annotated("1. e4 e5 (1... c5) *\n"));
  CHECK(annotated("1. e4 { [%clk 0:03:00] a fine move } e5 *\n"));
  CHECK(annotated("1. e4 { [%cal Ge2e4,Rd7d5] } e5 *\n"));  // arrows drawn by a person
}

TEST_CASE("a game seen before is a duplicate: kept and marked, or left out on request") {
  TempDir tmp;
  const fs::path first = tmp / "first.pgn", second = tmp / "second.pgn";
  const std::string game_a =
      "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Date \"2001.02.03\"]\n[Result \"1-0\"]\n\n"
      "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
  const std::string game_b =
      "[White \"C\"]\n[Black \"D\"]\n[Date \"2001.02.03\"]\n\n1. d4 d5 1/2-1/2\n\n";
  pgndb::test::write_file(first, game_a + game_b);
  // The same two games from another source (other tags, a comment, tags in another order), a
  // game differing only in its date, and a new one.
  pgndb::test::write_file(
      second,
      "[White \"A\"]\n[Event \"Other\"]\n[Black \"B\"]\n[Date \"2001.02.03\"]\n[Round \"3\"]\n\n"
      "1. e4 {book} e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n" +
          game_b +
          "[White \"C\"]\n[Black \"D\"]\n[Date \"2001.02.04\"]\n\n1. d4 d5 1/2-1/2\n\n"
          "[White \"A\"]\n[Black \"B\"]\n\n1. c4 *\n\n");

  const fs::path db = tmp / "db";
  import(db, "'" + first.string() + "'");
  const std::string out = import(db, "'" + second.string() + "'");
  CHECK(out.find("imported: 4 games, duplicates: 2 (kept, marked)") != std::string::npos);
  {
    auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
    REQUIRE(store);
    REQUIRE(store->game_count() == 6);
    const std::uint32_t originals[] = {0, 0, 1, 2, 0, 0};
    for (std::uint32_t id = 1; id <= 6; ++id) {
      INFO("game " << id);
      auto of = store->duplicate_of(id);
      REQUIRE(of);
      CHECK(*of == originals[id - 1]);
    }
    // The duplicate is stored as its own source wrote it.
    auto kept = store->game(3);
    REQUIRE(kept);
    CHECK(kept->tag("Event"));
    CHECK(*kept->tag("Event") == "Other");
    auto stats = store->stats();
    REQUIRE(stats);
    CHECK(stats->duplicates == 2);
  }

  // A duplicate within one file counts as well.
  const fs::path skipped_db = tmp / "skipped";
  const std::string skipped =
      import(skipped_db, "'" + first.string() + "' '" + second.string() + "'", "--skip-duplicates");
  CHECK(skipped.find("imported: 4 games, duplicates: 2 (left out)") != std::string::npos);
  auto store = Store::open(skipped_db.string(), {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  CHECK(store->game_count() == 4);
  // The source counts the left-out games as handled: a second run finds nothing to do.
  const std::string again = import(skipped_db, "'" + second.string() + "'", "--skip-duplicates");
  CHECK(again.find("already imported (4 games") != std::string::npos);
}

// Duplicates are found the same way whatever the batch size and the number of threads: a game
// may duplicate one in the batch being filled, in the batch being committed, or one already
// stored (asked of the store a chunk at a time). The expected originals are computed here from
// the source: the first game with the same main line, players, date and result.
TEST_CASE("duplicates are found across batches, whatever their size") {
  TempDir tmp;
  const fs::path corpus = fs::path(PGNDB_SHARED_DATA) / "corpus";
  // Each game of a corpus file, and after it again one of the games before it, from 1 to 600
  // games back: the original may then be in any state (same batch, being committed, stored).
  std::vector<std::string> texts;
  {
    struct Texts : pgn::Visitor {
      std::vector<std::string>* texts;
      pgn::Control begin_game(pgn::Location) override { return pgn::Control::Skip; }
      void end_game(std::string_view text) override { texts->emplace_back(text); }
    } splitter;
    splitter.texts = &texts;
    auto source = pgn::FileSource::open((corpus / "Kasparov.pgn").string());
    REQUIRE(source);
    pgn::Reader reader(**source);
    while (true) {
      auto read = reader.read_game(splitter);
      REQUIRE(read);
      if (!*read) break;
    }
  }
  std::string mixed;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    mixed += texts[i] + "\n\n";
    const std::size_t back = 1 + (i * 7919) % 600;
    if (back <= i) mixed += texts[i - back] + "\n\n";
  }
  const fs::path file = tmp / "mixed.pgn";
  pgndb::test::write_file(file, mixed);
  std::vector<std::uint32_t> expected;  // per game: the id of its original, or 0
  {
    auto source = pgn::FileSource::open(file.string());
    REQUIRE(source);
    pgn::Reader reader(**source);
    pgn::ReplayVisitor replay({.keep_record = true, .keep_text = false});
    std::map<std::string, std::uint32_t> first_with;
    while (true) {
      auto read = reader.read_game(replay);
      REQUIRE(read);
      if (!*read) break;
      REQUIRE_FALSE(replay.has_error());
      const pgn::GameRecord& game = replay.record();
      std::string key = pgn::to_fen(game.start);
      for (const auto& node : game.moves) key += " " + std::to_string(node.move.raw());
      for (const char* tag : {"White", "Black", "Date"})
        key += "|" + (game.tag(tag) ? *game.tag(tag) : std::string());
      key += "|" + game.result;
      const auto id = std::uint32_t(expected.size() + 1);
      auto [it, added] = first_with.emplace(key, id);
      expected.push_back(added ? 0 : it->second);
    }
  }
  const auto duplicates = std::count_if(expected.begin(), expected.end(), [](auto o) { return o; });
  REQUIRE(duplicates > 1500);
  for (const char* options : {"--batch 97 --threads 2", "--batch 1000 --threads 1", ""}) {
    INFO(options);
    const fs::path db = tmp / ("db" + std::to_string(std::hash<std::string>()(options)));
    const std::string out = import(db, "'" + file.string() + "'", options);
    CHECK(out.find("duplicates: " + std::to_string(duplicates) + " (kept") != std::string::npos);
    auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
    REQUIRE(store);
    REQUIRE(store->game_count() == expected.size());
    int wrong = 0;
    for (std::uint32_t id = 1; id <= expected.size(); ++id) {
      auto of = store->duplicate_of(id);
      REQUIRE(of);
      if (*of != expected[id - 1] && ++wrong <= 5)
        FAIL_CHECK("game " << id << " duplicates " << *of << ", expected " << expected[id - 1]);
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("progress is shown on request: games, games/s, bytes of total") {
  TempDir tmp;
  const std::string out = import(tmp / "db", "'" + std::string(PGNDB_SHARED_DATA) +
                                                 "/corpus/Andreikin.pgn' --progress always");
  CHECK(out.find("Andreikin.pgn: ") != std::string::npos);
  CHECK(out.find(" games/s, ") != std::string::npos);
  CHECK(out.find(" MiB (") != std::string::npos);
  // Without a terminal, `auto` shows none.
  const std::string quiet =
      import(tmp / "db2", "'" + std::string(PGNDB_SHARED_DATA) + "/corpus/Andreikin.pgn'");
  CHECK(quiet.find(" games/s, ") == std::string::npos);
}

namespace {

// Runs the shell `commands` in the background while this process opens the database at `db`
// read-only again and again until they end: each open must succeed and see no fewer games than
// the one before; `check` looks at each that holds games. `tmp` is the test's folder: the
// commands run only while it stands (a failed test removes it and goes on).
struct ReadsBeside {
  int opens = 0, growing = 0;  // opens, and those that saw more games than the one before
};
ReadsBeside read_beside(const TempDir& tmp, const fs::path& db,
                        const std::vector<std::string>& commands,
                        const std::function<void(Store&, std::uint32_t)>& check) {
  const fs::path done = tmp / "done";
  // Create the database first, so that readers never race its creation.
  REQUIRE(Store::open(db.string()));
  std::string script = "(";
  for (const std::string& command : commands)
    script += "test -d '" + tmp.path().string() + "' && " + command + " >/dev/null 2>&1; ";
  script += "touch '" + done.string() + "') &";
  REQUIRE(std::system(script.c_str()) == 0);
  ReadsBeside reads;
  std::uint32_t seen = 0;
  while (!fs::exists(done)) {
    auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
    INFO((store ? std::string() : store.error().message()));
    REQUIRE(store);
    ++reads.opens;
    const std::uint32_t count = store->game_count();
    CHECK(count >= seen);
    if (count > seen) ++reads.growing;
    seen = count;
    if (count > 0) check(*store, count);
  }
  return reads;
}

}  // namespace

// Another process reads while an import commits batch after batch: each time it opens the
// database it sees a whole number of batches, and every game it sees is whole, with its
// position index entries.
TEST_CASE("a database can be read while an import runs") {
  TempDir tmp;
  const fs::path db = tmp / "db";
  std::string files;
  for (const char* name : {"Andreikin.pgn", "Shirov.pgn", "Mamedyarov.pgn"})
    files += " '" + std::string(PGNDB_SHARED_DATA) + "/corpus/" + name + "'";
  const ReadsBeside reads =
      read_beside(tmp, db,
                  {std::string(PGNDB_BINARY) + " import --threads 1 --batch 300 --db '" +
                   db.string() + "'" + files},
                  [](Store& store, std::uint32_t count) {
                    // The newest game is whole, and the position index finds it at its final
                    // position.
                    auto game = store.game(count);
                    REQUIRE(game);
                    pgn::Position pos = game->start;
                    for (const auto& node : game->moves) pos.play(node.move);
                    auto matches = store.find_position(pos);
                    REQUIRE(matches);
                    bool found = false;
                    for (const auto& m : *matches)
                      found |= m.game == count && m.ply == int(game->moves.size());
                    CHECK(found);
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                  });
  auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  CHECK(store->game_count() > 2000);
  CHECK(reads.opens > 3);
  CHECK(reads.growing > 1);  // the reader saw the database grow while the import ran
}

// Readers open the database while imports of a few games end one after another: each import's
// end deletes files (the write-ahead logs it lets go, the small files it merges) that a reader
// may have just listed, and the reader reads the list again rather than fail.
TEST_CASE("a database can be read while small imports end one after another") {
  TempDir tmp;
  const fs::path db = tmp / "db";
  const fs::path samples = fs::path(PGNDB_SOURCE_DIR) / "samples";
  const std::string game = pgndb::test::read_file(samples / "annotated-variations.pgn");
  REQUIRE(game.starts_with("[Event \""));
  std::vector<std::string> commands;
  constexpr int imports = 24;
  for (int week = 1; week <= imports; ++week) {
    const fs::path file = tmp / ("week-" + std::to_string(week) + ".pgn");
    pgndb::test::write_file(file, "[Event \"Week " + std::to_string(week) + " " + game.substr(8));
    commands.push_back(std::string(PGNDB_BINARY) + " import --threads 1 --db '" + db.string() +
                       "' '" + file.string() + "'");
  }
  const ReadsBeside reads = read_beside(tmp, db, commands, [](Store& store, std::uint32_t count) {
    auto newest = store.game(count);
    INFO((newest ? std::string() : newest.error().message()));
    CHECK(newest);
  });
  auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  CHECK(store->game_count() == imports);
  CHECK(reads.opens > 3);
}

// The three kinds of input give the same database; standard input is not tracked as a source,
// so importing it twice finds every game of the second run a duplicate.
TEST_CASE("import reads .pgn.zst and standard input like the plain file") {
  INFO("the zstd command is missing: scripts/install-deps installs the zstd package");
  REQUIRE(std::system("command -v zstd > /dev/null 2>&1") == 0);
  TempDir tmp;
  const fs::path plain = tmp / "games.pgn", packed = tmp / "games.pgn.zst";
  // A corpus file with an unplayable game appended (it must be quarantined at its place).
  pgndb::test::write_file(plain,
                          pgndb::test::read_file(fs::path(PGNDB_SHARED_DATA) / "corpus/Tal.pgn") +
                              "\n[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n");
  REQUIRE(std::system(
              ("zstd -q -f '" + plain.string() + "' -o '" + packed.string() + "'").c_str()) == 0);
  import(tmp / "plain", "'" + plain.string() + "'");
  import(tmp / "packed", "'" + packed.string() + "'");
  const auto piped = run_command("cat '" + plain.string() + "' | " + PGNDB_BINARY +
                                 " import --db '" + (tmp / "piped").string() + "' - 2>&1");
  REQUIRE(piped.exit_code == 0);

  auto reference = Store::open((tmp / "plain").string(), {.read_only = true});
  REQUIRE(reference);
  REQUIRE(reference->game_count() > 1000);
  REQUIRE(reference->reject_count() == 1);
  for (const char* name : {"packed", "piped"}) {
    INFO(name);
    auto other = Store::open((tmp / name).string(), {.read_only = true});
    REQUIRE(other);
    REQUIRE(other->game_count() == reference->game_count());
    REQUIRE(other->reject_count() == 1);
    for (std::uint32_t id = 1; id <= reference->game_count(); id += 97) {
      auto a = reference->game(id), b = other->game(id);
      REQUIRE(a);
      REQUIRE(b);
      CHECK(a->tags == b->tags);
      CHECK(a->moves.size() == b->moves.size());
    }
    auto a = reference->reject(1), b = other->reject(1);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->location.line == b->location.line);
    CHECK(a->location.column == b->location.column);
    CHECK(a->text == b->text);
  }
  const auto again = run_command("cat '" + plain.string() + "' | " + PGNDB_BINARY +
                                 " import --db '" + (tmp / "piped").string() + "' - 2>&1");
  REQUIRE(again.exit_code == 0);
  CHECK(again.out.find("imported: " + std::to_string(reference->game_count()) +
                       " games, duplicates: " + std::to_string(reference->game_count())) !=
        std::string::npos);
}
