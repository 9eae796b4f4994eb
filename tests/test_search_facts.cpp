// The facts searches check (result, date, ratings, plies, annotated; search_facts.h): their
// bit-packed groups (index/src/fact_group.h), searches that check them against the games' own
// tags read here, and the upgrade that adds them to a database of schema 10.
#include <rocksdb/db.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bytes.h"
#include "fact_group.h"
#include "material_record.h"
#include "name_index.h"
#include "pgn/game.h"
#include "pgndb/index/store.h"
#include "pgndb/index/verify.h"
#include "pgndb/query/filters.h"
#include "pgndb/query/search.h"
#include "pgndb/query/tree.h"
#include "position_runs.h"
#include "position_stats.h"
#include "statistics_check.h"
#include "support.h"
#include "value_postings.h"

namespace fs = std::filesystem;
namespace positions = pgndb::index::positions;
using pgndb::index::SearchFacts;
using pgndb::index::Store;
namespace facts = pgndb::index::facts;

namespace {

std::vector<SearchFacts> decoded(const std::string& bytes) {
  auto group = facts::GroupView::parse(bytes);
  REQUIRE(group);
  std::vector<SearchFacts> out;
  for (std::size_t i = 0; i < group->size(); ++i) out.push_back(group->at(i));
  return out;
}

// Games as archives hold them: ratings often missing, partial dates, results of every kind;
// with `extreme`, any 16-bit value in every field that holds one.
SearchFacts random_facts(std::mt19937& random, bool extreme) {
  auto pick = [&](std::uint32_t low, std::uint32_t high) {
    return std::uniform_int_distribution<std::uint32_t>(low, high)(random);
  };
  SearchFacts f;
  f.result = std::uint8_t(pick(0, 3));
  f.annotated = pick(0, 9) == 0;
  // Most games end as none, a few by checkmate, fewer by the others.
  f.set_ending_code(pick(0, 2) ? 0 : pick(0, 31));
  // Openings: a few hundred common ones, now and then none.
  f.opening_id = pick(0, 9) == 0 ? 0 : pgn::OpeningId(pick(1, 400) * 9);
  if (extreme) {
    f.year = std::uint16_t(pick(0, 65535));
    f.month = std::uint8_t(pick(0, 255));
    f.day = std::uint8_t(pick(0, 255));
    f.white_elo = std::uint16_t(pick(0, 65535));
    f.black_elo = std::uint16_t(pick(0, 65535));
    f.plies = std::uint16_t(pick(0, 65535));
    return f;
  }
  f.year = pick(0, 5) == 0 ? 0 : std::uint16_t(pick(1950, 2025));
  f.month = f.year && pick(0, 3) ? std::uint8_t(pick(1, 12)) : 0;
  f.day = f.month && pick(0, 3) ? std::uint8_t(pick(1, 31)) : 0;
  f.white_elo = pick(0, 2) == 0 ? 0 : std::uint16_t(pick(1800, 2850));
  f.black_elo = pick(0, 2) == 0 ? 0 : std::uint16_t(pick(1800, 2850));
  f.plies = std::uint16_t(pick(0, 300));
  return f;
}

// The value of a numeric tag, 0 when it is not a number below 65,536 (as docs/query.md says
// ratings are read).
unsigned number_tag(const pgn::GameRecord& game, std::string_view name) {
  const std::string* text = game.tag(name);
  unsigned v = 0;
  if (!text) return 0;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), v);
  return error == std::errc() && end == text->data() + text->size() && v < 65536 ? v : 0;
}

// The samples, imported in batches of 50 (groups of facts end at batch ends); once per run.
const fs::path& samples_database() {
  static pgndb::test::TempDir dir;
  static const fs::path db = [] {
    const fs::path samples = fs::path(PGNDB_SOURCE_DIR) / "samples";
    const auto r =
        pgndb::test::run_command(std::string(PGNDB_BINARY) + " import --batch 50 --db '" +
                                 (dir / "db").string() + "' '" + samples.string() + "'/*.pgn 2>&1");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    return dir / "db";
  }();
  return db;
}

// The samples 14 times over (each copy a file of its own, its games marked duplicates): 4,228
// games, so that groups of facts meet multiples of 4,096 and batch ends. Once per run.
const fs::path& copies_database() {
  static pgndb::test::TempDir dir;
  static const fs::path db = [] {
    const std::string samples =
        pgndb::test::pgn_files_joined(fs::path(PGNDB_SOURCE_DIR) / "samples");
    std::string files;
    for (int copy = 0; copy < 14; ++copy) {
      const fs::path file = dir / ("copy" + std::to_string(copy) + ".pgn");
      pgndb::test::write_file(file, "% copy " + std::to_string(copy) + "\n" + samples);
      files += " '" + file.string() + "'";
    }
    const auto r =
        pgndb::test::run_command(std::string(PGNDB_BINARY) + " import --batch 1000 --db '" +
                                 (dir / "db").string() + "'" + files + " 2>&1");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    return dir / "db";
  }();
  return db;
}

// The database opened by RocksDB itself, every family with the merge operator its lists need:
// what a test writes through to make an older schema or a damaged value.
struct RawDatabase {
  std::vector<std::string> names;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::unique_ptr<rocksdb::DB> db;
  explicit RawDatabase(const fs::path& path) {
    REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path.string(), &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    for (const auto& name : names) {
      rocksdb::ColumnFamilyOptions options;
      // Lists may still be merge operands, merged as they are read.
      if (name == "postings" || name == "name_index")
        options.merge_operator = pgndb::index::name_index::posting_merge_operator();
      descriptors.emplace_back(name, options);
    }
    rocksdb::DB* raw = nullptr;
    REQUIRE(
        rocksdb::DB::Open(rocksdb::DBOptions(), path.string(), descriptors, &handles, &raw).ok());
    db.reset(raw);
  }
  ~RawDatabase() {
    for (auto* h : handles) (void)db->DestroyColumnFamilyHandle(h);
  }
};

// What schema 22 added taken away, as a database of 21 or older held it: no materials family,
// and no list of the material dimension ('m') among the postings (their keys: the epoch's
// 2 bytes, then the dimension).
void remove_materials(RawDatabase& opened) {
  for (std::size_t i = 0; i < opened.names.size(); ++i) {
    rocksdb::DB* rdb = opened.db.get();
    if (opened.names[i] == "materials") REQUIRE(rdb->DropColumnFamily(opened.handles[i]).ok());
    if (opened.names[i] != "postings") continue;
    std::unique_ptr<rocksdb::Iterator> it(
        rdb->NewIterator(rocksdb::ReadOptions(), opened.handles[i]));
    std::vector<std::string> keys;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view key = it->key().ToStringView();
      if (key.size() > 2 && key[2] == 'm') keys.emplace_back(key);
    }
    REQUIRE(it->status().ok());
    REQUIRE(keys.size() > 100);
    for (const auto& key : keys)
      REQUIRE(rdb->Delete(rocksdb::WriteOptions(), opened.handles[i], key).ok());
  }
}

// Each game's material history in the first `groups` groups (all by default) decoded, given to
// `change`, and written back.
void rewrite_histories(RawDatabase& opened,
                       const std::function<void(pgn::MaterialHistory&)>& change,
                       std::size_t groups = std::numeric_limits<std::size_t>::max()) {
  for (std::size_t i = 0; i < opened.names.size(); ++i) {
    if (opened.names[i] != "materials") continue;
    rocksdb::DB* rdb = opened.db.get();
    std::unique_ptr<rocksdb::Iterator> it(
        rdb->NewIterator(rocksdb::ReadOptions(), opened.handles[i]));
    std::vector<std::pair<std::string, std::string>> rewritten;
    for (it->SeekToFirst(); it->Valid() && rewritten.size() < groups; it->Next()) {
      pgndb::index::bytes::Reader in(it->value().ToStringView());
      std::string group;
      for (std::string_view entry; !in.empty();) {
        REQUIRE(in.view(entry));
        auto history = pgndb::index::material::decode_history(entry);
        REQUIRE(history);
        change(*history);
        std::string bytes;
        pgndb::index::material::encode_history(*history, bytes);
        pgndb::index::bytes::put_string(group, bytes);
      }
      rewritten.emplace_back(it->key().ToString(), group);
    }
    REQUIRE(it->status().ok());
    REQUIRE(!rewritten.empty());
    it.reset();
    for (const auto& [key, value] : rewritten)
      REQUIRE(rdb->Put(rocksdb::WriteOptions(), opened.handles[i], key, value).ok());
  }
}

// What schemas 23 and 24 added taken away, as a database of 22 (`pawns`) or 23 held it: each
// game's material history without the ranks its rooks stood on, and without the squares its
// pawns stood on.
void remove_squares(RawDatabase& opened, bool pawns) {
  std::size_t with_squares = 0;
  rewrite_histories(opened, [&](pgn::MaterialHistory& history) {
    with_squares += history.pawn_squares[pgn::White] != ~pgn::Bitboard(0) &&
                    history.rook_squares[pgn::White] != ~pgn::Bitboard(0);
    if (pawns) history.pawn_squares = {~pgn::Bitboard(0), ~pgn::Bitboard(0)};
    history.rook_squares = {~pgn::Bitboard(0), ~pgn::Bitboard(0)};
  });
  REQUIRE(with_squares > 4096);
}

// A group of facts as an older schema wrote it: the last `dropped` of its 11 columns left out
// (the opening's before schema 21, the ending's too before 20, the speed's too before 19).
std::string without_last_columns(std::string_view group, int dropped) {
  pgndb::index::bytes::Reader in(group);
  std::uint64_t n = 0;
  REQUIRE(in.varint(n));
  std::string out;
  pgndb::index::bytes::put_varint(out, n);
  const int kept = 11 - dropped;
  std::size_t kept_bits_bytes = 0, dropped_bytes = 0;
  for (int f = 0; f < 11; ++f) {
    std::uint64_t base = 0;
    std::uint8_t width = 0;
    REQUIRE(in.varint(base));
    REQUIRE(in.byte(width));
    const std::size_t bytes = (n * width + 7) / 8;
    if (f >= kept) {
      dropped_bytes += bytes;
      continue;
    }
    pgndb::index::bytes::put_varint(out, base);
    out += char(width);
    kept_bits_bytes += bytes;
  }
  const std::string_view columns = group.substr(group.size() - in.remaining());
  REQUIRE(columns.size() == kept_bits_bytes + dropped_bytes + 7);
  out += columns.substr(0, kept_bits_bytes);
  out += columns.substr(kept_bits_bytes + dropped_bytes);
  return out;
}

std::vector<std::uint32_t> found(const Store& store, const pgndb::query::FilterText& text) {
  auto filters = pgndb::query::parse_filters(text);
  REQUIRE(filters);
  auto search = pgndb::query::Search::start(store, *filters);
  if (!search) FAIL(search.error().message());
  REQUIRE(search);
  std::vector<std::uint32_t> ids;
  for (;;) {
    auto id = search->next();
    if (!id) FAIL(id.error().message());
    if (!*id) return ids;
    ids.push_back(**id);
  }
}

}  // namespace

TEST_CASE("a group of facts reads back every field of every game") {
  std::mt19937 random(20261201);
  for (const std::size_t n : {1, 2, 3, 7, 64, 1000, 4096}) {
    for (const bool extreme : {false, true}) {
      INFO("games " << n << (extreme ? ", any 16-bit values" : ""));
      std::vector<SearchFacts> games;
      for (std::size_t i = 0; i < n; ++i) games.push_back(random_facts(random, extreme));
      std::string bytes;
      facts::encode_group(games, bytes);
      CHECK(decoded(bytes) == games);
    }
  }
  // Columns the same all over take no bits: 4,096 games of one day, unrated, not annotated,
  // all draws of 40 plies, are a header and the padding.
  SearchFacts same;
  same.result = 3;
  same.year = 2024;
  same.month = 5;
  same.day = 17;
  same.plies = 40;
  const std::vector<SearchFacts> alike(4096, same);
  std::string bytes;
  facts::encode_group(alike, bytes);
  CHECK(bytes.size() < 40);
  CHECK(decoded(bytes) == alike);
  // Ratings of 0 and 1,800-2,850 take 11 bits each, not 12 (0 is kept apart from the base).
  std::vector<SearchFacts> rated(1000);
  for (std::size_t i = 0; i < rated.size(); ++i)
    rated[i].white_elo = i % 3 == 0 ? 0 : std::uint16_t(1800 + i);
  bytes.clear();
  facts::encode_group(rated, bytes);
  CHECK(bytes.size() < 1000 * 11 / 8 + 40);
  CHECK(decoded(bytes) == rated);
}

TEST_CASE("a filter checked on a stored group passes the games it passes on their facts") {
  // The group reads only the fields a filter names; the filter on the decoded facts reads them
  // all: the two agree for every game, filter and field, known values and unknown ones.
  std::mt19937 random(7);
  using pgndb::index::FactsFilter;
  std::size_t passing_total = 0, ending_filters_passing = 0, opening_filters_passing = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<SearchFacts> games;
    for (int i = 0; i < 300; ++i) games.push_back(random_facts(random, trial % 2 == 1));
    std::string bytes;
    facts::encode_group(games, bytes);
    auto group = facts::GroupView::parse(bytes);
    REQUIRE(group);
    auto pick = [&](std::uint32_t most) {
      const std::uint64_t span = std::uint64_t(most) + 1;
      const auto a = std::uint32_t(random() % span), b = std::uint32_t(random() % span);
      return FactsFilter::Range{std::min(a, b), std::max(a, b)};
    };
    FactsFilter filter;
    if (random() % 2) filter.result = pick(3);
    if (random() % 2) filter.date = pick(0xFFFFFFFF >> (random() % 8));
    if (random() % 2) filter.plies = pick(400);
    if (random() % 2) filter.min_elo = unsigned(random() % 3000);
    if (random() % 3 == 0) filter.max_elo = unsigned(random() % 3000);
    filter.annotated = random() % 4 == 0;
    if (random() % 3 == 0) filter.endings = std::uint8_t(random());
    filter.repetition = random() % 5 == 0;
    filter.fifty_moves = random() % 7 == 0;
    if (random() % 4 == 0) {
      auto bits = std::make_shared<std::vector<std::uint64_t>>(64);
      for (auto& word : *bits) word = random() & random();  // about a quarter of the openings
      filter.openings = std::move(bits);
    }
    std::size_t passing = 0;
    for (std::size_t i = 0; i < games.size(); ++i) {
      INFO("trial " << trial << ", game " << i);
      CHECK(group->passes(i, filter) == filter.passes(games[i]));
      passing += filter.passes(games[i]);
    }
    passing_total += passing;
    ending_filters_passing += filter.checks_ending() && passing > 0;
    opening_filters_passing += filter.openings && passing > 0;
  }
  CHECK(passing_total > 1000);
  CHECK(ending_filters_passing > 10);
  CHECK(opening_filters_passing > 5);
}

TEST_CASE("a damaged group of facts is refused, not misread") {
  std::mt19937 random(7);
  std::vector<SearchFacts> games;
  for (int i = 0; i < 100; ++i) games.push_back(random_facts(random, false));
  std::string bytes;
  facts::encode_group(games, bytes);
  REQUIRE(facts::GroupView::parse(bytes));
  CHECK_FALSE(facts::GroupView::parse(""));
  CHECK_FALSE(facts::GroupView::parse(bytes.substr(0, bytes.size() - 1)));
  CHECK_FALSE(facts::GroupView::parse(bytes + '\0'));
  // A count of 0, and a count beyond what the bytes hold.
  CHECK_FALSE(facts::GroupView::parse(std::string(1, '\0') + bytes.substr(1)));
  CHECK_FALSE(facts::GroupView::parse(std::string(1, char(101)) + bytes.substr(1)));
  // The result column's base made 2: its stored 3s would decode to result 4.
  std::string past = bytes;
  REQUIRE(past[1] == char(1));
  past[1] = char(2);
  CHECK_FALSE(facts::GroupView::parse(past));
  // The result column (after the count) made 17 bits wide: no field is wider than 16.
  std::string wide = bytes;
  wide[2] = char(17);
  CHECK_FALSE(facts::GroupView::parse(wide));
  // A result column whose base and width could decode a result above 3.
  std::string big = bytes;
  big[1] = char(3);
  big[2] = char(2);
  CHECK_FALSE(facts::GroupView::parse(big));
}

TEST_CASE("searches checked on the facts give the games the tags say") {
  auto store = Store::open(samples_database().string(), {.create_if_missing = false});
  REQUIRE(store);
  // Each game's values, read from its tags and moves here.
  struct Expected {
    std::uint32_t id;
    std::string result;
    unsigned white_elo, black_elo, plies, year;
  };
  std::vector<Expected> games;
  for (std::uint32_t id = 1; id <= store->game_count(); ++id) {
    auto game = store->game(id);
    REQUIRE(game);
    const std::string* date = game->tag("Date");
    unsigned year = 0;
    if (date && date->size() >= 4) std::from_chars(date->data(), date->data() + 4, year);
    games.push_back({id, game->result, number_tag(*game, "WhiteElo"), number_tag(*game, "BlackElo"),
                     unsigned(game->moves.size()), year});
  }
  auto expected = [&](auto&& passes) {
    std::vector<std::uint32_t> ids;
    for (const Expected& g : games)
      if (passes(g)) ids.push_back(g.id);
    return ids;
  };
  pgndb::query::FilterText text;
  for (const char* result : {"1-0", "0-1", "1/2-1/2", "*"}) {
    INFO(result);
    text = {};
    text.result = result;
    CHECK(found(*store, text) == expected([&](const Expected& g) { return g.result == result; }));
  }
  text = {};
  text.min_plies = 80;
  text.max_plies = 120;
  CHECK(found(*store, text) ==
        expected([](const Expected& g) { return g.plies >= 80 && g.plies <= 120; }));
  const auto strong = expected([](const Expected& g) {
    return g.white_elo >= 2300 && g.black_elo >= 2300 && g.result == "1-0";
  });
  CHECK(!strong.empty());
  text = {};
  text.result = "1-0";
  text.min_elo = 2300;
  CHECK(found(*store, text) == strong);
  const auto band = expected([](const Expected& g) {
    return g.white_elo >= 2300 && g.black_elo >= 2300 && g.white_elo <= 2500 &&
           g.black_elo <= 2500 && g.result == "0-1";
  });
  CHECK(!band.empty());
  text.result = "0-1";
  text.max_elo = 2500;
  CHECK(found(*store, text) == band);
  // A player's games: the names index answers, the facts check the date and the plies.
  text = {};
  text.player = "Tal";
  const auto tal = found(*store, text);
  REQUIRE(tal.size() > 50);
  text.date = "1950..1960";
  text.max_plies = 80;
  const auto tal_late_short = found(*store, text);
  std::vector<std::uint32_t> expected_tal;
  for (std::uint32_t id : tal) {
    const Expected& g = games[id - 1];
    if (g.year >= 1950 && g.year <= 1960 && g.plies <= 80) expected_tal.push_back(id);
  }
  CHECK(!expected_tal.empty());
  CHECK(tal_late_short == expected_tal);
}

// Schemas 9 and 10 had no facts family, and kept results and plies in the metadata index;
// schemas 9 to 11 had no name index, no numbers for names and no counts of them; schemas 9 to 12
// kept a metadata key per game for its date and its ECO code instead of lists of games; schemas
// 9 to 13 kept no slices of the statistics (a tree filtered by dates read the games); schemas 13
// to 16 keyed the lists of the postings family without their epoch; schemas 9 to 17 kept no
// best-rated games of popular positions; schemas 9 to 18 kept no speed in the summaries and the
// facts; schemas 9 to 19 no ending; schemas 9 to 20 no opening; schemas 9 to 21 no material; 9 to
// 22 no pawns' squares; 9 to 23 no rooks' ranks. A reader refuses them, naming the command that
// upgrades; a writer upgrades them in place.
TEST_CASE("a database of schema 9 to 23 is upgraded in place by a writer, and verifies") {
  // Under the sanitizers three versions, not 15 (three minutes there for five): from 9 every
  // step runs, 20 starts the summaries' rewrite where it branches, and 23 rewrites the material
  // histories alone.
#ifdef PGNDB_SANITIZED
  const int old_version = GENERATE(9, 20, 23);
#else
  const int old_version = GENERATE(9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23);
#endif
  INFO("schema " << old_version);
  pgndb::test::TempDir dir;
  const fs::path db = dir / "old";
  fs::copy(copies_database(), db, fs::copy_options::recursive);
  std::uint32_t games = 0;
  std::vector<std::uint32_t> draws_before, named_before;
  std::vector<std::uint32_t> dated_before, eco_before;
  pgndb::query::FilterText draws, named, dated, eco, blitz, slow, mated, repeated, drawn_by_board;
  draws.result = "1/2-1/2";
  mated.ending = "checkmate";
  repeated.repetition = true;
  drawn_by_board.ending = "stalemate,insufficient-material,fivefold,seventy-five";
  std::vector<std::uint32_t> mated_before, repeated_before, drawn_by_board_before;
  pgndb::query::FilterText sicilian;
  sicilian.opening = "sicilian";
  std::vector<std::uint32_t> sicilian_before;
  blitz.speed = "blitz";
  slow.speed = "rapid,classical";
  std::vector<std::uint32_t> blitz_before, slow_before;
  named.player = "morph";
  dated.date = "1850..1900";
  eco.eco_tag = "B20-C50";
  std::uint64_t players = 0, duplicates = 0;
  {
    auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
    REQUIRE(store);
    games = store->game_count();
    draws_before = found(*store, draws);
    named_before = found(*store, named);
    dated_before = found(*store, dated);
    eco_before = found(*store, eco);
    blitz_before = found(*store, blitz);
    slow_before = found(*store, slow);
    mated_before = found(*store, mated);
    repeated_before = found(*store, repeated);
    drawn_by_board_before = found(*store, drawn_by_board);
    sicilian_before = found(*store, sicilian);
    players = store->stats()->players;
    duplicates = store->stats()->duplicates;
    REQUIRE(duplicates > 0);
  }
  REQUIRE(!named_before.empty());
  REQUIRE(!dated_before.empty());
  REQUIRE(!eco_before.empty());
  REQUIRE(!blitz_before.empty());  // samples/lichess-2013-100.pgn
  REQUIRE(!slow_before.empty());
  REQUIRE(mated_before.size() > 100);
  REQUIRE(repeated_before.size() > 100);
  REQUIRE(!drawn_by_board_before.empty());
  REQUIRE(sicilian_before.size() > 14 * 20);
  REQUIRE(games > 4096);
  std::size_t sliced = 0;  // positions whose statistics are sliced
  {
    // What schema 10 held: no facts; a result and a plies key for each game. What schema 11
    // held: no name index, names without numbers, no counts of names.
    RawDatabase opened(db);
    if (old_version < 22)
      remove_materials(opened);
    else
      remove_squares(opened, /*pawns=*/old_version == 22);
    const auto& names = opened.names;
    const auto& handles = opened.handles;
    rocksdb::DB* rdb = opened.db.get();
    // Schema 12's metadata keys of dates and ECO codes: each list's games, a key each.
    std::size_t metadata = names.size();
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == "metadata") metadata = i;
    REQUIRE(metadata < names.size());
    // Schema 13's statistics: each value without its cells; up to 17's, without best-rated
    // games.
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] != "positions" && names[i] != "positions_upper") continue;
      std::unique_ptr<rocksdb::Iterator> it(rdb->NewIterator(rocksdb::ReadOptions(), handles[i]));
      std::vector<std::pair<std::string, std::string>> rewritten;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const auto key = positions::parse_statistics_key(it->key().ToStringView());
        if (!key) continue;
        positions::Statistics statistics;
        REQUIRE(positions::decode_statistics(it->value().ToStringView(), key->key40, statistics));
        sliced += std::count_if(statistics.keys.begin(), statistics.keys.end(),
                                [](const positions::KeyStatistics& k) { return k.sliced; });
        for (auto& k : statistics.keys) {
          k.ranked = false;
          k.top.clear();
          if (old_version >= 14) continue;
          k.sliced = false;
          k.cells.clear();
        }
        std::string value;
        positions::encode_statistics(statistics, value, 0);
        // The counts of best-rated games, each 0, and before 14 the counts of cells, each 0.
        value.resize(value.size() - statistics.keys.size() * (old_version >= 14 ? 1 : 2));
        rewritten.emplace_back(it->key().ToString(), value);
      }
      REQUIRE(it->status().ok());
      for (const auto& [key, value] : rewritten)
        REQUIRE(rdb->Put(rocksdb::WriteOptions(), handles[i], key, value).ok());
    }
    REQUIRE(sliced > 0);
    // Up to schema 19 the summaries kept no ending (bit 7 of their first byte 0, no ending
    // byte after the plies) and the facts no ending column; up to 18 no speed either (bits 4-6
    // of the first byte 0, no speed column).
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (old_version >= 21) break;  // 21's summaries and facts are 22's
      if (names[i] != "summaries" && names[i] != "facts") continue;
      std::unique_ptr<rocksdb::Iterator> it(rdb->NewIterator(rocksdb::ReadOptions(), handles[i]));
      std::vector<std::pair<std::string, std::string>> rewritten;
      std::size_t with_speed = 0, with_ending = 0, with_opening = 0;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        std::string value;
        if (names[i] == "facts") {
          value = without_last_columns(it->value().ToStringView(), old_version < 19   ? 3
                                                                   : old_version < 20 ? 2
                                                                                      : 1);
        } else {
          pgndb::index::bytes::Reader in(it->value().ToStringView());
          for (std::string_view entry; !in.empty();) {
            REQUIRE(in.view(entry));
            std::string old(entry);
            REQUIRE(old.size() >= 14);
            REQUIRE((std::uint8_t(old[0]) & 0x80) != 0);
            REQUIRE((std::uint8_t(old[11]) & 0x80) != 0);
            with_speed += (std::uint8_t(old[0]) >> 4 & 7) != 0;
            with_ending += (old[11] & 0x7F) != 0;
            with_opening += old[12] != 0 || old[13] != 0;
            if (old_version == 20) {
              // The ending's byte without its bit 7, no opening after it.
              old[11] = char(std::uint8_t(old[11]) & 0x7F);
              old.erase(12, 2);
            } else {
              old[0] = char(std::uint8_t(old[0]) & (old_version < 19 ? 0x0F : 0x7F));
              old.erase(11, 3);
            }
            pgndb::index::bytes::put_string(value, old);
          }
        }
        rewritten.emplace_back(it->key().ToString(), value);
      }
      REQUIRE(it->status().ok());
      if (names[i] == "summaries") REQUIRE(with_speed >= 14 * 100);
      if (names[i] == "summaries") REQUIRE(with_ending >= 14 * 60);  // 60 checkmates a copy
      if (names[i] == "summaries") REQUIRE(with_opening >= 14 * 300);
      for (const auto& [key, value] : rewritten)
        REQUIRE(rdb->Put(rocksdb::WriteOptions(), handles[i], key, value).ok());
    }
    // Up to schema 16 the lists' keys had no epoch in front.
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (old_version >= 17 || names[i] != "postings") continue;
      std::unique_ptr<rocksdb::Iterator> it(rdb->NewIterator(rocksdb::ReadOptions(), handles[i]));
      std::vector<std::pair<std::string, std::string>> lists;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        REQUIRE(it->key().starts_with(std::string(2, '\0')));  // the corpus is one epoch
        lists.emplace_back(it->key().ToString(), it->value().ToString());
      }
      REQUIRE(it->status().ok());
      REQUIRE(!lists.empty());
      it.reset();
      for (const auto& [key, list] : lists) {
        REQUIRE(rdb->Delete(rocksdb::WriteOptions(), handles[i], key).ok());
        REQUIRE(rdb->Put(rocksdb::WriteOptions(), handles[i], key.substr(2), list).ok());
      }
    }
    // Up to schema 12 every list of the postings family was a metadata key per game; in 13 and
    // 14, those of players, events and sites.
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (old_version >= 15) continue;
      if (names[i] != "postings") continue;
      std::unique_ptr<rocksdb::Iterator> it(rdb->NewIterator(rocksdb::ReadOptions(), handles[i]));
      std::size_t keys = 0;
      std::vector<std::string> moved;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const std::string key = it->key().ToString();
        const bool of_name = key[0] == 'e' || key[0] == 'p' || key[0] == 's';
        if (old_version >= 13 && !of_name) continue;
        moved.push_back(key);
        pgndb::index::bytes::Reader list(it->value().ToStringView());
        std::uint32_t id = 0;
        for (std::uint64_t delta; list.varint(delta);) {
          id += std::uint32_t(delta);
          const std::string game = {char(id >> 24), char(id >> 16), char(id >> 8), char(id)};
          REQUIRE(rdb->Put(rocksdb::WriteOptions(), handles[metadata],
                           key.substr(0, key.size() - 2) + game, "")
                      .ok());
          ++keys;
        }
      }
      REQUIRE(it->status().ok());
      REQUIRE(keys >= games);
      it.reset();
      if (old_version < 13) {
        REQUIRE(rdb->DropColumnFamily(handles[i]).ok());
      } else {
        for (const auto& key : moved)
          REQUIRE(rdb->Delete(rocksdb::WriteOptions(), handles[i], key).ok());
      }
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (old_version >= 12) continue;
      if (names[i] == "name_index") REQUIRE(rdb->DropColumnFamily(handles[i]).ok());
      if (names[i] == "names") {
        std::unique_ptr<rocksdb::Iterator> it(rdb->NewIterator(rocksdb::ReadOptions(), handles[i]));
        std::vector<std::string> keys;
        for (it->SeekToFirst(); it->Valid(); it->Next()) keys.push_back(it->key().ToString());
        for (const auto& key : keys)
          REQUIRE(rdb->Put(rocksdb::WriteOptions(), handles[i], key, "").ok());
      }
      if (names[i] == "default")
        for (const char* counter : {"meta:player_count", "meta:name_count", "meta:duplicate_count"})
          REQUIRE(rdb->Delete(rocksdb::WriteOptions(), handles[i], counter).ok());
      if (old_version == 11) continue;
      if (names[i] == "facts") REQUIRE(rdb->DropColumnFamily(handles[i]).ok());
      if (names[i] == "metadata")
        for (std::uint32_t id = 1; id <= games; ++id) {
          const std::string game = {char(id >> 24), char(id >> 16), char(id >> 8), char(id)};
          REQUIRE(rdb->Put(rocksdb::WriteOptions(), handles[i], "r\x03" + game, "").ok());
          REQUIRE(
              rdb->Put(rocksdb::WriteOptions(), handles[i], std::string("n\0\x28", 3) + game, "")
                  .ok());
        }
    }
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == "default")
        REQUIRE(rdb->Put(rocksdb::WriteOptions(), handles[i], "meta:schema_version",
                         std::string("\0\0\0", 3) + char(old_version))
                    .ok());
  }
  auto reader = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
  REQUIRE_FALSE(reader);
  CHECK(reader.error().code() == pgndb::index::Status::Code::IncompatibleVersion);
  CHECK_THAT(
      reader.error().message(),
      Catch::Contains("holds schema version " + std::to_string(old_version) +
                      ", this pgndb reads version " + std::to_string(pgndb::index::schema_version) +
                      "; upgrade it in place: `pgndb upgrade --db " + db.string() + "`"));
  const auto upgrade =
      pgndb::test::run_command(std::string(PGNDB_BINARY) + " upgrade --db '" + db.string() + "'");
  CHECK(upgrade.exit_code == 0);
  CHECK_THAT(upgrade.out, Catch::Contains("from schema version " + std::to_string(old_version) +
                                          " to " + std::to_string(pgndb::index::schema_version)));
  const auto again =
      pgndb::test::run_command(std::string(PGNDB_BINARY) + " upgrade --db '" + db.string() + "'");
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("nothing to do"));
  auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  CHECK(found(*store, draws) == draws_before);
  CHECK(found(*store, named) == named_before);
  CHECK(found(*store, dated) == dated_before);
  CHECK(found(*store, eco) == eco_before);
  CHECK(found(*store, blitz) == blitz_before);
  CHECK(found(*store, slow) == slow_before);
  CHECK(found(*store, mated) == mated_before);
  CHECK(found(*store, repeated) == repeated_before);
  CHECK(found(*store, drawn_by_board) == drawn_by_board_before);
  CHECK(found(*store, sicilian) == sicilian_before);
  CHECK(store->stats()->players == players);
  CHECK(store->stats()->duplicates == duplicates);
  // The statistics sliced again: a tree filtered by years adds the slices of the start position,
  // and gives what reading the games gives.
  pgndb::query::Filters filters;
  filters.position = pgn::Position();
  filters.date = pgndb::query::NumberRange{1850u << 16, 1870u << 16 | 99 << 8 | 99};
  auto statistics = store->position_statistics(*filters.position, *filters.statistics_slice());
  REQUIRE(statistics);
  CHECK_FALSE(statistics->moves.empty());
  CHECK(statistics->other_games.size() < 100);
  pgndb::test::check_statistics_answer(*store, filters);
  // The facts equal the games, and the metadata holds no key of results or plies.
  auto report = pgndb::index::verify_store(*store);
  REQUIRE(report);
  INFO(pgndb::test::listing(*report));
  CHECK(report->consistent());
  CHECK(report->facts == games);
  CHECK(report->materials == games);
}

// The upgrades to 20 and 21 rewrite the summaries and facts in one atomic ingestion, with a key
// saying for which schema, then write the version: killed between the two, the database says
// the old version and holds the rewritten groups, which read as the old version's would be
// damaged. The next writer finishes the upgrade: killed in the upgrade to 21 (the database says
// 20, its groups have 11 columns), or in a pgndb of schema 20's upgrade from 19 (it says 19, its
// groups have 20's 10 columns, and the key is empty).
TEST_CASE("an upgrade killed after its rewrite is finished by the next writer") {
  const int killed_in = GENERATE(21, 20);
  INFO("killed in the upgrade to " << killed_in);
  pgndb::test::TempDir dir;
  const fs::path db = dir / "db";
  fs::copy(copies_database(), db, fs::copy_options::recursive);
  pgndb::query::FilterText mated, sicilian;
  mated.ending = "checkmate";
  sicilian.opening = "sicilian";
  std::vector<std::uint32_t> mated_before, sicilian_before;
  {
    auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
    REQUIRE(store);
    mated_before = found(*store, mated);
    sicilian_before = found(*store, sicilian);
  }
  REQUIRE(mated_before.size() > 100);
  REQUIRE(sicilian_before.size() > 100);
  {
    RawDatabase opened(db);
    remove_materials(opened);
    for (std::size_t i = 0; i < opened.names.size(); ++i) {
      rocksdb::DB* rdb = opened.db.get();
      if (opened.names[i] == "default") {
        const std::string written = killed_in == 21 ? std::string("\0\0\0\x15", 4) : std::string();
        REQUIRE(
            rdb->Put(rocksdb::WriteOptions(), opened.handles[i], "meta:endings_written", written)
                .ok());
        REQUIRE(rdb->Put(rocksdb::WriteOptions(), opened.handles[i], "meta:schema_version",
                         std::string("\0\0\0", 3) + char(killed_in - 1))
                    .ok());
      }
      // Schema 20's groups: summaries without the opening, facts without its column.
      if (killed_in == 21 || (opened.names[i] != "summaries" && opened.names[i] != "facts"))
        continue;
      std::unique_ptr<rocksdb::Iterator> it(
          rdb->NewIterator(rocksdb::ReadOptions(), opened.handles[i]));
      std::vector<std::pair<std::string, std::string>> rewritten;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        std::string value;
        if (opened.names[i] == "facts") {
          value = without_last_columns(it->value().ToStringView(), 1);
        } else {
          pgndb::index::bytes::Reader in(it->value().ToStringView());
          for (std::string_view entry; !in.empty();) {
            REQUIRE(in.view(entry));
            std::string old(entry);
            REQUIRE(old.size() >= 14);
            old[11] = char(std::uint8_t(old[11]) & 0x7F);
            old.erase(12, 2);
            pgndb::index::bytes::put_string(value, old);
          }
        }
        rewritten.emplace_back(it->key().ToString(), value);
      }
      REQUIRE(it->status().ok());
      for (const auto& [key, value] : rewritten)
        REQUIRE(rdb->Put(rocksdb::WriteOptions(), opened.handles[i], key, value).ok());
    }
  }
  const auto upgrade =
      pgndb::test::run_command(std::string(PGNDB_BINARY) + " upgrade --db '" + db.string() + "'");
  INFO(upgrade.out);
  CHECK(upgrade.exit_code == 0);
  CHECK_THAT(upgrade.out, Catch::Contains("from schema version " + std::to_string(killed_in - 1) +
                                          " to " + std::to_string(pgndb::index::schema_version)));
  auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  CHECK(found(*store, mated) == mated_before);
  CHECK(found(*store, sicilian) == sicilian_before);
  auto report = pgndb::index::verify_store(*store);
  REQUIRE(report);
  INFO(pgndb::test::listing(*report));
  CHECK(report->consistent());
}

TEST_CASE("verify compares each game's pawns' squares and rooks' ranks with its moves") {
  // One game's history altered (the first of its group holding a white rook), the rest kept:
  // a square its White pawns never stood on, or a rank its White rooks never stood on.
  const bool rooks = GENERATE(false, true);
  INFO((rooks ? "rooks' ranks" : "pawns' squares"));
  pgndb::test::TempDir dir;
  const fs::path db = dir / "db";
  fs::copy(copies_database(), db, fs::copy_options::recursive);
  {
    RawDatabase opened(db);
    bool altered = false;
    rewrite_histories(
        opened,
        [&](pgn::MaterialHistory& history) {
          auto& white_rooks = history.rook_squares[pgn::White];
          auto& white_pawns = history.pawn_squares[pgn::White];
          if (!altered && white_rooks != 0 && (white_rooks & pgn::rank_bb(5)) == 0 &&
              (white_pawns & pgn::square_bb(pgn::A6)) == 0) {
            (rooks ? white_rooks : white_pawns) |= pgn::square_bb(pgn::A6);
            altered = true;
          }
        },
        /*groups=*/1);
    REQUIRE(altered);
  }
  auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  auto report = pgndb::index::verify_store(*store);
  REQUIRE(report);
  const std::string listing = pgndb::test::listing(*report);
  INFO(listing);
  CHECK(report->inconsistencies == 1);
  CHECK(listing.find(rooks ? "the ranks of its rooks differ from the game's moves"
                           : "the squares of its pawns differ from the game's moves") !=
        std::string::npos);
}

TEST_CASE("verify recounts the slices of the statistics, and reports one moved to another year") {
  pgndb::test::TempDir dir;
  const fs::path db = dir / "db";
  fs::copy(copies_database(), db, fs::copy_options::recursive);
  const pgn::Key start = pgn::repetition_key(pgn::Position());
  const std::uint64_t key40 = positions::key40_of(start);
  {
    RawDatabase opened(db);
    const auto& names = opened.names;
    const auto& handles = opened.handles;
    rocksdb::DB* rdb = opened.db.get();
    bool moved = false;
    for (std::size_t i = 0; i < names.size() && !moved; ++i) {
      if (names[i] != "positions" && names[i] != "positions_upper") continue;
      std::unique_ptr<rocksdb::Iterator> it(rdb->NewIterator(rocksdb::ReadOptions(), handles[i]));
      for (it->SeekToFirst(); it->Valid() && !moved; it->Next()) {
        const auto key = positions::parse_statistics_key(it->key().ToStringView());
        if (!key || key->key40 != key40) continue;
        positions::Statistics statistics;
        REQUIRE(positions::decode_statistics(it->value().ToStringView(), key40, statistics));
        REQUIRE(statistics.keys.size() == 1);
        auto& k = statistics.keys[0];
        REQUIRE(k.sliced);  // 4,228 games, each in the start position
        // Two cells of one move and band, of different years and counts: their years swapped,
        // the move's cells still add up to its tally, but not to the games' years.
        for (std::size_t a = 0; a + 1 < k.cells.size() && !moved; ++a) {
          auto& x = k.cells[a];
          auto& y = k.cells[a + 1];
          if (x.tally.move != y.tally.move || x.band != y.band || x.tally == y.tally || x.year == 0)
            continue;
          std::swap(x.year, y.year);
          std::swap(x.tally.last_year, y.tally.last_year);
          k.normalize();
          moved = true;
        }
        REQUIRE(moved);
        std::string value;
        positions::encode_statistics(statistics, value);
        positions::Statistics check;
        REQUIRE(positions::decode_statistics(value, key40, check));
        REQUIRE(check.keys[0].sliced);  // written as altered, not dropped
        REQUIRE(rdb->Put(rocksdb::WriteOptions(), handles[i], it->key(), value).ok());
      }
      REQUIRE(it->status().ok());
    }
    REQUIRE(moved);
  }
  auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
  REQUIRE(store);
  auto report = pgndb::index::verify_store(*store);
  REQUIRE(report);
  INFO(pgndb::test::listing(*report));
  CHECK_FALSE(report->consistent());
  CHECK(report->inconsistencies == 1);
  const std::string listing = pgndb::test::listing(*report);
  CHECK(listing.find("statistics of") != std::string::npos);
}

TEST_CASE("the lists of a range of dates or ECO codes come out sorted, each game once") {
  namespace postings = pgndb::index::postings;
  std::mt19937 random(13);
  for (const std::size_t lists : {1, 2, 40, 300}) {
    // Ascending lists of ids, as a scan of several values' lists in key order gives them.
    std::vector<std::uint32_t> gathered, expected;
    for (std::size_t l = 0; l < lists; ++l) {
      std::set<std::uint32_t> list;
      const std::size_t size = 1 + random() % 200;
      while (list.size() < size) list.insert(std::uint32_t(random()) | 1u);
      gathered.insert(gathered.end(), list.begin(), list.end());
    }
    expected = gathered;
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
    postings::sort_ids(gathered);
    CHECK(gathered == expected);
  }
  // Lists dense in their range (a broad material search's, an epoch's games named again and
  // again) go through a bitmap: the same order, each game once, the range's ends included, also
  // at the top of the id space.
  for (const std::uint32_t base : {1u, 5u << 20, 0xFFFFFFFFu - 100'000}) {
    INFO("ids from " << base);
    std::vector<std::uint32_t> gathered, expected;
    for (std::size_t l = 0; l < 200; ++l) {
      std::set<std::uint32_t> list;
      const std::size_t size = 1 + random() % 500;
      while (list.size() < size) list.insert(base + std::uint32_t(random() % 100'000));
      if (l == 7) list.insert({base, base + 100'000});
      gathered.insert(gathered.end(), list.begin(), list.end());
    }
    REQUIRE(gathered.size() >= 4096);
    expected = gathered;
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
    postings::sort_ids(gathered);
    CHECK(gathered == expected);
  }
  {
    postings::DenseIds dense(1u << 20, (2u << 20) - 1);
    const std::vector<std::uint32_t> inside = {1u << 20, 1'500'000, (2u << 20) - 1};
    CHECK(dense.add(inside));
    CHECK_FALSE(dense.add(std::vector<std::uint32_t>{(1u << 20) - 1}));
    CHECK_FALSE(dense.add(std::vector<std::uint32_t>{2u << 20}));
    // The range need not end on a word's bits: the id past its last is refused all the same.
    postings::DenseIds first_epoch(1, (1u << 20) - 1);
    CHECK(first_epoch.add(std::vector<std::uint32_t>{1, (1u << 20) - 1}));
    CHECK_FALSE(first_epoch.add(std::vector<std::uint32_t>{1u << 20}));
    std::vector<std::uint32_t> out = {7};
    dense.append_to(out);
    CHECK(out == std::vector<std::uint32_t>{7, 1u << 20, 1'500'000, (2u << 20) - 1});
  }
  // A key holds its value and block, after the block's epoch; other bytes are no key.
  const std::string key = postings::key("oB90", 3);
  const auto parsed = postings::parse_key(key);
  REQUIRE(parsed);
  CHECK(parsed->value_key == "oB90");
  CHECK(parsed->block == 3);
  CHECK(key == std::string("\0\0oB90\0\x03", 8));
  CHECK_FALSE(postings::parse_key("oB9"));
  CHECK_FALSE(postings::parse_key(key + "x"));
  CHECK_FALSE(postings::parse_key(std::string("\0\0pB90\0\x03", 8)));
  // The layout of schema 16 and before, without the epoch, is no key.
  CHECK_FALSE(postings::parse_key(key.substr(postings::epoch_key_size)));
  // An epoch that is not its block's.
  CHECK_FALSE(postings::parse_key(std::string("\0\x01oB90\0\x03", 8)));
}

// A batch whose games cross into the next epoch: its lists come in key order (a table file takes
// no other), each game once, in the list of its value and block.
TEST_CASE("a batch's lists come in key order, across an epoch's end") {
  namespace postings = pgndb::index::postings;
  std::mt19937 random(17);
  for (const std::uint32_t first : {1u, (1u << 20) - 70'000, (1u << 20) - 3, 5u << 20}) {
    INFO("first id " << first);
    std::map<std::string, std::vector<std::uint32_t>> by_value;
    const std::vector<std::string> names = {"d\x07\xd0\x01\x01", "oB90", std::string("pa\0\0", 4),
                                            std::string("pb\0\x01", 4), std::string("sz\0", 3)};
    for (std::uint32_t id = first; id < first + 100'000; ++id)
      by_value[names[random() % names.size()]].push_back(id);
    std::vector<postings::ValueList> values;
    for (const auto& [value, ids] : by_value) values.push_back({value, ids});
    std::vector<std::string> keys;
    std::map<std::string, std::vector<std::uint32_t>> listed;
    postings::for_each_list(values,
                            [&](const std::string& key, std::span<const std::uint32_t> ids) {
                              keys.push_back(key);
                              const auto parsed = postings::parse_key(key);
                              REQUIRE(parsed);
                              for (const std::uint32_t id : ids)
                                CHECK(postings::block_of(id) == parsed->block);
                              auto& all = listed[std::string(parsed->value_key)];
                              all.insert(all.end(), ids.begin(), ids.end());
                            });
    CHECK(std::adjacent_find(keys.begin(), keys.end(), std::greater_equal<>()) == keys.end());
    CHECK(listed == by_value);
  }
}

// An epoch is 2^20 games (16 blocks): every key of an epoch sorts before every key of the next,
// whatever the values, so that an import's lists make a key range of their own, after the older
// epochs' (value_postings.h).
TEST_CASE("the postings' keys are ordered by epoch first, then value, then block") {
  namespace postings = pgndb::index::postings;
  CHECK(postings::epochs_of(1) == 1);
  CHECK(postings::epochs_of((1u << 20) - 1) == 1);
  CHECK(postings::epochs_of(1u << 20) == 2);
  CHECK(postings::epochs_of(100'000'000) == 96);
  CHECK(postings::epochs_of(0xFFFFFFFFu) == 4096);
  const std::vector<std::string> values = {"d\x07\xd0\x01\x01", "oA00", "oE99",
                                           std::string("pzzz\0\x01", 6), std::string("sA\0", 3)};
  std::vector<std::string> keys;
  for (const std::uint32_t id : {1u, 70'000u, (1u << 20) - 1, 1u << 20, 5'000'000u, 0xFFFFFFFFu})
    for (const auto& value : values) {
      const std::uint32_t block = postings::block_of(id);
      keys.push_back(postings::key(value, block));
      const auto parsed = postings::parse_key(keys.back());
      REQUIRE(parsed);
      CHECK(parsed->value_key == value);
      CHECK(parsed->block == block);
      const std::uint32_t epoch = id >> 20;
      CHECK(keys.back().starts_with(postings::epoch_prefix(epoch)));
      // Below every epoch's prefix after it, above every value's bound before it.
      if (epoch + 1 < 4096) CHECK(keys.back() < postings::epoch_prefix(epoch + 1));
      CHECK(keys.back() < postings::epoch_prefix(epoch) + postings::past_lists_of(value));
      CHECK(keys.back() >= postings::epoch_prefix(epoch) + value);
    }
  // Generated in the order (id, value): sorted, they keep that order where epochs differ.
  for (std::size_t i = 0; i + values.size() < keys.size(); ++i) {
    const auto a = postings::parse_key(keys[i]), b = postings::parse_key(keys[i + values.size()]);
    if (postings::epoch_of_block(a->block) < postings::epoch_of_block(b->block))
      CHECK(keys[i] < keys[i + values.size()]);
  }
}

// A search reads the postings an epoch at a time (Search::read_epoch), restricting the other
// indexes' games to Store::ids_of_epoch: each epoch's ids are those its keys hold, from the
// first to the last, with no id between two epochs.
TEST_CASE("an epoch's ids are those whose lists its keys hold, and the epochs tile the ids") {
  namespace postings = pgndb::index::postings;
  using pgndb::index::Store;
  const auto epoch_of = [&](std::uint32_t id) {
    return postings::epoch_of_block(postings::block_of(id));
  };
  CHECK(Store::ids_of_epoch(0).first == 1);  // ids start at 1
  for (const std::uint32_t epoch : {0u, 1u, 2u, 95u, 4094u, 4095u}) {
    INFO("epoch " << epoch);
    const auto [first, last] = Store::ids_of_epoch(epoch);
    CHECK(first <= last);
    CHECK(epoch_of(first) == epoch);
    CHECK(epoch_of(last) == epoch);
    CHECK(postings::epochs_of(last) == epoch + 1);
    if (epoch > 0) {
      CHECK(epoch_of(first - 1) == epoch - 1);
      CHECK(Store::ids_of_epoch(epoch - 1).last + 1 == first);
    }
    if (epoch < 4095) {
      CHECK(epoch_of(last + 1) == epoch + 1);
    } else {
      CHECK(last == 0xFFFFFFFFu);
    }
  }
}
