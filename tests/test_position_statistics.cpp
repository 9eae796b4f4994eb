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
#include "pgndb/index/store.h"
#include "pgndb/query/filters.h"
#include "pgndb/query/search.h"
#include "pgndb/query/tree.h"
#include "position_generations.h"
#include "position_runs.h"
#include "position_stats.h"
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

auto row_fields(const pgndb::query::TreeRow& r) {
  return std::tie(r.move, r.san, r.games, r.white_wins, r.draws, r.black_wins, r.average_elo,
                  r.performance, r.last_year);
}

}  // namespace

TEST_CASE("statistics values read back as written, and damaged ones are refused") {
  const std::uint64_t key40 = 0x12345ABCDEULL;
  const pgn::Key base = pgn::Key(key40) << 24;
  positions::Statistics written = {
      {{base | 0x000001, true, {tally(0, 3, -1), tally(0x0C1C, 120, 7)}},
       {base | 0xFFFFFF, false, {tally(0x0B14, 1, -1)}}},
      {5, 17, 4000000000u}};
  std::string bytes;
  positions::encode_statistics(written, bytes);
  positions::Statistics read;
  REQUIRE(positions::decode_statistics(bytes, key40, read));
  CHECK(read == written);
  // Another key's 40 bits give other full keys: the value is only read under its own key.
  REQUIRE(positions::decode_statistics(bytes, key40 + 1, read));
  CHECK(read != written);
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    INFO(cut);
    CHECK_FALSE(positions::decode_statistics(bytes.substr(0, cut), key40, read));
  }
  CHECK_FALSE(positions::decode_statistics(bytes + '\0', key40, read));
  // Moves out of order are damage.
  positions::Statistics unordered = {{{base, true, {tally(9, 1, 0), tally(8, 1, 0)}}}, {}};
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

TEST_CASE("trees and counts from the kept statistics are those read game by game, through merges") {
  pgndb::test::TempDir dir;
  const fs::path db = dir.path() / "db";
  const fs::path corpus = fs::path(PGNDB_SHARED_DATA) / "corpus";
  // Three imports of small batches: each import's batches are merged at its end, and the
  // generations of the imports stay apart until `pgndb compact`.
  const std::vector<std::vector<std::string>> imports = {
      {"Lasker.pgn", "Reti.pgn", "Mecking.pgn"},
      {"PolgarZ.pgn", "Schlechter.pgn"},
      {"Oll.pgn", "Blackburne.pgn", "Lilienthal.pgn"}};
  for (const auto& files : imports) {
    std::string command =
        std::string(PGNDB_BINARY) + " import --batch 300 --db '" + db.string() + "'";
    for (const auto& f : files) command += " '" + (corpus / f).string() + "'";
    const auto r = pgndb::test::run_command(command);
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
  }

  auto compare = [&](std::size_t least_generations) {
    auto store = Store::open(db.string(), {.create_if_missing = false, .read_only = true});
    REQUIRE(store);
    REQUIRE(store->position_generations() >= least_generations);
    // The positions of the first 12 plies of every 10th game.
    std::map<pgn::Key, pgn::Position> roots;
    for (std::uint32_t id = 1; id <= store->game_count(); id += 10) {
      auto game = store->game(id);
      REQUIRE(game);
      pgn::Position pos = game->start;
      for (std::size_t ply = 0; ply <= 12 && ply <= game->moves.size(); ++ply) {
        roots.emplace(pgn::repetition_key(pos), pos);
        if (ply < game->moves.size()) pos.play_or_pass(game->moves[ply].move);
      }
    }
    REQUIRE(roots.size() > 1000);
    std::size_t kept = 0, compared = 0;
    for (const auto& [key, root] : roots) {
      pgndb::query::Filters filters;
      filters.position = root;
      auto fast = pgndb::query::opening_tree(*store, filters);
      auto slow = pgndb::query::opening_tree(*store, filters, {.use_statistics = false});
      REQUIRE(fast);
      REQUIRE(slow);
      REQUIRE(fast->size() == slow->size());
      for (std::size_t i = 0; i < fast->size(); ++i) {
        INFO(pgn::to_fen(root) << " row " << i << ": " << (*slow)[i].san);
        CHECK(row_fields((*fast)[i]) == row_fields((*slow)[i]));
      }
      // A count from the statistics is the search's count of the games at the position.
      pgndb::query::Plan plan;
      auto counted = pgndb::query::count_games(*store, filters, plan);
      auto search = pgndb::query::Search::start(*store, filters);
      REQUIRE(counted);
      REQUIRE(search);
      auto searched = search->count();
      REQUIRE(searched);
      CHECK(*counted == *searched);
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
  auto verify = [&] {
    const auto r =
        pgndb::test::run_command(std::string(PGNDB_BINARY) + " verify --db '" + db.string() + "'");
    INFO(r.out);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("consistent") != std::string::npos);
    CHECK(r.out.find(" 0 position statistics") == std::string::npos);
  };
  verify();
  const auto r =
      pgndb::test::run_command(std::string(PGNDB_BINARY) + " compact --db '" + db.string() + "'");
  REQUIRE(r.exit_code == 0);
  compare(1);
  verify();
}
