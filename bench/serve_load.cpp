// serve-load: a bounded load on a running `pgndb serve` over loopback (bench/serve starts one).
//
//   serve-load --db DIR --port P [--clients 16] [--seconds 10] [--soak 10000]
//
// 1. The explorer: `--clients` threads, each with its own kept-alive connection, ask /masters for
//    a mix of positions (the first 0 to 16 plies of games spread over the database, read from
//    DIR) for `--seconds`; prints requests/s and the latency's p50, p90, p99 and max. Before
//    it, each position alone, with /masters and with /lichess filtered by rating group.
// 2. /api/find: the first page of a position's games and of a player's, one request at a time.
// 3. A soak of `--soak` malformed requests (bad FENs and moves, garbage parameters, unknown paths
//    and long values) from four threads; every answer must be a 4xx, and afterwards the server
//    must answer the explorer's first requests exactly as before.
// Exits 1 when a request fails or an answer is wrong; the targets are printed as met or not.
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "pgn/san.h"
#include "pgndb/index/store.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string db;
  int port = 0;
  unsigned clients = 16, seconds = 10, soak = 10000;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
}

// The explorer's paths: the first plies of games spread over the database, in UCI.
std::vector<std::string> explorer_paths(const pgndb::index::Store& store, std::size_t count) {
  std::vector<std::string> paths;
  std::mt19937 random(12345);
  const std::uint32_t games = store.game_count();
  for (std::size_t i = 0; i < count && games > 0; ++i) {
    const std::uint32_t id = 1 + std::uint32_t(std::uint64_t(i) * games / count);
    auto game = store.game(id);
    if (!game) continue;
    const std::size_t plies = std::min<std::size_t>(game->moves.size(), random() % 17);
    std::string play;
    pgn::Position pos = game->start;
    if (pos.key() != pgn::Position().key()) continue;  // from the standard start only
    bool ok = true;
    for (std::size_t p = 0; p < plies && ok; ++p) {
      const pgn::Move m = game->moves[p].move;
      if (m.is_null()) ok = false;
      if (!ok) break;
      play += (p ? "," : "") + pgn::to_uci(pos, m);
      pos.play(m);
    }
    if (ok) paths.push_back("/masters?play=" + play);
  }
  return paths;
}

struct Latencies {
  std::vector<double> ms;
  std::uint64_t failures = 0;
};

void print_latencies(const char* what, const std::vector<double>& ms, double seconds) {
  std::printf("%-34s %8zu requests %9.0f/s  p50 %6.2f ms  p90 %6.2f  p99 %6.2f  max %7.2f\n", what,
              ms.size(), seconds > 0 ? double(ms.size()) / seconds : 0.0, percentile(ms, 0.5),
              percentile(ms, 0.9), percentile(ms, 0.99),
              ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()));
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--db")
      o.db = v;
    else if (a == "--port")
      o.port = std::stoi(v);
    else if (a == "--clients")
      o.clients = unsigned(std::stoul(v));
    else if (a == "--seconds")
      o.seconds = unsigned(std::stoul(v));
    else if (a == "--soak")
      o.soak = unsigned(std::stoul(v));
    else {
      std::fprintf(stderr, "serve-load: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (o.db.empty() || o.port <= 0) {
    std::fprintf(stderr,
                 "usage: serve-load --db DIR --port P [--clients N] [--seconds S] [--soak N]\n");
    return 2;
  }
  auto store = pgndb::index::Store::open(
      o.db, {.create_if_missing = false, .read_only = true, .import_records = false});
  if (!store) {
    std::fprintf(stderr, "serve-load: %s\n", store.error().message().c_str());
    return 2;
  }
  const auto paths = explorer_paths(*store, 1000);
  std::vector<std::string> players;
  for (std::uint32_t id = 1; id <= store->game_count() && players.size() < 200;
       id += std::max<std::uint32_t>(1, store->game_count() / 200)) {
    auto game = store->game_header(id);
    if (!game) continue;
    if (const std::string* white = game->tag("White")) {
      std::string key;
      for (char c : *white)
        if (std::isalnum(static_cast<unsigned char>(c)))
          key += c;
        else if (!key.empty())
          break;  // the surname
      if (key.size() >= 3) players.push_back(key);
    }
  }
  std::printf(
      "serve-load: %zu explorer positions, %zu players, %u clients, %u s, on 127.0.0.1:%d\n",
      paths.size(), players.size(), o.clients, o.seconds, o.port);
  int exit_code = 0;

  // The answers before any load, to compare after the soak.
  std::vector<std::string> reference;
  {
    httplib::Client client("127.0.0.1", o.port);
    for (std::size_t i = 0; i < 50 && i < paths.size(); ++i) {
      auto r = client.Get(paths[i]);
      reference.push_back(r && r->status == 200 ? r->body : std::string());
    }
  }

  // Each position once, one at a time: the slowest, to show where the time goes. Then the
  // lichess games explorer filtered by rating group the same way: the index keeps no statistics
  // by rating group or speed, so each answer reads the facts of the position's games (no
  // target: shown to size that cost).
  auto each_alone = [&](const char* what, std::size_t slowest, auto&& path_of) {
    httplib::Client client("127.0.0.1", o.port);
    std::vector<std::pair<double, std::string>> alone;
    for (const auto& explorer : paths) {
      const std::string path = path_of(explorer);
      const auto t0 = Clock::now();
      auto r = client.Get(path);
      alone.emplace_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count(),
                         path);
      if (!r || r->status != 200) {
        std::fprintf(stderr, "serve-load: %s failed\n", path.c_str());
        exit_code = 1;
      }
    }
    std::vector<double> ms;
    for (const auto& [t, path] : alone) ms.push_back(t);
    print_latencies(what, ms, 0);
    std::sort(alone.rbegin(), alone.rend());
    for (std::size_t i = 0; i < slowest && i < alone.size(); ++i)
      std::printf("  %8.2f ms  %s\n", alone[i].first, alone[i].second.c_str());
  };
  each_alone("/masters, each position alone", 5, [](const std::string& p) { return p; });
  each_alone("/lichess?ratings=..., each alone", 3, [](const std::string& p) {
    return "/lichess?ratings=2200,2500&" + p.substr(p.find('?') + 1);
  });

  // 1. The explorer under load.
  std::vector<Latencies> per_client(o.clients);
  std::atomic<bool> stop{false};
  const auto began = Clock::now();
  {
    std::vector<std::thread> threads;
    for (unsigned c = 0; c < o.clients; ++c)
      threads.emplace_back([&, c] {
        httplib::Client client("127.0.0.1", o.port);
        client.set_keep_alive(true);
        for (std::size_t i = c * 61; !stop.load(std::memory_order_relaxed); ++i) {
          const auto t0 = Clock::now();
          auto r = client.Get(paths[i % paths.size()]);
          const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
          if (!r || r->status != 200)
            ++per_client[c].failures;
          else
            per_client[c].ms.push_back(ms);
        }
      });
    std::this_thread::sleep_for(std::chrono::seconds(o.seconds));
    stop = true;
    for (auto& t : threads) t.join();
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - began).count();
  std::vector<double> all;
  std::uint64_t failures = 0;
  for (const auto& l : per_client) {
    all.insert(all.end(), l.ms.begin(), l.ms.end());
    failures += l.failures;
  }
  print_latencies("/masters, mixed positions", all, elapsed);
  const double rate = double(all.size()) / elapsed;
  const double p50 = percentile(all, 0.5), p99 = percentile(all, 0.99);
  std::printf(
      "  targets at %u clients: p50 <= 2 ms: %s (%.2f); p99 <= 20 ms: %s (%.2f); >= 2,000 "
      "requests/s: %s (%.0f); failed requests: %llu\n",
      o.clients, p50 <= 2 ? "met" : "NOT met", p50, p99 <= 20 ? "met" : "NOT met", p99,
      rate >= 2000 ? "met" : "NOT met", rate, static_cast<unsigned long long>(failures));
  if (failures) exit_code = 1;

  // 2. /api/find's first page, one request at a time.
  {
    httplib::Client client("127.0.0.1", o.port);
    client.set_url_encode(false);  // `+` separates the moves
    std::vector<double> by_position, by_player;
    for (std::size_t i = 0; i < 200 && i < paths.size(); ++i) {
      const std::string play = paths[i].substr(paths[i].find('=') + 1);
      // /api/find takes SAN or UCI moves (`moves`, spaces as +).
      std::string moves = play;
      std::replace(moves.begin(), moves.end(), ',', '+');
      const auto t0 = Clock::now();
      auto r = client.Get("/api/find?limit=20&moves=" + moves);
      by_position.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      if (!r || r->status != 200) {
        std::fprintf(stderr, "serve-load: /api/find?moves=%s failed\n", moves.c_str());
        exit_code = 1;
      }
    }
    for (const auto& player : players) {
      const auto t0 = Clock::now();
      auto r = client.Get("/api/find?limit=20&player=" + player);
      by_player.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      if (!r || r->status != 200) exit_code = 1;
    }
    print_latencies("/api/find first page, position", by_position, 0);
    print_latencies("/api/find first page, player", by_player, 0);
    std::vector<double> both = by_position;
    both.insert(both.end(), by_player.begin(), by_player.end());
    std::printf("  target: p50 <= 5 ms: %s (%.2f)\n",
                percentile(both, 0.5) <= 5 ? "met" : "NOT met", percentile(both, 0.5));
  }

  // 3. The soak.
  {
    const std::vector<std::string> bad = {"/masters?fen=8/8/8/8/8/8/8/8+w+-+-+0+1",
                                          "/masters?fen=not+a+fen",
                                          "/masters?play=e2e5",
                                          "/masters?play=e2e4,e7e4",
                                          "/masters?moves=-1",
                                          "/masters?topGames=99",
                                          "/masters?since=x",
                                          "/masters?play=%zz",
                                          "/masters?variant=atomic",
                                          "/api/find?limit=0",
                                          "/api/find?date=2000..1990",
                                          "/api/find?player-re=(",
                                          "/api/find?nonsense=1",
                                          "/api/tree?eco=Z99",
                                          "/api/game/0",
                                          "/api/game/4294967295",
                                          "/api/game/x",
                                          "/nothing",
                                          "/api/export?sort=name",
                                          "/masters?fen=" + std::string(4000, 'r')};
    std::atomic<std::uint64_t> wrong{0}, next{0};
    std::vector<std::thread> threads;
    const auto t0 = Clock::now();
    for (int c = 0; c < 4; ++c)
      threads.emplace_back([&, c] {
        httplib::Client client("127.0.0.1", o.port);
        client.set_url_encode(false);  // the bytes as written
        std::mt19937 random(c);
        while (true) {
          const std::uint64_t n = next++;
          if (n >= o.soak) break;
          std::string path = bad[n % bad.size()];
          // Every third request gets random bytes appended, percent-encoded or not.
          if (n % 3 == 0) {
            path += path.find('?') == std::string::npos ? "?" : "&";
            for (int k = 0; k < 20; ++k) {
              const char ch = char(33 + random() % 94);
              path += ch == '#' ? '%' : ch;
            }
          }
          auto r = client.Get(path);
          if (!r || r->status < 400 || r->status >= 500) ++wrong;
        }
      });
    for (auto& t : threads) t.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    httplib::Client client("127.0.0.1", o.port);
    std::size_t same = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
      auto r = client.Get(paths[i]);
      same += r && r->status == 200 && r->body == reference[i];
    }
    std::printf(
        "soak: %u malformed requests in %.1f s, %llu not answered with a 4xx; then %zu of %zu "
        "explorer answers as before: %s\n",
        o.soak, seconds, static_cast<unsigned long long>(wrong.load()), same, reference.size(),
        wrong == 0 && same == reference.size() ? "met" : "NOT met");
    if (wrong || same != reference.size()) exit_code = 1;
  }
  return exit_code;
}
