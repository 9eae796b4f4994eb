// A game's speed from its TimeControl tag. The oracle is lichess itself: its exports name each
// game's speed in the Event tag ("Rated Blitz game"), decided by lichess when the game was
// played; and lichess's published bounds (ultraBullet under 30 s of estimated time, bullet under
// 180, blitz under 480, rapid under 1,500, classical under 21,600) for the forms its games
// never show.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include "pgn/time_control.h"
#include "support.h"

namespace fs = std::filesystem;
using pgn::Speed;
using pgn::speed_of_time_control;

TEST_CASE("the speed of lichess's games is the one their Event tag names") {
  const fs::path edge = fs::path(PGNDB_SHARED_DATA) / "edge";
  static const std::regex event(R"re(\[Event "(Rated|Casual) (\w+) game"\])re");
  static const std::regex time_control(R"re(\[TimeControl "([^"]*)"\])re");
  static const std::regex utc_date(R"re(\[UTCDate "(\d{4})\.)re");
  std::map<std::string, int> checked;
  for (const fs::path& file :
       {edge / "chess.js" / "benchmark.pgn", edge / "mliebelt-pgn-parser" / "32games.pgn",
        edge / "mliebelt-pgn-parser" / "lichess_mliebelt_2024-01-03.pgn",
        edge / "notnil-chess" / "0006.pgn"}) {
    for (const std::string& game : pgndb::test::joined_games(pgndb::test::read_file(file))) {
      std::smatch e, t, d;
      if (!std::regex_search(game, e, event) || !std::regex_search(game, t, time_control)) continue;
      const std::string named = e[2].str(), tag = t[1].str();
      const int year = std::regex_search(game, d, utc_date) ? std::stoi(d[1].str()) : 0;
      INFO(file.filename().string()
           << ": TimeControl " << tag << ", Event " << e[0].str() << ", " << year);
      const Speed speed = speed_of_time_control(tag);
      REQUIRE(year > 0);
      if (named == "Classical" && year < 2017) {
        // Before lichess added rapid (2017), its classical began where rapid now does.
        CHECK((speed == Speed::Rapid || speed == Speed::Classical));
      } else {
        std::string lower = named;
        lower[0] = char(std::tolower(lower[0]));
        CHECK(pgn::to_text(speed) == lower);
      }
      ++checked[named];
    }
  }
  INFO("games checked by speed: bullet " << checked["Bullet"] << ", blitz " << checked["Blitz"]
                                         << ", classical " << checked["Classical"]);
  CHECK(checked["Bullet"] >= 30);
  CHECK(checked["Blitz"] >= 30);
  CHECK(checked["Classical"] >= 30);
}

TEST_CASE("the speed's bounds, and the other forms of the PGN standard's TimeControl") {
  // Each bound of lichess's ranges, on both sides: base + 40 x increment.
  CHECK(speed_of_time_control("29") == Speed::UltraBullet);
  CHECK(speed_of_time_control("15+0") == Speed::UltraBullet);
  CHECK(speed_of_time_control("30") == Speed::Bullet);
  CHECK(speed_of_time_control("0+1") == Speed::Bullet);  // 40 s
  CHECK(speed_of_time_control("179+0") == Speed::Bullet);
  CHECK(speed_of_time_control("120+2") == Speed::Blitz);  // 200 s
  CHECK(speed_of_time_control("479") == Speed::Blitz);
  CHECK(speed_of_time_control("480") == Speed::Rapid);
  CHECK(speed_of_time_control("900+10") == Speed::Rapid);  // 1,300 s
  CHECK(speed_of_time_control("1499") == Speed::Rapid);
  CHECK(speed_of_time_control("1500") == Speed::Classical);
  CHECK(speed_of_time_control("5400+30") == Speed::Classical);
  CHECK(speed_of_time_control("21599") == Speed::Classical);
  CHECK(speed_of_time_control("21600") == Speed::Correspondence);
  // Decimals, as some servers write them: 10.931 + 40 x 0.109 = 15.3 s.
  CHECK(speed_of_time_control("10.931+0.109") == Speed::UltraBullet);
  // Moves in a period: the time of 40 moves decides; the periods after the first do not.
  CHECK(speed_of_time_control("40/7200:3600") == Speed::Classical);
  CHECK(speed_of_time_control("40/5400+30:1800+30") == Speed::Classical);
  CHECK(speed_of_time_control("1/259200") == Speed::Correspondence);  // three days a move
  CHECK(speed_of_time_control("*180") == Speed::Blitz);               // sandclock
  CHECK(speed_of_time_control("-") == Speed::Correspondence);         // no clock
  CHECK(speed_of_time_control(" 300+3 ") == Speed::Blitz);
  // What says nothing, or says it in prose, is unknown: never guessed.
  for (const char* unknown : {"", "?", "15 min. + 10 s. per move", "300+", "+5", "-300", "40/",
                              "0/300", "abc", "300+3x", "1e3"}) {
    INFO("'" << unknown << "'");
    CHECK(speed_of_time_control(unknown) == Speed::Unknown);
  }
  for (std::size_t i = 0; i < pgn::speed_count; ++i)
    CHECK(pgn::parse_speed(pgn::to_text(Speed(i))) == Speed(i));
  CHECK_FALSE(pgn::parse_speed("Blitz"));
}
