// The statistics the position index keeps for popular positions (index/src/position_stats.h):
// their stored form, and trees built from them against trees built by reading every game at the
// position, on real games imported in several imports of several batches (so that statistics
// are written by batches, summed by merges, counted again from games by merges whose inputs
// kept none, and rebuilt by `pgndb compact`).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <tuple>

#include "pgn/fen.h"
#include "pgn/game.h"
#include "pgndb/index/importer.h"
#include "pgndb/index/store.h"
#include "pgndb/index/verify.h"
#include "pgndb/query/filters.h"
#include "pgndb/query/search.h"
#include "pgndb/query/tree.h"
#include "position_generations.h"
#include "position_runs.h"
#include "position_stats.h"
#include "statistics_check.h"
#include "support.h"

namespace fs = std::filesystem;
using pgndb::index::MoveTally;
using pgndb::index::Store;
namespace positions = pgndb::index::positions;

namespace {

MoveTally tally(std::uint16_t raw, std::uint64_t games, std::int64_t wins_minus_losses) {
  MoveTally t;
  t.move = pgn::Move::from_raw(raw);
  t.games = games;
  t.white_wins = games / 2;
  t.draws = games - games / 2;
  t.rated = games;
  t.elo_sum = games * 2400;
  t.both_rated = games;
  t.opponent_sum = games * 2500;
  t.wins_minus_losses = wins_minus_losses;
  t.last_year = 1999;
  return t;
}

// The positions of the first `plies` plies of every `every`th game.
std::map<pgn::Key, pgn::Position> early_positions(const Store& store, std::uint32_t every,
                                                  std::size_t plies) {
  std::map<pgn::Key, pgn::Position> roots;
  for (std::uint32_t id = 1; id <= store.game_count(); id += every) {
    auto game = store.game(id);
    REQUIRE(game);
    pgn::Position pos = game->start;
    for (std::size_t ply = 0; ply <= plies && ply <= game->moves.size(); ++ply) {
      roots.emplace(pgn::repetition_key(pos), pos);
      if (ply < game->moves.size()) pos.play_or_pass(game->moves[ply].move);
    }
  }
  return roots;
}

// Imports each list of corpus files into `db`, one import per list, in batches of `batch`.
void import_each(const fs::path& db, const std::vector<std::vector<std::string>>& imports,
                 int batch) {
  const fs::path corpus = fs::path(PGNDB_SHARED_DATA) / "corpus";
  for (const auto& files : imports) {
    std::string command = std::string(PGNDB_BINARY) + " import --batch " + std::to_string(batch) +
                          " --db '" + db.string() + "'";
    for (const auto& f : files) command += " '" + (corpus / f).string() + "'";
    const auto r = pgndb::test::run_command(command);
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
  }
}

// `pgndb verify` finds `db` consistent, having recounted statistics.
void verify_consistent(const fs::path& db) {
  const auto r =
      pgndb::test::run_command(std::string(PGNDB_BINARY) + " verify --db '" + db.string() + "'");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("consistent") != std::string::npos);
  CHECK(r.out.find(" 0 position statistics") == std::string::npos);
}

}  // namespace

TEST_CASE("statistics values read back as written, and damaged ones are refused") {
  const std::uint64_t key40 = 0x12345ABCDEULL;
  const pgn::Key base = pgn::Key(key40) << 24;
  // Fewer games than cells_threshold: not sliced. The first position ranked with one
  // best-rated game, the second not ranked.
  positions::Statistics written = {
      {{base | 0x000001,
        true,
        {tally(0, 3, -1), tally(0x0C1C, 120, 7)},
        false,
        {},
        true,
        {{7, 2500, pgn::Move::from_raw(0x0C1C)}}},
       {base | 0xFFFFFF, false, {tally(0x0B14, 1, -1)}, false, {}, false, {}}},
      {5, 17, 4000000000u}};
  std::string bytes;
  positions::encode_statistics(written, bytes);
  positions::Statistics read;
  REQUIRE(positions::decode_statistics(bytes, key40, read));
  CHECK(read == written);
  // Another key's 40 bits give other full keys: the value is only read under its own key.
  REQUIRE(positions::decode_statistics(bytes, key40 + 1, read));
  CHECK(read != written);
  // The best-rated game's id, rating and move, and a count per position.
  const std::size_t tops = 1 + 2 + 1 + 2;
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    // Cut before the counts of best-rated games: schemas 14 to 17's form, nothing ranked; before
    // the count of cells of each position: schema 13's form, nothing sliced either.
    if (cut == bytes.size() - tops || cut == bytes.size() - tops - written.keys.size()) continue;
    INFO(cut);
    CHECK_FALSE(positions::decode_statistics(bytes.substr(0, cut), key40, read));
  }
  CHECK_FALSE(positions::decode_statistics(bytes + '\0', key40, read));
  // Moves out of order are damage.
  positions::Statistics unordered = {
      {{base, true, {tally(9, 1, 0), tally(8, 1, 0)}, false, {}, false, {}}}, {}};
  bytes.clear();
  positions::encode_statistics(unordered, bytes);
  CHECK_FALSE(positions::decode_statistics(bytes, key40, read));
  // So is an unread game listed twice.
  positions::Statistics twice = {{}, {5, 5}};
  bytes.clear();
  positions::encode_statistics(twice, bytes);
  CHECK_FALSE(positions::decode_statistics(bytes, key40, read));

  // Sums are per position and move.
  positions::Statistics sum = written;
  positions::add_statistics(sum, written);
  REQUIRE(sum.keys.size() == 2);
  CHECK(sum.keys[0].moves[1].games == 240);
  CHECK(sum.keys[0].moves[1].wins_minus_losses == 14);
  CHECK(sum.keys[1].moves[0].games == 2);
  CHECK(sum.games() == 2 * written.games());
  CHECK(sum.unread == std::vector<std::uint32_t>{5, 5, 17, 17, 4000000000u, 4000000000u});

  const std::string key = positions::statistics_key(7, key40);
  CHECK(positions::is_statistics_key(key));
  auto parsed = positions::parse_statistics_key(key);
  REQUIRE(parsed);
  CHECK(parsed->generation == 7);
  CHECK(parsed->key40 == key40);
  // Runs of the same generation sort first: merges and deletions take both along.
  CHECK(positions::generation_key(7, positions::bucket_count - 1) < key);
  CHECK(key < positions::generation_key(8, 0));
  CHECK_FALSE(positions::is_statistics_key(positions::generation_key(7, 5)));
}

TEST_CASE("statistics sliced by rating band and year add up to what the games give") {
  using pgndb::index::GameSummary;
  using pgndb::index::StatisticsSlice;
  const std::uint64_t key40 = 0x0ABCDE1234ULL;
  const pgn::Key key = pgn::Key(key40) << 24 | 0x42;
  std::vector<std::pair<pgn::Move, GameSummary>> games;
  std::uint64_t seed = 7;
  auto next = [&](std::uint64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % n;
  };
  for (int i = 0; i < 3000; ++i) {
    GameSummary g;
    g.result = std::uint8_t(next(4));
    g.year = std::uint16_t(next(10) == 0 ? 0 : 1950 + next(70));
    // Unrated, one side unrated, low, ordinary and above 3000.
    auto elo = [&] {
      const auto kind = next(10);
      return std::uint16_t(kind == 0   ? 0
                           : kind == 1 ? 1 + next(150)
                           : kind == 2 ? 3000 + next(200)
                                       : 1800 + next(900));
    };
    g.white_elo = elo();
    g.black_elo = elo();
    games.emplace_back(pgn::Move::from_raw(std::uint16_t(next(5) * 100 + 1)), g);
  }
  positions::Statistics counted;
  for (std::size_t i = 0; i < games.size(); ++i)
    positions::add_game(counted, key, false, games[i].first, std::uint32_t(i + 1), games[i].second);
  REQUIRE(counted.keys.size() == 1);
  REQUIRE(counted.keys[0].sliced);
  // The best-rated games: by the average of the known ratings, then by id, from the games.
  std::vector<pgndb::index::TopGame> best;
  for (std::size_t i = 0; i < games.size(); ++i) {
    const auto& g = games[i].second;
    const unsigned known = (g.white_elo != 0) + (g.black_elo != 0);
    best.push_back({std::uint32_t(i + 1),
                    std::uint16_t(known ? (g.white_elo + g.black_elo) / known : 0),
                    games[i].first});
  }
  std::sort(best.begin(), best.end(), [](const auto& a, const auto& b) {
    return a.rating != b.rating ? a.rating > b.rating : a.game < b.game;
  });
  best.resize(pgndb::index::top_games_kept);
  REQUIRE(counted.keys[0].ranked);
  CHECK(counted.keys[0].top == best);

  std::string bytes;
  positions::encode_statistics(counted, bytes);
  positions::Statistics read;
  REQUIRE(positions::decode_statistics(bytes, key40, read));
  positions::Statistics expected = counted;
  positions::as_written(expected);
  CHECK(expected.keys[0].sliced);
  CHECK(read == expected);
  // Schemas 14 to 17's form ends before the best-rated games; 13's before the count of cells.
  positions::Statistics unranked = expected;
  unranked.keys[0].ranked = false;
  unranked.keys[0].top.clear();
  std::string form17;
  positions::encode_statistics(unranked, form17);
  form17.pop_back();  // the count of best-rated games, 0
  positions::Statistics unsliced = unranked;
  unsliced.keys[0].sliced = false;
  unsliced.keys[0].cells.clear();
  std::string form13;
  positions::encode_statistics(unsliced, form13);
  form13.resize(form13.size() - 2);  // the counts of cells and of best-rated games, both 0
  positions::Statistics cut_read;
  REQUIRE(positions::decode_statistics(form17, key40, cut_read));
  CHECK(cut_read == unranked);
  REQUIRE(positions::decode_statistics(form13, key40, cut_read));
  CHECK(cut_read == unsliced);
  for (std::size_t cut = 0; cut < bytes.size(); cut += 7) {
    if (cut == form17.size() || cut == form13.size()) continue;
    INFO(cut);
    CHECK_FALSE(positions::decode_statistics(bytes.substr(0, cut), key40, cut_read));
  }
  // Read without its cells (a count, a tree without a slice): the moves and unread games whole,
  // nothing sliced or ranked; a value cut inside its cells still reads so, one cut before them
  // does not.
  positions::Statistics moves_only;
  REQUIRE(positions::decode_statistics(bytes, key40, moves_only, positions::Cells::Skip));
  CHECK(moves_only == unsliced);
  REQUIRE(positions::decode_statistics(form17.substr(0, form17.size() - 1), key40, moves_only,
                                       positions::Cells::Skip));
  CHECK(moves_only == unsliced);
  CHECK_FALSE(positions::decode_statistics(form13.substr(0, form13.size() - 1), key40, moves_only,
                                           positions::Cells::Skip));
  // Stepping over the cells to the best-rated games (the explorer's top games): the same games,
  // and a value cut anywhere past the unread games refused.
  positions::Statistics ranked_only;
  REQUIRE(positions::decode_statistics(bytes, key40, ranked_only, positions::Cells::Skip,
                                       positions::Tops::Read));
  positions::Statistics expected_ranked = unsliced;
  expected_ranked.keys[0].ranked = true;
  expected_ranked.keys[0].top = best;
  CHECK(ranked_only == expected_ranked);
  REQUIRE(positions::decode_statistics(form17, key40, ranked_only, positions::Cells::Skip,
                                       positions::Tops::Read));
  CHECK(ranked_only == unsliced);
  for (std::size_t cut = form13.size() + 1; cut < bytes.size(); cut += 5) {
    if (cut == form17.size()) continue;
    INFO(cut);
    CHECK_FALSE(positions::decode_statistics(bytes.substr(0, cut), key40, ranked_only,
                                             positions::Cells::Skip, positions::Tops::Read));
  }

  // Every slice the filters can name: the cells passing it are the games passing its filter.
  for (unsigned min_elo : {0u, 100u, 2000u, 2500u, 3000u})
    for (std::optional<std::pair<unsigned, unsigned>> years :
         {std::optional<std::pair<unsigned, unsigned>>(), std::optional(std::pair(1960u, 1990u)),
          std::optional(std::pair(0u, 1950u))}) {
      const StatisticsSlice slice{min_elo, years};
      std::map<std::uint16_t, MoveTally> direct, sliced;
      for (const auto& [move, g] : games)
        if (slice.filter().passes(g.facts())) {
          direct[move.raw()].move = move;
          direct[move.raw()].add(g, false);
        }
      const unsigned min_band = min_elo ? 1 + min_elo / 100 : 0;
      for (const positions::Cell& c : read.keys[0].cells)
        if (c.band >= min_band &&
            (!years || (c.year && c.year >= years->first && c.year <= years->second))) {
          sliced[c.tally.move.raw()].move = c.tally.move;
          sliced[c.tally.move.raw()].add(c.tally);
        }
      INFO(min_elo << " " << (years ? years->first : 0));
      CHECK(sliced == direct);
    }

  // A changed count no longer adds up to its move's: damage.
  positions::Statistics damaged = expected;
  damaged.keys[0].cells[3].tally.games += 1;
  damaged.keys[0].cells[3].tally.draws += 1;
  bytes.clear();
  positions::encode_statistics(damaged, bytes);  // written without the cells that do not add up
  REQUIRE(positions::decode_statistics(bytes, key40, read));
  CHECK_FALSE(read.keys[0].sliced);

  // Sums: sliced where both parts are.
  positions::Statistics sum = expected;
  positions::add_statistics(sum, expected);
  CHECK(sum.keys[0].sliced);
  // Added up when written (or past cells_kept_unsorted), not at each sum.
  sum.keys[0].normalize();
  CHECK(sum.keys[0].cells.size() == expected.keys[0].cells.size());
  CHECK(sum.keys[0].cells[0].tally.games == 2 * expected.keys[0].cells[0].tally.games);
  positions::add_statistics(sum, unsliced);
  CHECK_FALSE(sum.keys[0].sliced);
  CHECK(sum.keys[0].cells.empty());
  CHECK(sum.games() == 3 * expected.games());

  // The threshold of a generation: 3,000 games up to 25 M entries (the corpus, 18.6 M, is one
  // generation), falling to 1,000 at 75 M entries and beyond.
  CHECK(positions::cells_threshold(0) == 3000);
  CHECK(positions::cells_threshold(18'600'000) == 3000);
  CHECK(positions::cells_threshold(50'000'000) == 1500);
  CHECK(positions::cells_threshold(80'600'000) == 1000);
  CHECK(positions::cells_threshold(4'000'000'000) == 1000);

  // The filters a slice holds, and those it does not.
  pgndb::index::FactsFilter f;
  f.min_elo = 2500;
  f.date = pgndb::index::FactsFilter::Range{1990u << 16, 2000u << 16 | 99 << 8 | 99};
  auto slice = StatisticsSlice::of(f);
  REQUIRE(slice);
  CHECK(slice->min_elo == 2500);
  CHECK(slice->years == std::pair(1990u, 2000u));
  f.min_elo = 2450;  // not a band's floor
  CHECK_FALSE(StatisticsSlice::of(f));
  f.min_elo = 2500;
  f.date->low = 1990u << 16 | 6 << 8;  // from June
  CHECK_FALSE(StatisticsSlice::of(f));
  f.date.reset();
  f.max_elo = 2700;
  CHECK_FALSE(StatisticsSlice::of(f));
}

TEST_CASE("trees and counts from the kept statistics are those read game by game, through merges",
          "[heavy]") {
  pgndb::test::TempDir dir;
  const fs::path db = dir.path() / "db";
  // Three imports of small batches: each import's batches are merged at its end, and the
  // generations of the imports stay apart until `pgndb compact`.
  const std::vector<std::vector<std::string>> imports = {
      {"Lasker.pgn", "Reti.pgn", "Mecking.pgn"},
      {"PolgarZ.pgn", "Schlechter.pgn"},
      {"Oll.pgn", "Blackburne.pgn", "Lilienthal.pgn"}};
  import_each(db, imports, 300);

  auto compare = [&](std::size_t least_generations) {
    auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
    REQUIRE(store);
    REQUIRE(store->position_generations() >= least_generations);
    const auto roots = early_positions(*store, 10, 12);
    REQUIRE(roots.size() > 1000);
    std::size_t kept = 0, compared = 0;
    for (const auto& [key, root] : roots) {
      pgndb::query::Filters filters;
      filters.position = root;
      // A count from the statistics is the search's count of the games at the position.
      INFO(pgn::to_fen(root));
      pgndb::test::check_statistics_answer(*store, filters);
      auto statistics = store->position_statistics(root);
      REQUIRE(statistics);
      if (!statistics->moves.empty()) ++kept;
      ++compared;
    }
    INFO(compared << " trees compared, " << kept << " with statistics");
    // The statistics really answered: the early positions of 6,600 games pass the threshold.
    CHECK(kept >= 30);
  };
  // Each import ended with its own generations merged into one.
  compare(3);
  auto verify = [&] { verify_consistent(db); };
  verify();
  const auto r =
      pgndb::test::run_command(std::string(PGNDB_BINARY) + " compact --db '" + db.string() + "'");
  REQUIRE(r.exit_code == 0);
  compare(1);
  verify();
}

TEST_CASE("trees and counts filtered by rating and years from the slices are those a search gives",
          "[heavy]") {
  pgndb::test::TempDir dir;
  const fs::path db = dir.path() / "db";
  // 29,000 games in three imports of batches of 500: the batches slice their positions of 10
  // games or more, the tier merges and each import's last merge add those slices and count the
  // rest of their popular positions' games, and `pgndb compact` adds the imports'.
  const std::vector<std::vector<std::string>> imports = {{"Shirov.pgn", "Andreikin.pgn"},
                                                         {"Mamedyarov.pgn", "Bacrot.pgn"},
                                                         {"Jobava.pgn", "Svidler.pgn"}};
  import_each(db, imports, 500);
  struct Narrowing {
    unsigned min_elo, max_elo;
    std::optional<pgndb::query::NumberRange> date;
    bool sliced;  // the statistics' slices answer it
  };
  auto years = [](unsigned first, unsigned last) {
    return pgndb::query::NumberRange{first << 16, last << 16 | 99 << 8 | 99};
  };
  const std::vector<Narrowing> narrowings = {
      {2500, 0, {}, true},
      {2600, 0, years(2005, 2015), true},
      {0, 0, years(2010, 2012), true},
      {2000, 0, years(0, 1999), true},
      {3000, 0, {}, true},
      {2550, 0, {}, false},     // not a band's floor
      {2500, 2700, {}, false},  // a ceiling
      {0, 0, pgndb::query::NumberRange{2010u << 16 | 6 << 8, 2012u << 16 | 99 << 8 | 99}, false}};

  auto compare = [&] {
    auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
    REQUIRE(store);
    // Under the sanitizers every 600th game's first positions, not every 150th's: the checks are
    // the same for each, and there they took three minutes.
#ifdef PGNDB_SANITIZED
    const auto roots = early_positions(*store, 600, 4);
#else
    const auto roots = early_positions(*store, 150, 4);
#endif
    std::size_t answered_by_slices = 0;
    for (const auto& [key, root] : roots) {
      for (const Narrowing& n : narrowings) {
        pgndb::query::Filters filters;
        filters.position = root;
        filters.min_elo = n.min_elo;
        filters.max_elo = n.max_elo;
        filters.date = n.date;
        REQUIRE(filters.statistics_slice().has_value() == n.sliced);
        INFO(pgn::to_fen(root) << " min " << n.min_elo << " max " << n.max_elo << " dates "
                               << (n.date ? n.date->low >> 16 : 0));
        pgndb::test::check_statistics_answer(*store, filters);
        if (!n.sliced) continue;
        auto statistics = store->position_statistics(root, *filters.statistics_slice());
        REQUIRE(statistics);
        if (!statistics->moves.empty()) ++answered_by_slices;
      }
    }
    // The slices really answered: the start position and the first moves most played, under
    // each slice.
    CHECK(answered_by_slices >= 10);
    // A popular position: the slices' games are counted, and few are read.
    pgndb::query::Filters start;
    start.position = pgn::Position();
    start.min_elo = 2500;
    auto statistics = store->position_statistics(*start.position, *start.statistics_slice());
    REQUIRE(statistics);
    std::uint64_t kept = 0;
    for (const MoveTally& t : statistics->moves) kept += t.games;
    CHECK(kept > 1000);
    CHECK(statistics->other_games.size() < kept);
  };
  compare();
  auto verify = [&] { verify_consistent(db); };
  verify();
  const auto r =
      pgndb::test::run_command(std::string(PGNDB_BINARY) + " compact --db '" + db.string() + "'");
  REQUIRE(r.exit_code == 0);
  // Compacted, the statistics are one generation's, read as other tests read theirs: under the
  // sanitizers (where this test took 160 s, the longest of the run) the comparison is made on
  // the imports' generations alone, and the compacted database is verified.
#ifndef PGNDB_SANITIZED
  compare();
#endif
  verify();
}

TEST_CASE(
    "an import's batches keep statistics from fewer games until its end merges them, but not a "
    "file's only batch") {
  pgndb::test::TempDir dir;
  const fs::path db = dir.path() / "db";
  const fs::path lasker = fs::path(PGNDB_SHARED_DATA) / "corpus" / "Lasker.pgn";
  auto import = [&](std::size_t batch) {
    auto store = Store::open(db.string());
    REQUIRE(store);
    pgndb::index::ImportOptions options;
    options.threads = 1;
    options.batch_games = batch;
    auto imported = pgndb::index::import_file(*store, lasker.string(), options);
    REQUIRE(imported);
    REQUIRE(imported->games == 900);
    return std::move(*store);
  };
  // A position is answered from the statistics when no generation lists its games instead.
  auto from_statistics = [](const Store& store, const pgn::Position& root) {
    auto statistics = store.position_statistics(root);
    REQUIRE(statistics);
    return !statistics->moves.empty() && statistics->other_games.empty();
  };
  // The games at the position, as a search counts them.
  auto games_at = [](const Store& store, const pgn::Position& root) {
    pgndb::query::Filters filters;
    filters.position = root;
    auto search = pgndb::query::Search::start(store, filters);
    REQUIRE(search);
    auto games = search->count();
    REQUIRE(games);
    return *games;
  };
  auto check_all = [&](const Store& store, const std::map<pgn::Key, pgn::Position>& roots) {
    for (const auto& [key, root] : roots) {
      pgndb::query::Filters filters;
      filters.position = root;
      INFO(pgn::to_fen(root));
      pgndb::test::check_statistics_answer(store, filters);
    }
    // The verifier recounts every kept statistic by replaying the games' opening codes: the
    // batches counted theirs from the openings the import recorded.
    auto report = pgndb::index::verify_store(store);
    REQUIRE(report);
    for (const auto& i : report->listed) INFO(i.family << ": " << i.text);
    CHECK(report->consistent());
    CHECK(report->position_statistics > 0);
  };

  // Three batches of 300, not settled yet: positions of 10 to 49 games in a batch keep
  // statistics (sliced), which the end of the import adds up instead of counting again.
  {
    Store store = import(300);
    REQUIRE(store.position_generations() == 3);
    const auto roots = early_positions(store, 3, 10);
    check_all(store, roots);
    std::vector<pgn::Position> rare;  // fewer than statistics_threshold games, from statistics
    for (const auto& [key, root] : roots)
      if (games_at(store, root) < positions::statistics_threshold && from_statistics(store, root))
        rare.push_back(root);
    REQUIRE(rare.size() >= 5);
    REQUIRE(store.settle().is_ok());
    REQUIRE(store.position_generations() == 1);
    check_all(store, roots);
    // Merged, the generation keeps a merged generation's statistics: those positions are read
    // game by game.
    for (const pgn::Position& root : rare) CHECK_FALSE(from_statistics(store, root));
  }
  fs::remove_all(db);
  // The file in one batch: its generation stays as written, with a merged one's thresholds.
  Store store = import(1000);
  REQUIRE(store.position_generations() == 1);
  const auto roots = early_positions(store, 3, 10);
  check_all(store, roots);
  std::size_t answered = 0;
  for (const auto& [key, root] : roots) {
    if (from_statistics(store, root)) {
      ++answered;
      CHECK(games_at(store, root) >= positions::statistics_threshold);
    }
  }
  CHECK(answered > 0);
}
