// The database directory: created on first open, schema version recorded and checked.
#include <catch2/catch.hpp>

#include <rocksdb/db.h>
#include <rocksdb/utilities/debug.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "log_file.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgndb/index/game_codec.h"
#include "pgndb/index/importer.h"
#include "pgndb/index/prepared_game.h"
#include "pgndb/index/store.h"
#include "pgndb/index/verify.h"
#include "support.h"

using pgndb::index::Status;
using pgndb::index::Store;
using pgndb::test::TempDir;

namespace {

// The database at `path` opened as RocksDB alone would, with every column family it has.
struct RawDatabase {
  RawDatabase(const std::string& path, bool read_only) {
    std::vector<std::string> names;
    REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    for (const auto& name : names) families.emplace_back(name, rocksdb::ColumnFamilyOptions());
    rocksdb::DB* raw = nullptr;
    REQUIRE((read_only ? rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(), path, families,
                                                      &handles, &raw)
                       : rocksdb::DB::Open(rocksdb::DBOptions(), path, families, &handles, &raw))
                .ok());
    db.reset(raw);
  }
  ~RawDatabase() {
    for (auto* h : handles) CHECK(db->DestroyColumnFamilyHandle(h).ok());
  }
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
};

}  // namespace

TEST_CASE("a new database records the schema version and opens again") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  {
    auto store = Store::open(path);
    REQUIRE(store);
    CHECK(store->version() == pgndb::index::schema_version);
  }
  auto again = Store::open(path, {.create_if_missing = false});
  REQUIRE(again);
  CHECK(again->version() == pgndb::index::schema_version);
}

TEST_CASE("the LOG is bounded: no option dumps, and a full one is moved to LOG.old") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  REQUIRE(Store::open(path));
  // RocksDB's dump of every family's options (its OPTIONS file holds them) is left out.
  const std::string first = pgndb::test::read_file(path + "/LOG");
  CHECK(first.find("RocksDB version") != std::string::npos);
  CHECK(first.find("Options.") == std::string::npos);
  // A writer opening past max_bytes starts a new LOG and keeps the full one as LOG.old.
  const std::string full(pgndb::index::LogFile::max_bytes, 'x');
  pgndb::test::write_file(path + "/LOG", full);
  REQUIRE(Store::open(path));
  CHECK(pgndb::test::read_file(path + "/LOG.old") == full);
  CHECK(pgndb::test::read_file(path + "/LOG").size() < first.size() + 1000);
}

TEST_CASE("opening a missing database without create_if_missing is NotFound") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  auto store = Store::open(path, {.create_if_missing = false});
  REQUIRE_FALSE(store);
  CHECK(store.error().code() == Status::Code::NotFound);
  CHECK(store.error().message().find(path) != std::string::npos);
}

TEST_CASE("a database of another schema version is refused, naming both versions") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  REQUIRE(Store::open(path));
  {
    RawDatabase raw(path, false);
    REQUIRE(
        raw.db->Put(rocksdb::WriteOptions(), "meta:schema_version", std::string("\0\0\0\x63", 4))
            .ok());
  }
  auto store = Store::open(path);
  REQUIRE_FALSE(store);
  CHECK(store.error().code() == Status::Code::IncompatibleVersion);
  CHECK(store.error().message().find("version 99") != std::string::npos);
}

// A database from before this schema's column families (version 4 had five of them): a reader
// cannot add the missing families, and must say which version it found, not "no database".
TEST_CASE("a read-only open of an older database names its schema version") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  {
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(options, path, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    REQUIRE(
        db->Put(rocksdb::WriteOptions(), "meta:schema_version", std::string("\0\0\0\x04", 4)).ok());
  }
  auto store = Store::open(path, {.create_if_missing = false, .read_only = true});
  REQUIRE_FALSE(store);
  CHECK(store.error().code() == Status::Code::IncompatibleVersion);
  CHECK(store.error().message().find("version 4") != std::string::npos);

  auto missing =
      Store::open((tmp / "none").string(), {.create_if_missing = false, .read_only = true});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code() == Status::Code::NotFound);
}

// A process killed while creating a database must not leave a directory that readers refuse:
// the database is made beside its path and renamed to it whole.
TEST_CASE("a database is created whole: a creation cut short leaves nothing at the path") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  // What a creation killed part-way leaves: RocksDB files beside the path, under the name of
  // a process gone (no lock held on them), none at the path.
  const std::string leftover = path + ".pgndb-creating-4000000";
  std::filesystem::create_directory(leftover);
  pgndb::test::write_file(leftover + "/LOG", "cut short");
  pgndb::test::write_file(leftover + "/LOCK", "");
  auto none = Store::open(path, {.create_if_missing = false, .read_only = true});
  REQUIRE_FALSE(none);
  CHECK(none.error().code() == Status::Code::NotFound);
  {
    auto store = Store::open(path);
    REQUIRE(store);
    CHECK(store->version() == pgndb::index::schema_version);
  }
  CHECK_FALSE(std::filesystem::exists(leftover));
  CHECK(std::distance(std::filesystem::directory_iterator(tmp.path()),
                      std::filesystem::directory_iterator()) == 1);  // the database alone
  auto reader = Store::open(path, {.create_if_missing = false, .read_only = true});
  REQUIRE(reader);
  CHECK(reader->game_count() == 0);

  // An empty directory at the path becomes the database; a path with a trailing slash too.
  const std::string empty = (tmp / "empty").string();
  std::filesystem::create_directory(empty);
  REQUIRE(Store::open(empty + "/"));
  CHECK(Store::open(empty, {.create_if_missing = false, .read_only = true}));
  CHECK(std::distance(std::filesystem::directory_iterator(tmp.path()),
                      std::filesystem::directory_iterator()) == 2);
}

namespace {

// The table files of each of `families` in the database at `path`, by family: those of level 0,
// or of every level.
std::map<std::string, std::set<std::string>> table_files(const std::string& path,
                                                         const std::vector<std::string>& families,
                                                         bool level0_only) {
  RawDatabase raw(path, true);
  std::map<std::string, std::set<std::string>> files;
  for (auto* h : raw.handles) {
    if (std::find(families.begin(), families.end(), h->GetName()) == families.end()) continue;
    rocksdb::ColumnFamilyMetaData meta;
    raw.db->GetColumnFamilyMetaData(h, &meta);
    for (const auto& level : meta.levels) {
      if (level0_only && level.level != 0) continue;
      for (const auto& f : level.files) files[h->GetName()].insert(f.name);
    }
  }
  return files;
}
std::map<std::string, std::set<std::string>> level0_files(
    const std::string& path, const std::vector<std::string>& families) {
  return table_files(path, families, true);
}

}  // namespace

namespace {

// Imports `file` into `store` on one thread in batches of at most `batch_games` games and
// `batch_bytes` bytes, without the end of the import (Store::settle); returns the games stored.
std::uint64_t import_in_batches(Store& store, const std::filesystem::path& file,
                                std::size_t batch_games, std::size_t batch_bytes) {
  pgndb::index::ImportOptions options;
  options.threads = 1;
  options.batch_games = batch_games;
  options.batch_bytes = batch_bytes;
  auto imported = pgndb::index::import_file(store, file.string(), options);
  REQUIRE(imported);
  return imported->games;
}

}  // namespace

// Batches end at ImportOptions::batch_games or at batch_bytes, whichever comes first: games with
// a comment on every move take ten times the memory of bare ones.
TEST_CASE("a batch ends at its game count or at its bytes, whichever comes first") {
  const std::filesystem::path samples = std::filesystem::path(PGNDB_SOURCE_DIR) / "samples";
  auto generations_after = [&](std::size_t batch_games, std::size_t batch_bytes) {
    TempDir tmp;
    auto store = Store::open((tmp / "db").string());
    REQUIRE(store);
    REQUIRE(import_in_batches(*store, samples / "Tal-100.pgn", batch_games, batch_bytes) == 100);
    // Before settle() merges them: a generation of the position index per batch (fewer than
    // the 16 a tier merges).
    return store->position_generations(false);
  };
  CHECK(generations_after(1000, std::size_t(80) << 20) == 1);
  CHECK(generations_after(25, std::size_t(80) << 20) == 4);
  // About 1 KB a game (80 positions of 8 bytes, the recorded opening, the game, its summary
  // and facts): 20,000 bytes end a batch after some 19 games, the first after some 38 (this
  // small file is read whole at once, so its rest always seems to fit beside the first batch,
  // which then ends at twice the bytes: see the next test).
  const auto by_bytes = generations_after(1000, 20000);
  CHECK(by_bytes >= 3);
  CHECK(by_bytes <= 10);
}

namespace {

// What the batch of a whole file takes (WriteBatch::bytes), its games prepared as the importer
// prepares them.
std::size_t whole_file_batch_bytes(Store& store, const std::filesystem::path& file) {
  const std::string text = pgndb::test::read_file(file);
  pgn::StringSource source(text);
  pgn::Reader reader(source);
  pgn::ReplayVisitor replay({.keep_record = true, .keep_text = false});
  auto batch = store.begin_batch();
  for (;;) {
    auto read = reader.read_game(replay);
    REQUIRE(read);
    if (!*read) break;
    REQUIRE(replay.replayed());
    (void)batch.add_game(pgndb::index::prepare_game(replay.record()));
  }
  return batch.bytes();
}

}  // namespace

// A file whose games fit in what two batches may hold (2 x batch_bytes) is one batch: no batch
// fills beside it, and the end of the import has nothing of it to merge. The importer tells from
// the share of the file its first batch took; a file whose later games take more than the
// first ones foretold is committed at twice batch_bytes and goes on in batches of the usual
// size. The game count stays a limit (an interrupted import loses at most a batch).
TEST_CASE("a file that fits in three times a batch's bytes is read as one batch") {
  TempDir tmp;
  const std::string tal =
      pgndb::test::read_file(std::filesystem::path(PGNDB_SOURCE_DIR) / "samples" / "Tal-100.pgn");
  // Tal's games with each movetext line led by `factor` times its length in spaces: more text
  // for the same games, which the batch does not hold.
  auto padded = [&](std::size_t factor) {
    std::string out;
    for (std::size_t at = 0; at < tal.size();) {
      const std::size_t end = std::min(tal.find('\n', at), tal.size() - 1);
      std::string line = tal.substr(at, end - at + 1);
      at = end + 1;
      if (!line.starts_with("[") && line.find_first_not_of("\r\n") != std::string::npos)
        line.insert(0, factor * line.size(), ' ');
      out += line;
    }
    return out;
  };
  // 1,300 games in 13 MB: the importer reads a file 1 MiB at a time, and a file read whole by
  // its first batch's end would tell nothing.
  std::string even;
  for (int i = 0; i < 13; ++i) even += padded(19);
  // Half the games with forty times their text, then the other half bare: the first half's
  // share of the file foretells a batch too small.
  std::string uneven;
  for (int i = 0; i < 13; ++i) uneven += i < 6 ? padded(40) : i == 6 ? padded(20) : tal;
  const auto even_file = tmp / "even.pgn", uneven_file = tmp / "uneven.pgn";
  pgndb::test::write_file(even_file, even);
  pgndb::test::write_file(uneven_file, uneven);

  auto whole = [&](const std::filesystem::path& file) {
    TempDir db;
    auto store = Store::open((db / "db").string());
    REQUIRE(store);
    return whole_file_batch_bytes(*store, file);
  };
  auto import = [&](const std::filesystem::path& file, std::size_t batch_games,
                    std::size_t batch_bytes) {
    TempDir db;
    auto store = Store::open((db / "db").string());
    REQUIRE(store);
    REQUIRE(import_in_batches(*store, file, batch_games, batch_bytes) == 1300);
    const auto generations = store->position_generations(false);
    // Every game and position is where it belongs, however the file was cut.
    REQUIRE(store->settle().is_ok());
    auto report = pgndb::index::verify_store(*store);
    REQUIRE(report);
    CHECK(report->games == 1300);
    CHECK(report->consistent());
    return generations;
  };
  const std::size_t even_bytes = whole(even_file), uneven_bytes = whole(uneven_file);
  INFO("batches of the whole files: " << even_bytes << " and " << uneven_bytes << " bytes");
  // The first batch ends at batch_bytes: at 40% of the file the whole fits in three times
  // batch_bytes; at 20% it does not, and four more batches follow. (The share of the file read
  // runs up to a read ahead, 1 MiB of the 13, of the games batched: it makes the rest look
  // smaller, never larger; at 20% the whole still looks over 70% of it, not under 60.)
  CHECK(import(even_file, 100000, even_bytes * 40 / 100) == 1);
  CHECK(import(even_file, 100000, even_bytes * 20 / 100) == 5);
  // Beyond the game count, even with bytes to spare.
  CHECK(import(even_file, 800, even_bytes) == 2);
  // The padded games make nearly all the file's text and half its batch: at batch_bytes (30%
  // of the whole) the whole looks as if it fitted in three times that, and the batch ends at
  // three times batch_bytes instead (two generations; batches of the usual size would have
  // made four).
  CHECK(import(uneven_file, 100000, uneven_bytes * 30 / 100) == 2);
}

// The rule for families larger than StoreOptions::small_family_bytes (here every family is).
TEST_CASE("an import leaves one level-0 file per family, and no earlier import's is rewritten") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  const std::filesystem::path samples = std::filesystem::path(PGNDB_SOURCE_DIR) / "samples";
  auto import = [&](const std::string& file) {
    auto store = Store::open(path, {.small_family_bytes = 0});
    REQUIRE(store);
    // Batches of 20 games: each adds a file to every family's level 0.
    pgndb::index::ImportOptions options;
    options.threads = 1;
    options.batch_games = 20;
    auto imported = pgndb::index::import_file(*store, (samples / file).string(), options);
    REQUIRE(imported);
    REQUIRE(imported->games == 100);
    REQUIRE(store->settle().is_ok());
  };
  const std::vector<std::string> families = {"postings", "names", "fingerprints"};
  import("Tal-100.pgn");
  const auto first = level0_files(path, families);
  for (const auto& family : families) {
    INFO(family);
    CHECK(first.at(family).size() == 1);
  }
  import("Morphy-100.pgn");
  const auto second = level0_files(path, families);
  for (const auto& family : families) {
    INFO(family);
    CHECK(second.at(family).size() == 2);
    CHECK(second.at(family).count(*first.at(family).begin()) ==
          1);  // the first import's, as it was
  }
  // Both imports' games are found by name.
  auto store = Store::open(path, {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  auto players = store->name_values(Store::NameDimension::Player);
  REQUIRE(players);
  CHECK((*players)->size() > 20);
}

namespace {

// Imports `file` (100 games) into `store` on one thread, in batches of `batch_games`, without the
// end of the import (Store::settle).
void import_hundred(Store& store, const std::string& file, std::size_t batch_games) {
  pgndb::index::ImportOptions options;
  options.threads = 1;
  options.batch_games = batch_games;
  auto imported = pgndb::index::import_file(store, file, options);
  REQUIRE(imported);
  REQUIRE(imported->games == 100);
}

// The compression of each table file of the families of games and summaries, by family.
std::map<std::string, std::multiset<std::string>> game_file_compressions(const std::string& path) {
  RawDatabase raw(path, true);
  std::map<std::string, std::multiset<std::string>> compressions;
  for (auto* h : raw.handles) {
    if (h->GetName() != "games" && h->GetName() != "summaries") continue;
    rocksdb::TablePropertiesCollection tables;
    REQUIRE(raw.db->GetPropertiesOfAllTables(h, &tables).ok());
    for (const auto& [file, properties] : tables)
      compressions[h->GetName()].insert(properties->compression_name);
  }
  return compressions;
}

}  // namespace

// An import of WriteBatch::games_rewritten_from_batches batches or more writes its games and
// summaries with LZ4, which the end of the import rewrites with ZSTD; a smaller one writes ZSTD
// at once and is not rewritten. Either way every game reads back as the file has it.
TEST_CASE("an import's games are compressed once with ZSTD in the end, lightly until then") {
  const std::filesystem::path samples = std::filesystem::path(PGNDB_SOURCE_DIR) / "samples";
  const std::string file = (samples / "Tal-100.pgn").string();
  for (const std::size_t batch_games : {10, 40}) {
    INFO("batches of " << batch_games << " games");
    TempDir tmp;
    const std::string path = (tmp / "db").string();
    const std::size_t batches = (100 + batch_games - 1) / batch_games;
    const bool rewritten = batches >= pgndb::index::WriteBatch::games_rewritten_from_batches;
    {
      auto store = Store::open(path);
      REQUIRE(store);
      import_hundred(*store, file, batch_games);
      // Before the end of the import: a file per batch and family, light ones if rewritten.
      for (const auto& [family, compressions] : game_file_compressions(path)) {
        INFO(family);
        CHECK(compressions.size() == batches);
        CHECK((compressions.count("LZ4") > 0) == rewritten);
        CHECK(compressions.count("LZ4") + compressions.count("ZSTD") == batches);
      }
      REQUIRE(store->settle().is_ok());
    }
    for (const auto& [family, compressions] : game_file_compressions(path)) {
      INFO(family);
      CHECK(compressions.count("ZSTD") == compressions.size());
      if (rewritten)
        CHECK(compressions.size() < batches);
      else
        CHECK(compressions.size() == batches);
    }
    // Every game as an import in one batch (compressed once, never rewritten) stores it.
    TempDir one_batch_tmp;
    const std::string one_batch = (one_batch_tmp / "db").string();
    {
      auto store = Store::open(one_batch);
      REQUIRE(store);
      import_hundred(*store, file, 1000);
      REQUIRE(store->settle().is_ok());
    }
    auto store = Store::open(path, {.create_if_missing = false, .read_only = true});
    auto expected = Store::open(one_batch, {.create_if_missing = false, .read_only = true});
    REQUIRE(store);
    REQUIRE(expected);
    for (std::uint32_t id = 1; id <= 100; ++id) {
      auto game = store->game(id);
      auto wanted = expected->game(id);
      REQUIRE(game);
      REQUIRE(wanted);
      std::string bytes, wanted_bytes;
      pgndb::index::encode_game(*game, bytes);
      pgndb::index::encode_game(*wanted, wanted_bytes);
      CHECK(game->tags == wanted->tags);
      CHECK(bytes == wanted_bytes);
    }
  }
}

// An import stopped before its end (no settle) leaves its light files; `pgndb compact` rewrites
// them with ZSTD, though RocksDB's last level already holds them.
TEST_CASE("compact rewrites the light game files an import stopped before its end left") {
  const std::filesystem::path samples = std::filesystem::path(PGNDB_SOURCE_DIR) / "samples";
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  {
    auto store = Store::open(path);
    REQUIRE(store);
    import_hundred(*store, (samples / "Tal-100.pgn").string(), 10);
  }
  for (const auto& [family, compressions] : game_file_compressions(path)) {
    INFO(family);
    CHECK(compressions.count("LZ4") > 0);
  }
  {
    auto store = Store::open(path);
    REQUIRE(store);
    REQUIRE(store->compact().is_ok());
  }
  const auto compacted = game_file_compressions(path);
  CHECK(compacted.size() == 2);
  for (const auto& [family, compressions] : compacted) {
    INFO(family);
    CHECK(compressions.count("ZSTD") == compressions.size());
  }
  auto store = Store::open(path, {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  CHECK(store->game_count() == 100);
  auto report = pgndb::index::verify_store(*store);
  REQUIRE(report);
  CHECK(report->consistent());
  CHECK(report->games == 100);
}

// A family no larger than StoreOptions::small_family_bytes is merged whole into its last level
// at the end of an import: no level-0 file is left, and the keys lose their sequence numbers
// (the corpus's metadata 7.5 -> 4.3 MB). The games stay found, and the database consistent.
TEST_CASE("an import merges small families whole into their last level") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  const std::filesystem::path samples = std::filesystem::path(PGNDB_SOURCE_DIR) / "samples";
  const std::vector<std::string> families = {"postings", "names", "name_index", "fingerprints"};
  for (const char* file : {"Tal-100.pgn", "Morphy-100.pgn"}) {
    {
      auto store = Store::open(path);
      REQUIRE(store);
      pgndb::index::ImportOptions options;
      options.threads = 1;
      options.batch_games = 20;  // five files in every family's level 0
      auto imported = pgndb::index::import_file(*store, (samples / file).string(), options);
      REQUIRE(imported);
      REQUIRE(store->settle().is_ok());
    }
    const auto level0 = level0_files(path, families);
    for (const auto& family : families) {
      INFO(family);
      CHECK(level0.count(family) == 0);
    }
  }
  auto store = Store::open(path, {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  CHECK(store->game_count() == 200);
  auto tal = store->names_containing(Store::NameDimension::Player, "tal");
  REQUIRE(tal);
  CHECK(!tal->empty());
  auto report = pgndb::index::verify_store(*store);
  REQUIRE(report);
  CHECK(report->consistent());
}

namespace {

// One import of `file` into the database at `path` (created if missing), on one thread, ended
// as the command ends one (Store::settle).
void import_and_settle(const std::string& path, const std::filesystem::path& file) {
  auto store = Store::open(path);
  REQUIRE(store);
  pgndb::index::ImportOptions options;
  options.threads = 1;
  REQUIRE(pgndb::index::import_file(*store, file.string(), options));
  REQUIRE(store->settle().is_ok());
}

// The database at `path` holds `games` games and `pgndb verify` finds it consistent.
void check_consistent(const std::string& path, std::uint32_t games) {
  auto store = Store::open(path, {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  CHECK(store->game_count() == games);
  auto report = pgndb::index::verify_store(*store);
  REQUIRE(report);
  CHECK(report->consistent());
}

}  // namespace

// An import writes each batch's lists as merge operands, and RocksDB puts a file that overlaps
// nothing in its last level as it is, operands and all: every search then merged them as it
// read them. A new database's import in one batch wrote just such a file.
TEST_CASE("after an import of a small database the postings hold whole lists, no merge operands") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  const std::filesystem::path samples = std::filesystem::path(PGNDB_SOURCE_DIR) / "samples";
  for (const char* file : {"Tal-100.pgn", "Morphy-100.pgn"}) {
    import_and_settle(path, samples / file);
    RawDatabase raw(path, true);
    rocksdb::ColumnFamilyHandle* postings = nullptr;
    for (auto* h : raw.handles)
      if (h->GetName() == "postings") postings = h;
    REQUIRE(postings);
    std::vector<rocksdb::KeyVersion> versions;
    REQUIRE(rocksdb::GetAllKeyVersions(raw.db.get(), postings, "", "", 1 << 20, &versions).ok());
    INFO(file);
    CHECK(versions.size() > 100);
    const auto operands = std::count_if(versions.begin(), versions.end(), [](const auto& v) {
      return v.GetTypeName() == "TypeMerge";
    });
    CHECK(operands == 0);
  }
  check_consistent(path, 200);
}

// A reader for searching (the find, tree, export and show commands) leaves the import's records
// closed: it reads games, counts and names as any reader, and the calls that read the records
// say what is missing instead of reading a family that is not open.
TEST_CASE("a reader opened without the import records searches, and refuses to read them") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  const std::string game =
      "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 "
      "3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
  pgndb::test::write_file(
      tmp / "in.pgn", game + game + "[White \"C\"]\n[Result \"*\"]\n\n1. e4 Ke7 2. Ke2 Kd9 *\n");
  import_and_settle(path, tmp / "in.pgn");

  auto with = Store::open(path, {.create_if_missing = false, .read_only = true});
  REQUIRE(with);
  REQUIRE(with->game_count() == 2);
  REQUIRE(with->reject_count() == 1);
  auto stats = with->stats();
  REQUIRE(stats);
  CHECK(stats->sources == 1);
  CHECK(stats->duplicates == 1);
  auto duplicate = with->duplicate_of(2);
  REQUIRE(duplicate);
  CHECK(*duplicate == 1);
  auto reject = with->reject(1);
  REQUIRE(reject);
  CHECK(reject->text.find("Kd9") != std::string::npos);
  CHECK(with->find_fingerprint(1));

  auto without =
      Store::open(path, {.create_if_missing = false, .read_only = true, .import_records = false});
  REQUIRE(without);
  CHECK(without->game_count() == 2);
  CHECK(without->reject_count() == 1);
  auto read = without->game(2);
  REQUIRE(read);
  CHECK(read->moves.size() == 7);
  auto refused = [](const Status& status) {
    CHECK(status.code() == Status::Code::InvalidArgument);
    CHECK(status.message().find("opened without its import records") != std::string::npos);
  };
  refused(without->stats().error());
  refused(without->duplicate_of(2).error());
  refused(without->reject(1).error());
  refused(without->source(1).error());
  refused(without->find_fingerprint(1).error());
  std::vector<std::uint32_t> ids;
  refused(without->find_fingerprints({1, 2}, ids));
}

// A reader schedules no flushes or compactions, and starts none of the background threads
// RocksDB starts at every open for them (four, for a query of a few milliseconds). The
// database is written by another process, so that this one has started no RocksDB thread.
TEST_CASE("a reader starts no background threads") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  pgndb::test::write_file(tmp / "in.pgn",
                          "[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 "
                          "3. Bc4 Nf6 4. Qxf7# 1-0\n");
  const pid_t writer = fork();
  REQUIRE(writer >= 0);
  if (writer == 0) {
    auto store = Store::open(path);
    pgndb::index::ImportOptions options;
    options.threads = 1;
    const bool written = store &&
                         pgndb::index::import_file(*store, (tmp / "in.pgn").string(), options) &&
                         store->settle().is_ok();
    _exit(written ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(writer, &status, 0) == writer);
  REQUIRE((WIFEXITED(status) && WEXITSTATUS(status) == 0));

  auto threads = [] {
    return std::distance(std::filesystem::directory_iterator("/proc/self/task"),
                         std::filesystem::directory_iterator());
  };
  const auto before = threads();
  auto reader = Store::open(path, {.create_if_missing = false, .read_only = true});
  REQUIRE(reader);
  auto game = reader->game(1);
  REQUIRE(game);
  CHECK(game->moves.size() == 7);
  CHECK(threads() == before);
}

// Imports of a few games each (a weekly issue added to a base) add a file to each family keyed
// by game, which RocksDB never merges: the end of an import merges the small files that end
// such a family once eight stand, leaving out a file larger than those after it together (the
// base's, here), which is not rewritten.
TEST_CASE("imports of a few games each leave a bounded number of files keyed by game") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  const std::filesystem::path samples = std::filesystem::path(PGNDB_SOURCE_DIR) / "samples";
  std::string base;
  for (int copy = 0; copy < 10; ++copy)
    for (const char* file : {"Tal-100.pgn", "Morphy-100.pgn", "Gukesh-100.pgn"})
      base += pgndb::test::read_file(samples / file) + "\n\n";
  pgndb::test::write_file(tmp / "base.pgn", base);
  const std::vector<std::string> families = {"games", "summaries", "facts"};
  import_and_settle(path, tmp / "base.pgn");
  const auto at_base = table_files(path, families, false);
  for (const auto& family : families) {
    INFO(family);
    REQUIRE(at_base.at(family).size() == 1);
  }
  // Each a file of its own (the same file again would be passed over as imported already).
  const std::string game = pgndb::test::read_file(samples / "annotated-variations.pgn");
  REQUIRE(game.starts_with("[Event \""));
  int week = 0;
  auto import_week = [&] {
    ++week;
    const auto file = tmp / ("week-" + std::to_string(week) + ".pgn");
    pgndb::test::write_file(file, "[Event \"Week " + std::to_string(week) + " " + game.substr(8));
    import_and_settle(path, file);
  };
  for (int i = 1; i <= 7; ++i) import_week();
  const auto before = table_files(path, families, false);
  for (const auto& family : families) {
    INFO(family);
    CHECK(before.at(family).size() == 8);
  }
  import_week();
  const auto after = table_files(path, families, false);
  for (const auto& family : families) {
    INFO(family);
    CHECK(after.at(family).size() == 2);
    CHECK(after.at(family).count(*at_base.at(family).begin()) == 1);  // the base's, untouched
  }
  check_consistent(path, 3008);
}

// Every import opens a write-ahead log that stays empty (everything is written as ingested table
// files), and RocksDB 7.8 kept them all while no family flushed: each reader opened every one.
TEST_CASE("imports leave no write-ahead logs of earlier imports behind") {
  TempDir tmp;
  const std::string path = (tmp / "db").string();
  const std::filesystem::path samples = std::filesystem::path(PGNDB_SOURCE_DIR) / "samples";
  auto logs = [&] {
    std::size_t n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(path))
      n += entry.path().extension() == ".log";
    return n;
  };
  const std::vector<std::string> files = {"Tal-100.pgn", "Morphy-100.pgn", "Gukesh-100.pgn",
                                          "annotated-variations.pgn",
                                          "annotated-eval-comments.pgn"};
  for (const std::string& file : files) import_and_settle(path, samples / file);
  CHECK(logs() <= 2);
  {
    auto store = Store::open(path);
    REQUIRE(store);
    REQUIRE(store->compact().is_ok());
  }
  CHECK(logs() <= 2);
  check_consistent(path, 302);
}
