// pgndb import of many files at once: the files share batches, and the database is the one that
// importing their concatenation makes (the same games under the same ids, the same answers), but
// for each file being a source of its own (skipped when imported again, named by its rejects).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "import_support.h"
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

std::string quoted(const std::vector<fs::path>& files) {
  std::string out;
  for (const auto& f : files) out += " '" + f.string() + "'";
  return out;
}

// What a few queries answer on `db`, as the commands print them (ids included).
std::string answers(const fs::path& db) {
  const std::string pgndb = std::string(PGNDB_BINARY) + " ";
  const std::string on = " --db '" + db.string() + "'";
  std::string out;
  for (const std::string& query : {
           "find" + on + " --moves 'e4 c5 Nf3 d6' --format json --limit 100000",
           "find" + on + " --player Tal --result 1-0 --format json --limit 100000",
           "find" + on + " --material KRPvKR --format json --limit 100000",
           "find" + on + " --min-elo 2500 --sort -date --format json --limit 500",
           "tree" + on + " --moves 'd4 Nf6 c4'",
           "export" + on + " --eco-tag B90",
       }) {
    const auto r = run_command(pgndb + query + " 2>&1");
    INFO(query << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
    out += "$ " + query.substr(0, query.find(' ')) + "\n" + r.out;
  }
  return out;
}

}  // namespace

TEST_CASE("a folder of files imports as their concatenation: same games, ids, rejects, answers",
          "[heavy]") {
  TempDir tmp;
  const fs::path corpus = fs::path(PGNDB_SHARED_DATA) / "corpus";
  // Files of mixed sizes, one with a game that cannot be replayed (Paehtz), one compressed, one
  // empty, and one with rejects near its start and end (lines of the file they are in).
  std::vector<fs::path> files;
  for (const char* name :
       {"Tal.pgn", "Morphy.pgn", "Berliner.pgn", "McDonnell.pgn", "Breyer.pgn", "Paehtz.pgn",
        "Staunton.pgn", "Fine.pgn", "TorreRepetto.pgn", "MacKenzie.pgn", "Winawer.pgn"})
    files.push_back(corpus / name);
  pgndb::test::write_file(tmp / "empty.pgn", "");
  files.insert(files.begin() + 3, tmp / "empty.pgn");
  const std::string morphy = pgndb::test::read_file(corpus / "Morphy.pgn");
  const std::string bad = "[Event \"x\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 Ke7 2. Nf3 1-0\n\n";
  pgndb::test::write_file(tmp / "with-rejects.pgn", bad + morphy.substr(0, 60000) + "\n\n" + bad);
  files.insert(files.begin() + 6, tmp / "with-rejects.pgn");
  const fs::path plain = tmp / "Soltis.pgn";
  fs::copy_file(corpus / "Soltis.pgn", plain);
  REQUIRE(run_command("zstd -q --rm '" + plain.string() + "'").exit_code == 0);
  files.push_back(tmp / "Soltis.pgn.zst");

  // The concatenation, of the files as read (the compressed one decompressed).
  std::string joined;
  std::vector<fs::path> plain_files = files;
  plain_files.back() = corpus / "Soltis.pgn";
  for (const auto& f : plain_files) {
    std::string text = pgndb::test::read_file(f);
    REQUIRE((text.empty() || text.back() == '\n'));  // nothing of a file runs into the next
    joined += text;
  }
  pgndb::test::write_file(tmp / "all.pgn", joined);

  const Expected each = read_expected(plain_files);
  REQUIRE(each.games.size() > 7000);
  REQUIRE(each.rejects.size() == 3);
  Expected as_one = read_expected({tmp / "all.pgn"});
  REQUIRE(as_one.games == each.games);

  const std::string pgndb = std::string(PGNDB_BINARY);
  const fs::path one = tmp / "one", folder = tmp / "folder", small = tmp / "small";
  REQUIRE(run_command(pgndb + " import --db '" + one.string() + "' '" + (tmp / "all.pgn").string() +
                      "' 2>&1")
              .exit_code == 0);
  check_store_holds(one, as_one);
  // The folder whole (one batch), and in batches of 500 games: batches end inside files and
  // hold the end of one file and the start of the next. The first file is named twice: read once.
  std::vector<fs::path> listed = files;
  listed.push_back(files.front());
  Expected expected = each;  // but for the compressed file's name
  for (auto& reject : expected.rejects)
    if (reject.file == (corpus / "Soltis.pgn").string()) reject.file = files.back().string();
  for (const auto& [db, options] :
       {std::pair{folder, std::string()}, std::pair{small, std::string(" --batch 500")}}) {
    const auto r = run_command(pgndb + " import" + options + " --db '" + db.string() + "'" +
                               quoted(listed) + " 2>&1");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("imported: " + std::to_string(each.games.size()) + " games,") !=
          std::string::npos);
    CHECK(r.out.find(files.front().string() + ": already imported (") != std::string::npos);
    check_store_holds(db, expected);
    CHECK(answers(db) == answers(one));
    const auto verified = run_command(pgndb + " verify --quiet --db '" + db.string() + "' 2>&1");
    INFO(verified.out);
    CHECK(verified.exit_code == 0);
    auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
    REQUIRE(store);
    auto stats = store->stats();
    REQUIRE(stats);
    CHECK(stats->sources == files.size());  // the empty file too: it was read whole
  }

  // Each file is a source of its own: imported again, every one is skipped; a new file beside
  // them is imported alone, its games after the others'.
  const auto again = run_command(pgndb + " import --batch 500 --db '" + small.string() + "'" +
                                 quoted(files) + " '" + (corpus / "Evans.pgn").string() + "' 2>&1");
  INFO(again.out);
  REQUIRE(again.exit_code == 0);
  for (const auto& f : files)
    CHECK(again.out.find(f.string() + ": already imported (") != std::string::npos);
  const Expected evans = read_expected({corpus / "Evans.pgn"});
  CHECK(again.out.find("imported: " + std::to_string(evans.games.size()) + " games,") !=
        std::string::npos);
  Expected grown = expected;
  grown.games.insert(grown.games.end(), evans.games.begin(), evans.games.end());
  check_store_holds(small, grown);
}
