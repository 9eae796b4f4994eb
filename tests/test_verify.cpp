// pgndb verify: consistent on databases the importer writes (samples, edge cases with their
// rejects and duplicates), and each kind of damage, done to each column family through RocksDB
// directly, reported by family and key.
#include <catch2/catch.hpp>

#include <rocksdb/db.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bytes.h"
#include "fact_group.h"
#include "name_index.h"
#include "pgn/game.h"
#include "pgndb/index/game_codec.h"
#include "pgndb/index/game_summary.h"
#include "pgndb/index/store.h"
#include "pgndb/index/verify.h"
#include "position_generations.h"
#include "position_runs.h"
#include "position_stats.h"
#include "support.h"

namespace {

namespace fs = std::filesystem;
using namespace pgndb::test;
using pgndb::index::Store;
using pgndb::index::VerifyReport;
namespace bytes = pgndb::index::bytes;
namespace positions = pgndb::index::positions;

std::string pgndb_command(const std::string& args) {
  return std::string(PGNDB_BINARY) + " " + args + " 2>&1";
}

// The database every damage starts from: the samples, a copy of one sample file with a line
// added (its games are duplicates), and a game that cannot be replayed (quarantined). Built
// once per run of this executable.
const fs::path& base_database() {
  static TempDir dir;
  static const fs::path db = [] {
    const fs::path samples = fs::path(PGNDB_SOURCE_DIR) / "samples";
    write_file(dir / "copy.pgn", "% a copy\n" + read_file(samples / "Morphy-100.pgn"));
    write_file(
        dir / "bad.pgn",
        "[Event \"bad\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1.e4 e5 2.Ke3 *\n");
    const auto r = run_command(pgndb_command(
        "import --batch 97 --db '" + (dir / "db").string() + "' '" + samples.string() +
        "'/*.pgn '" + (dir / "copy.pgn").string() + "' '" + (dir / "bad.pgn").string() + "'"));
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    return dir / "db";
  }();
  return db;
}

VerifyReport verify(const fs::path& db) {
  auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  auto report = pgndb::index::verify_store(*store, {.threads = 2, .keep = 100000});
  REQUIRE(report);
  return *report;
}

// Whether `r` holds an inconsistency of `family` whose text contains `part`.
bool reported(const VerifyReport& r, std::string_view family, std::string_view part) {
  return std::any_of(r.listed.begin(), r.listed.end(), [&](const auto& p) {
    return p.family == family && p.text.find(part) != std::string::npos;
  });
}

// A copy of the base database, opened with RocksDB itself to damage it.
class Damaged {
 public:
  Damaged() : path_(dir_ / "db") {
    fs::copy(base_database(), path_, fs::copy_options::recursive);
    open();
  }
  ~Damaged() { close(); }

  // The first entry of `family` whose key passes `want`, as (key, value).
  template <class Want>
  std::pair<std::string, std::string> first(const std::string& family, Want&& want) {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(family)));
    for (it->SeekToFirst(); it->Valid(); it->Next())
      if (want(it->key().ToStringView())) return {it->key().ToString(), it->value().ToString()};
    FAIL("no such entry in " << family);
    return {};
  }
  std::pair<std::string, std::string> first(const std::string& family) {
    return first(family, [](std::string_view) { return true; });
  }
  std::string get(const std::string& family, const std::string& key) {
    std::string value;
    REQUIRE(db_->Get(rocksdb::ReadOptions(), cf(family), key, &value).ok());
    return value;
  }
  void put(const std::string& family, const std::string& key, const std::string& value) {
    REQUIRE(db_->Put(rocksdb::WriteOptions(), cf(family), key, value).ok());
  }
  void remove(const std::string& family, const std::string& key) {
    REQUIRE(db_->Delete(rocksdb::WriteOptions(), cf(family), key).ok());
  }
  // Closes RocksDB and opens the database as pgndb does: the error it gives, empty when none.
  std::string open_error() {
    close();
    auto store = Store::open(path_.string(), {.create_if_missing = false, .read_only = true});
    return store ? std::string() : store.error().message();
  }
  // Closes RocksDB (its writes flushed) and verifies the database.
  VerifyReport verify() {
    close();
    return ::verify(path_);
  }
  const fs::path& path() const { return path_; }

 private:
  void open() {
    std::vector<std::string> names;
    REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path_.string(), &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    for (const auto& name : names) {
      rocksdb::ColumnFamilyOptions options;
      options.disable_auto_compactions = true;  // the damage stays as it was written
      if (name == "name_index" || name == "postings")
        options.merge_operator = pgndb::index::name_index::posting_merge_operator();
      descriptors.emplace_back(name, options);
    }
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    REQUIRE(
        rocksdb::DB::Open(rocksdb::DBOptions(), path_.string(), descriptors, &handles, &raw).ok());
    db_.reset(raw);
    for (std::size_t i = 0; i < names.size(); ++i) families_[names[i]] = handles[i];
  }
  rocksdb::ColumnFamilyHandle* cf(const std::string& name) {
    REQUIRE(families_.count(name));
    return families_[name];
  }
  void close() {
    if (!db_) return;
    for (auto& [name, handle] : families_) REQUIRE(db_->DestroyColumnFamilyHandle(handle).ok());
    families_.clear();
    REQUIRE(db_->Close().ok());
    db_.reset();
  }

  TempDir dir_;
  fs::path path_;
  std::unique_ptr<rocksdb::DB> db_;
  std::map<std::string, rocksdb::ColumnFamilyHandle*> families_;
};

std::string id_key(std::uint32_t id) { return bytes::big_endian32(id); }

std::string hex(std::uint64_t v, int digits) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return text;
}

// How verify names the entry (bucket, suffix) of a position run.
std::string position_key(std::uint32_t bucket, std::uint32_t suffix) {
  return "position key " + hex(positions::key40(bucket, suffix), 10) + " (bucket " +
         hex(bucket, 5) + ")";
}

std::vector<positions::Entry> run_of(const std::string& value) {
  std::vector<positions::Entry> run;
  REQUIRE(positions::decode_run(value, run));
  REQUIRE(!run.empty());
  return run;
}

std::string encode(const std::vector<positions::Entry>& run) {
  std::string out;
  positions::encode_run(run, out);
  return out;
}

}  // namespace

TEST_CASE("verify finds freshly imported samples, rejects and duplicates consistent") {
  const VerifyReport r = verify(base_database());
  INFO(listing(r));
  CHECK(r.consistent());
  CHECK(r.games == 502);  // 402 samples and 100 copies
  CHECK(r.duplicates == 100);
  CHECK(r.rejects == 1);
  CHECK(r.summaries == r.games);
  CHECK(r.facts == r.games);
  CHECK(r.fingerprints == 402);
  CHECK(r.variation_positions > 100);
  CHECK(r.positions > 25000);
  CHECK(r.metadata == 0);   // every value's games are lists of the postings family
  CHECK(r.postings > 400);  // 560: players, events, sites, dates and ECO codes
  CHECK(r.names > 200);
  CHECK(r.sources == 8);
  // The command: exit 0, a summary line.
  const auto out = run_command(pgndb_command("verify --db '" + base_database().string() + "'"));
  CHECK(out.exit_code == 0);
  CHECK(out.out.find("consistent") != std::string::npos);
}

TEST_CASE("verify finds the edge cases consistent, with their rejects and duplicates") {
  TempDir dir;
  write_file(dir / "edge.pgn", pgn_files_joined(fs::path(PGNDB_SHARED_DATA) / "edge"));
  const auto db = dir / "db";
  const auto r = run_command(
      pgndb_command("import --db '" + db.string() + "' '" + (dir / "edge.pgn").string() + "'"));
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  const VerifyReport report = verify(db);
  INFO(listing(report));
  CHECK(report.consistent());
  CHECK(report.games > 4000);
  CHECK(report.rejects > 0);
  CHECK(report.duplicates > 0);
  CHECK(report.variation_positions > 1000);
}

TEST_CASE("verify: exit codes of the command") {
  SECTION("no database: 2") {
    TempDir dir;
    const auto r = run_command(pgndb_command("verify --db '" + (dir / "none").string() + "'"));
    CHECK(r.exit_code == 2);
  }
  SECTION("an inconsistency: 1, each on its own line, capped by --limit") {
    Damaged d;
    for (std::uint32_t id = 10; id < 20; ++id) d.remove("games", id_key(id));
    d.verify();
    auto r = run_command(pgndb_command("verify --limit 3 --db '" + d.path().string() + "'"));
    INFO(r.out);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("games: game 10 missing") != std::string::npos);
    CHECK(r.out.find("games: game 13 missing") == std::string::npos);
    CHECK(r.out.find("more") != std::string::npos);
    CHECK(r.out.find("inconsistencies") != std::string::npos);
    r = run_command(pgndb_command("verify --quiet --db '" + d.path().string() + "'"));
    CHECK(r.exit_code == 1);
    CHECK(r.out.empty());
  }
}

TEST_CASE("verify reports damage to the games") {
  Damaged d;
  SECTION("a game deleted") {
    d.remove("games", id_key(7));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "games", "game 7 missing"));
    // Its index entries now name no stored game: not reported as the game's own problem.
    CHECK(!r.consistent());
  }
  SECTION("a game beyond the count") {
    d.put("games", id_key(5000), d.get("games", id_key(3)));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "games", "game 5000: beyond the game count 502"));
  }
  SECTION("a game's bytes damaged") {
    d.put("games", id_key(7), "\x02\x01garbage");
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "games", "game 7 cannot be decoded"));
    CHECK(r.undecodable == 1);
  }
  SECTION("a game of format 2 (stored before schema 16) is consistent; damaged, it is not") {
    // A game without comments has the same bytes in formats 2 and 3 but the version byte.
    auto no_comments = [](const pgn::GameRecord& g) {
      if (!g.leading_comments.empty()) return false;
      for (const pgn::MoveNode& node : g.moves)
        if (!node.comments_before.empty() || !node.comments_after.empty() ||
            !node.comments_after_variations.empty() || !node.variations.empty())
          return false;
      return true;
    };
    std::uint32_t id = 1;
    std::string stored;
    for (;; ++id) {
      REQUIRE(id <= 502);
      stored = d.get("games", id_key(id));
      const auto game = pgndb::index::decode_game(stored);
      REQUIRE(game);
      if (no_comments(*game) && game->moves.size() > 10) break;
    }
    REQUIRE(stored[0] == 3);
    stored[0] = 2;
    d.put("games", id_key(id), stored);
    SECTION("as stored") {
      const auto r = d.verify();
      INFO(listing(r));
      CHECK(r.consistent());
    }
    SECTION("with its last move's code changed") {
      stored.back() = char(stored.back() == 0 ? 1 : 0);
      d.put("games", id_key(id), stored);
      const auto r = d.verify();
      INFO(listing(r));
      CHECK_FALSE(r.consistent());
    }
  }
  SECTION("a game replaced by another (its index entries are then wrong)") {
    d.put("games", id_key(7), d.get("games", id_key(8)));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "positions", ", which does not reach it"));
    CHECK(reported(r, "metadata", "game 7: not a key of that game"));
    CHECK(reported(r, "metadata", "game 7: missing from the index"));
    CHECK(reported(r, "summaries", "game 7: "));
  }
}

TEST_CASE("verify reports damage to the summaries") {
  Damaged d;
  const auto [key, value] = d.first("summaries");
  const std::uint32_t first_id = bytes::read_big_endian32(key);
  SECTION("a group deleted") {
    d.remove("summaries", key);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "summaries", "no summary of game " + std::to_string(first_id)));
  }
  SECTION("a group beyond the games") {
    d.put("summaries", id_key(1000), value);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "summaries", "summary of game 1000: beyond the game count"));
  }
  SECTION("a summary altered") {
    bytes::Reader in(value);
    std::vector<std::string> entries;
    for (std::string e; !in.empty();) {
      REQUIRE(in.string(e));
      entries.push_back(e);
    }
    auto summary = pgndb::index::decode_summary(entries[1]);
    REQUIRE(summary);
    summary->white_elo = std::uint16_t(summary->white_elo + 1);
    entries[1].clear();
    pgndb::index::encode_summary(*summary, entries[1]);
    std::string altered;
    for (const auto& e : entries) bytes::put_string(altered, e);
    d.put("summaries", key, altered);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "summaries", "game " + std::to_string(first_id + 1) + ": White's Elo"));
    CHECK(r.inconsistencies == 1);
  }
  SECTION("a summary's ending altered, and one written without its ending") {
    bytes::Reader in(value);
    std::vector<std::string> entries;
    for (std::string e; !in.empty();) {
      REQUIRE(in.string(e));
      entries.push_back(e);
    }
    REQUIRE(entries.size() > 3);
    auto summary = pgndb::index::decode_summary(entries[1]);
    REQUIRE(summary);
    summary->ending =
        summary->ending == pgn::Ending::Checkmate ? pgn::Ending::Stalemate : pgn::Ending::Checkmate;
    summary->repetition = !summary->repetition;
    entries[1].clear();
    pgndb::index::encode_summary(*summary, entries[1]);
    // Schema 19's layout: bit 7 clear, no ending byte nor opening after the plies.
    REQUIRE(entries[2].size() >= 14);
    entries[2][0] = char(std::uint8_t(entries[2][0]) & 0x7F);
    entries[2].erase(11, 3);
    std::string altered;
    for (const auto& e : entries) bytes::put_string(altered, e);
    d.put("summaries", key, altered);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "summaries", "game " + std::to_string(first_id + 1) + ": ending"));
    CHECK(reported(r, "summaries", "game " + std::to_string(first_id + 1) + ": repetition"));
    CHECK(reported(r, "summaries",
                   "game " + std::to_string(first_id + 2) + ": summary without its ending"));
  }
}

TEST_CASE("verify reports damage to the facts") {
  Damaged d;
  const auto [key, value] = d.first("facts");
  const std::uint32_t first_id = bytes::read_big_endian32(key);
  auto group = pgndb::index::facts::GroupView::parse(value);
  REQUIRE(group);
  REQUIRE(group->size() > 2);
  SECTION("a group deleted") {
    d.remove("facts", key);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "facts", "no facts of game " + std::to_string(first_id)));
  }
  SECTION("a group beyond the games") {
    d.put("facts", id_key(5000), value);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "facts", "facts of game 5000: beyond the game count"));
  }
  SECTION("one game's result and plies altered") {
    std::vector<pgndb::index::SearchFacts> games;
    for (std::size_t i = 0; i < group->size(); ++i) games.push_back(group->at(i));
    games[2].result = std::uint8_t((games[2].result + 1) % 4);
    games[2].plies = std::uint16_t(games[2].plies + 3);
    std::string altered;
    pgndb::index::facts::encode_group(games, altered);
    d.put("facts", key, altered);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "facts", "game " + std::to_string(first_id + 2) + ": result"));
    CHECK(reported(r, "facts", "game " + std::to_string(first_id + 2) + ": plies"));
    CHECK(r.inconsistencies == 2);
  }
  SECTION("bytes cut off") {
    d.put("facts", key, value.substr(0, value.size() - 1));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "facts", "the group of game " + std::to_string(first_id) + " is damaged"));
  }
}

TEST_CASE("verify reports damage to the position index, entry by entry") {
  Damaged d;
  // A bucket of each half, and of the variations.
  const std::string family =
      GENERATE(as<std::string>(), "positions", "positions_upper", "variation_positions");
  // The list of generations counts the entries of both halves as one index.
  const std::string listing_family = family == "variation_positions" ? family : "positions";
  const auto [key, value] = d.first(family);
  const auto parsed = positions::parse_generation_key(key);
  REQUIRE(parsed);
  const std::uint32_t bucket = parsed->bucket;
  const auto run = run_of(value);
  const std::string entry_key = position_key(bucket, run[0].suffix);
  INFO(family << ", " << entry_key);
  SECTION("a bucket deleted: its games miss their entries") {
    d.remove(family, key);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, family, "game " + std::to_string(run[0].game) + " reaches " + entry_key));
    CHECK(reported(r, family, "missing from the index"));
    CHECK(reported(r, listing_family, "the list of generations counts"));
    CHECK(r.inconsistencies == run.size() + 1);
  }
  SECTION("an entry added, for a game that does not reach the position") {
    auto altered = run;
    const std::uint32_t other = run[0].game == 1 ? 2 : 1;
    altered.push_back({0x3ABCDE, other});
    std::sort(altered.begin(), altered.end());
    d.put(family, key, encode(altered));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, family,
                   position_key(bucket, 0x3ABCDE) + " lists game " + std::to_string(other) +
                       ", which does not reach it"));
    CHECK(reported(r, listing_family, "the list of generations counts"));
    CHECK(r.inconsistencies == 2);
  }
  SECTION("an entry naming no game") {
    auto altered = run;
    altered.push_back({positions::suffix_mask, 99999});
    d.put(family, key, encode(altered));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, family,
                   position_key(bucket, positions::suffix_mask) +
                       " lists game 99999 (no such game), which does not reach it"));
  }
  SECTION("an entry's game altered") {
    auto altered = run;
    altered[0].game = run[0].game == 1 ? 2 : 1;
    std::sort(altered.begin(), altered.end());
    altered.erase(std::unique(altered.begin(), altered.end()), altered.end());
    d.put(family, key, encode(altered));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, family, "game " + std::to_string(run[0].game) + " reaches " + entry_key));
    CHECK(reported(
        r, family,
        entry_key + " lists game " +
            std::to_string(altered[0].game == run[0].game ? altered[1].game : altered[0].game)));
  }
  SECTION("a run's bytes damaged") {
    d.put(family, key, "\xff\xff\xff");
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, family,
                   "generation " + std::to_string(parsed->generation) + ", bucket " +
                       hex(bucket, 5) + ": run damaged"));
  }
  SECTION("runs of a generation the list does not name are not read") {
    // What a merge stopped between its ingestion and its deletions leaves.
    d.put(family, positions::generation_key(parsed->generation + 1000, bucket), "\xff\xff");
    d.put(family, positions::generation_key(parsed->generation + 1001, bucket),
          encode({{1, 99999}}));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(r.consistent());
  }
  SECTION("a key that names no generation and bucket") {
    d.put(family, "\x01\x02", encode({{1, 1}}));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, family, "key 0x0102: not a generation and a bucket"));
  }
}

TEST_CASE("verify counts the statistics of popular positions again from their games") {
  Damaged d;
  // The start position's, which every game of the samples passes through.
  const pgn::Key start = pgn::repetition_key(pgn::Position());
  const std::uint64_t key40 = positions::key40_of(start);
  const std::string family =
      positions::bucket_of(start) < positions::bucket_count / 2 ? "positions" : "positions_upper";
  const auto [key, value] = d.first(family, [&](std::string_view k) {
    const auto parsed = positions::parse_statistics_key(k);
    return parsed && parsed->key40 == key40;
  });
  positions::Statistics statistics;
  REQUIRE(positions::decode_statistics(value, key40, statistics));
  REQUIRE(statistics.keys.size() == 1);
  REQUIRE(statistics.keys[0].moves.size() >= 2);
  SECTION("as written, they are what the games give") {
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(r.consistent());
    CHECK(r.position_statistics >= 1);
  }
  SECTION("a tally altered") {
    ++statistics.keys[0].moves[1].draws;
    std::string altered;
    positions::encode_statistics(statistics, altered);
    d.put(family, key, altered);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, family, "statistics of " + hex(key40, 10)));
    CHECK(r.inconsistencies == 1);
  }
  SECTION("an unread game added") {
    statistics.unread.push_back(1);
    std::sort(statistics.unread.begin(), statistics.unread.end());
    statistics.unread.erase(std::unique(statistics.unread.begin(), statistics.unread.end()),
                            statistics.unread.end());
    std::string altered;
    positions::encode_statistics(statistics, altered);
    d.put(family, key, altered);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, family, "unread"));
  }
  SECTION("damaged bytes") {
    d.put(family, key, value.substr(0, value.size() / 2));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, family, "statistics of " + hex(key40, 10) + ": damaged"));
  }
}

TEST_CASE("a damaged list of generations: the database is refused, and says why") {
  Damaged d;
  // Two generations listed, none of them.
  d.put("default", "meta:position_generations", "\x05\x02");
  CHECK(d.open_error() == "the position index's list is damaged");
}

TEST_CASE("verify reports damage to the metadata and names") {
  Damaged d;
  // A list of a player's games as White: the key is the epoch (0: 2 bytes), "p", the name, 0, the
  // colour 0, the block.
  const std::string epoch0(2, '\0');
  const auto [key, value] = d.first("postings", [&](std::string_view k) {
    return k.starts_with(epoch0 + "p") && k.size() >= 7 && k[k.size() - 4] == 0 &&
           k[k.size() - 3] == 0;
  });
  std::vector<std::uint32_t> ids;
  REQUIRE(pgndb::index::name_index::decode_numbers(value, ids));
  const std::uint32_t game = ids.front();
  const std::string name = key.substr(3, key.size() - 7);
  const std::string player = "player '" + name + "' as White, game " + std::to_string(game);
  auto list_of = [](const std::vector<std::uint32_t>& numbers) {
    std::string out;
    pgndb::index::name_index::encode_numbers(numbers, out);
    return out;
  };
  SECTION("a game missing from its player's list") {
    if (ids.size() > 1) {
      d.put("postings", key, list_of(std::vector<std::uint32_t>(ids.begin() + 1, ids.end())));
    } else {
      d.remove("postings", key);
    }
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "metadata", player + ": missing from the index"));
  }
  SECTION("a list of games added for a player nobody is") {
    d.put("postings", epoch0 + "pnobody at all" + '\0' + '\0' + '\0' + '\0', list_of({3}));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "metadata", "player 'nobody at all' as White, game 3: not a key"));
    CHECK(reported(r, "names", "player 'nobody at all': missing"));
  }
  SECTION("a list keyed as schema 16 keyed them, without the epoch") {
    d.remove("postings", key);
    d.put("postings", key.substr(2), value);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "postings", ": not a list's key (past the epochs of "));
    CHECK(reported(r, "metadata", player + ": missing from the index"));
  }
  SECTION("a list in an epoch that is not its block's") {
    // Block 16 is epoch 1's.
    const std::string wrong = key.substr(0, key.size() - 2) + std::string("\0\x10", 2);
    d.put("postings", wrong, value);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "postings", ": not a list's key"));
    CHECK_FALSE(reported(r, "postings", "past the epochs"));
  }
  SECTION("a player's key in the metadata family, where searches no longer look") {
    d.put("metadata", "p" + name + '\0' + '\0' + id_key(game), "");
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "metadata", player + ": belongs in the postings family"));
  }
  SECTION("a name deleted") {
    const std::string number = d.get("names", "p" + name + '\0');
    d.remove("names", "p" + name + '\0');
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "names", "player '" + name + "': missing"));
    // The name index still has it, and the player count counts it.
    CHECK(reported(r, "name_index",
                   "name number " + std::to_string(bytes::read_big_endian32(number)) +
                       " (player '" + name + "'): the names family says otherwise"));
    CHECK(reported(r, "default", "meta:player_count is "));
  }
  SECTION("a name added") {
    d.put("names", std::string("ezzz nowhere") + '\0', id_key(1));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "names", "event 'zzz nowhere': no list of games has this name"));
    // Its number is another name's: the name index has that one under it.
    CHECK(reported(r, "name_index", "name number 1 (event 'zzz nowhere'): missing"));
  }
  SECTION("a name's number damaged") {
    d.put("names", "p" + name + '\0', "x");
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "names", "player '" + name + "': 1 bytes of number, not 4"));
  }
}

TEST_CASE("verify reports damage to the lists of dates' and ECO codes' games") {
  Damaged d;
  // An ECO code's list: its games, one of them moved to another list, a list damaged. Its key:
  // the epoch (2 bytes), "o", the code, the block.
  const auto [key, value] = d.first("postings", [](std::string_view k) { return k[2] == 'o'; });
  std::vector<std::uint32_t> ids;
  REQUIRE(pgndb::index::name_index::decode_numbers(value, ids));
  const std::string code = "ECO '" + key.substr(3, 3) + "'";
  auto list_of = [](const std::vector<std::uint32_t>& numbers) {
    std::string out;
    pgndb::index::name_index::encode_numbers(numbers, out);
    return out;
  };
  SECTION("a game missing from its list") {
    const std::uint32_t missing = ids.back();
    ids.pop_back();
    d.put("postings", key, ids.empty() ? list_of({missing + 1}) : list_of(ids));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "metadata",
                   code + ", game " + std::to_string(missing) + ": missing from the index"));
  }
  SECTION("a game in a list it does not belong to") {
    std::string other = key;
    other[5] = char(other[5] == '9' ? '8' : other[5] + 1);  // a neighbouring code
    d.put("postings", other, list_of({ids.front()}));       // instead of what it held
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "metadata",
                   "ECO '" + other.substr(3, 3) + "', game " + std::to_string(ids.front()) +
                       ": not a key of that game"));
  }
  SECTION("a list that does not decode, or holds a game of another block") {
    d.put("postings", key, "\x80");
    std::string far = key;
    far[far.size() - 1] = char(far.back() + 1);
    d.put("postings", far, list_of({ids.front()}));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(
        r, "postings",
        code + ", block " + std::to_string(std::uint8_t(key.back())) + ": not a list of games"));
    CHECK(reported(r, "postings",
                   code + ", game " + std::to_string(ids.front()) + ": in the list of block "));
  }
  SECTION("a game's key in the metadata instead of its list") {
    // Searches read the lists alone: the key does not stand for the game missing from them.
    const std::string game = code + ", game " + std::to_string(ids.front());
    d.put("metadata", key.substr(2, 4) + id_key(ids.front()), "");
    if (ids.size() > 1) {
      ids.erase(ids.begin());
      d.put("postings", key, list_of(ids));
    } else {
      d.remove("postings", key);
    }
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "metadata", game + ": belongs in the postings family"));
    CHECK(reported(r, "metadata", game + ": missing from the index"));
  }
}

TEST_CASE("verify reports damage to the fingerprints and duplicates") {
  Damaged d;
  const auto [fp, original] = d.first("fingerprints");
  const std::uint32_t game = bytes::read_big_endian32(original);
  const std::string fp_text = hex(
      std::uint64_t(bytes::read_big_endian32(fp)) << 32 | bytes::read_big_endian32(fp.substr(4)),
      16);
  // A duplicate, and the game it duplicates.
  const auto [duplicate_key, duplicate_value] = d.first("duplicates");
  const std::uint32_t duplicate = bytes::read_big_endian32(duplicate_key),
                      of = bytes::read_big_endian32(duplicate_value);
  SECTION("a fingerprint deleted") {
    d.remove("fingerprints", fp);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "fingerprints",
                   "fingerprint " + fp_text + ", game " + std::to_string(game) + ": missing"));
  }
  SECTION("a fingerprint added") {
    d.put("fingerprints", std::string(8, '\x01'), id_key(5));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "fingerprints", "fingerprint 0x0101010101010101, game 5: not"));
    CHECK(r.inconsistencies == 1);
  }
  SECTION("a fingerprint's game altered") {
    d.put("fingerprints", fp, id_key(game + 1));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "fingerprints",
                   "fingerprint " + fp_text + ", game " + std::to_string(game) + ": missing"));
    CHECK(reported(r, "fingerprints",
                   "fingerprint " + fp_text + ", game " + std::to_string(game + 1) + ": not"));
  }
  SECTION("a duplicate mark deleted") {
    d.remove("duplicates", duplicate_key);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "duplicates", "game " + std::to_string(duplicate) + " has the fingerprint"));
    CHECK(reported(r, "duplicates",
                   "of the earlier game " + std::to_string(of) + " but is not marked a duplicate"));
  }
  SECTION("a duplicate mark added") {
    d.put("duplicates", id_key(3), id_key(1));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "duplicates", "game 3 is marked a duplicate of game 1, but"));
  }
  SECTION("a duplicate mark altered") {
    d.put("duplicates", duplicate_key, id_key(of + 1));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "duplicates",
                   "game " + std::to_string(duplicate) + " is marked a duplicate of game " +
                       std::to_string(of + 1) + ", but its fingerprint"));
  }
}

TEST_CASE("verify reports damage to the rejects, sources and counters") {
  Damaged d;
  SECTION("a reject deleted") {
    d.remove("rejects", id_key(1));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "rejects", "reject 1 missing"));
  }
  SECTION("a reject added") {
    d.put("rejects", id_key(2), d.get("rejects", id_key(1)));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "rejects", "reject 2: beyond the reject count 1"));
  }
  SECTION("a reject damaged") {
    d.put("rejects", id_key(1), "\x05xy");
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "rejects", "reject 1 cannot be read"));
  }
  SECTION("a source damaged, and one added") {
    const auto [key, value] = d.first("sources");
    d.put("sources", key, "\x7f");
    d.put("sources", "abc", value);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "sources", "cannot be read"));
    CHECK(reported(r, "sources", "key 0x616263: not a content hash"));
  }
  SECTION("the game count one too high") {
    d.put("default", "meta:game_count", id_key(503));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "games", "game 503 missing (the game count is 503)"));
  }
  SECTION("an unknown key among the counters") {
    d.put("default", "meta:other", "1");
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "default", "unknown key 'meta:other'"));
  }
}

// The name index (index/src/name_index.h): each name's number, and each fragment's list of
// numbers, rebuilt from the names family.
TEST_CASE("verify reports damage to the name index and the name counts") {
  namespace name_index = pgndb::index::name_index;
  Damaged d;
  const auto [name_key, number_bytes] = d.first("names", [](std::string_view k) {
    return k.starts_with("p") && k.size() > 6;  // a player whose search key has fragments
  });
  const std::uint32_t number = bytes::read_big_endian32(number_bytes);
  const std::string name = name_key.substr(1, name_key.size() - 2);
  const std::string fragment_key = name_index::fragment_keys(name_key).front();
  const std::string fragment = fragment_key.substr(2);
  std::vector<std::uint32_t> list;
  REQUIRE(name_index::decode_numbers(d.get("name_index", fragment_key), list));
  REQUIRE(std::count(list.begin(), list.end(), number) == 1);
  auto put_list = [&](const std::vector<std::uint32_t>& numbers) {
    std::string value;
    name_index::encode_numbers(numbers, value);
    d.put("name_index", fragment_key, value);
  };
  SECTION("a name's number deleted") {
    d.remove("name_index", name_index::number_key(number));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "name_index",
                   "name number " + std::to_string(number) + " (player '" + name + "'): missing"));
    CHECK(r.inconsistencies == 1);
  }
  SECTION("a fragment's list without a name") {
    std::vector<std::uint32_t> without;
    for (std::uint32_t n : list)
      if (n != number) without.push_back(n);
    put_list(without);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(
        r, "name_index",
        "fragment '" + fragment + "' of name number " + std::to_string(number) + ": missing"));
    CHECK(r.inconsistencies == 1);
  }
  SECTION("a fragment's list with a name too many") {
    std::vector<std::uint32_t> with = list;
    const std::uint32_t other = list.back() + 1;
    with.push_back(other);
    put_list(with);
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "name_index",
                   "fragment '" + fragment + "' of name number " + std::to_string(other) +
                       ": the names family says otherwise"));
  }
  SECTION("a fragment's list damaged") {
    d.put("name_index", fragment_key, "\x80");
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "name_index", "its list damaged"));
  }
  SECTION("the player count altered") {
    const std::uint32_t players = bytes::read_big_endian32(d.get("default", "meta:player_count"));
    d.put("default", "meta:player_count", id_key(players + 1));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "default",
                   "meta:player_count is " + std::to_string(players + 1) +
                       ", but the names family holds " + std::to_string(players) + " players"));
  }
  SECTION("the duplicate count altered") {
    const std::uint32_t marked = bytes::read_big_endian32(d.get("default", "meta:duplicate_count"));
    REQUIRE(marked > 0);  // the copy of a sample file
    d.put("default", "meta:duplicate_count", id_key(marked - 1));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "default",
                   "meta:duplicate_count is " + std::to_string(marked - 1) +
                       ", but the duplicates family marks " + std::to_string(marked) + " games"));
    CHECK(r.inconsistencies == 1);
  }
  SECTION("the name count below a name's number") {
    d.put("default", "meta:name_count", id_key(number - 1));
    const auto r = d.verify();
    INFO(listing(r));
    CHECK(reported(r, "names",
                   "player '" + name + "': number " + std::to_string(number) +
                       " is not in 1..meta:name_count"));
  }
}
