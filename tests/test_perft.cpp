// Move generation against the perft suites of ../shared/data/perft (numbers published by
// others) and against Stockfish's own perft on positions from random games.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "pgn/fen.h"
#include "pgn/movegen.h"
#include "pgn/perft.h"
#include "pgn/san.h"
#include "support.h"

namespace {

struct PerftCase {
  std::string name;
  std::string fen;
  std::vector<std::pair<int, std::uint64_t>> depths;  // (depth, nodes)
};

std::string data_path(const std::string& relative) {
  return std::string(PGNDB_SHARED_DATA) + "/perft/" + relative;
}

// `FEN ;D1 20 ;D2 400 ...` per line.
std::vector<PerftCase> read_epd_suite(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::vector<PerftCase> cases;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    PerftCase c;
    c.name = path + ":" + std::to_string(line_number);
    std::getline(fields, c.fen, ';');
    std::string item;
    while (std::getline(fields, item, ';')) {
      int depth = 0;
      unsigned long long nodes = 0;
      if (std::sscanf(item.c_str(), " D%d %llu", &depth, &nodes) == 2)
        c.depths.emplace_back(depth, nodes);
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

// Blocks of `id NAME`, `epd FEN`, `perft DEPTH NODES`.
std::vector<PerftCase> read_block_suite(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::vector<PerftCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("id ")) {
      cases.push_back({line.substr(3), "", {}});
    } else if (line.starts_with("epd ") && !cases.empty()) {
      cases.back().fen = line.substr(4);
    } else if (line.starts_with("perft ") && !cases.empty()) {
      int depth = 0;
      unsigned long long nodes = 0;
      if (std::sscanf(line.c_str(), "perft %d %llu", &depth, &nodes) == 2)
        cases.back().depths.emplace_back(depth, nodes);
    }
  }
  return cases;
}

// Checks every depth whose node count is within `budget` (the first depth always).
void check_suite(const std::vector<PerftCase>& cases, std::uint64_t budget) {
  REQUIRE(!cases.empty());
  int checked = 0;
  for (const auto& c : cases) {
    INFO(c.name << ": " << c.fen);
    auto pos = pgn::parse_fen(c.fen);
    REQUIRE(pos);
    REQUIRE(!c.depths.empty());
    for (const auto& [depth, nodes] : c.depths) {
      if (nodes > budget && depth > c.depths.front().first) continue;
      INFO("depth " << depth);
      CHECK(pgn::perft(*pos, depth) == nodes);
      ++checked;
    }
  }
  CHECK(checked >= int(cases.size()));
}

// Under the sanitizers (5-10 times slower) the suites check every position to 50,000 nodes
// rather than 1,000,000: the release run checks the deeper counts, and the sanitized run looks
// for memory errors and undefined behaviour, which shallow depths reach as well.
#ifdef PGNDB_SANITIZED
constexpr std::uint64_t default_budget = 50'000;
#else
constexpr std::uint64_t default_budget = 1'000'000;
#endif
constexpr std::uint64_t full_budget = ~std::uint64_t(0);

}  // namespace

TEST_CASE("perft: ethereal standard.epd", "[perft]") {
  check_suite(read_epd_suite(data_path("ethereal/standard.epd")), default_budget);
}
TEST_CASE("perft: ethereal fischer.epd (all 960 Chess960 starts)", "[perft]") {
  check_suite(read_epd_suite(data_path("ethereal/fischer.epd")), default_budget);
}
TEST_CASE("perft: stockfish perft.sh positions", "[perft]") {
  check_suite(read_epd_suite(data_path("stockfish/perft-sh-positions.epd")), 200 * default_budget);
}
TEST_CASE("perft: shakmaty tricky", "[perft]") {
  check_suite(read_block_suite(data_path("shakmaty/tricky.perft")), default_budget);
}
TEST_CASE("perft: shakmaty chess960", "[perft]") {
  check_suite(read_block_suite(data_path("shakmaty/chess960.perft")), default_budget);
}
TEST_CASE("perft: shakmaty random (6,838 positions)", "[perft]") {
  check_suite(read_block_suite(data_path("shakmaty/random.perft")), default_budget);
}
TEST_CASE("perft: python-chess tricky", "[perft]") {
  check_suite(read_block_suite(data_path("python-chess/tricky.perft")), default_budget);
}

TEST_CASE("perft full depth: ethereal standard.epd", "[.full]") {
  check_suite(read_epd_suite(data_path("ethereal/standard.epd")), full_budget);
}
TEST_CASE("perft full depth: ethereal fischer.epd", "[.full]") {
  check_suite(read_epd_suite(data_path("ethereal/fischer.epd")), full_budget);
}
TEST_CASE("perft full depth: shakmaty suites", "[.full]") {
  for (const char* file : {"shakmaty/tricky.perft", "shakmaty/chess960.perft",
                           "shakmaty/random.perft", "python-chess/tricky.perft"})
    check_suite(read_block_suite(data_path(file)), full_budget);
}

TEST_CASE("perft divide sums to perft and lists every legal move once", "[perft]") {
  auto pos = pgn::parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  REQUIRE(pos);
  auto divide = pgn::perft_divide(*pos, 3);
  std::uint64_t sum = 0;
  std::map<std::uint16_t, int> seen;
  for (const auto& [move, nodes] : divide) {
    sum += nodes;
    ++seen[move.raw()];
  }
  CHECK(divide.size() == 48);
  CHECK(seen.size() == 48);
  CHECK(sum == 97862);
}

TEST_CASE("count_legal_moves and has_legal_move agree with the generated list", "[perft]") {
  for (const auto& c : read_block_suite(data_path("shakmaty/random.perft"))) {
    auto pos = pgn::parse_fen(c.fen);
    REQUIRE(pos);
    auto moves = pgn::legal_moves(*pos);
    INFO(c.fen);
    CHECK(pgn::count_legal_moves(*pos) == int(moves.size()));
    CHECK(pgn::has_legal_move(*pos) == !moves.empty());
  }
}

// has_legal_en_passant tests only the pawns that could take; the generated list is the
// reference. The suite positions and every position one move later (after each double step,
// so en passant squares of every kind) are compared.
TEST_CASE("has_legal_en_passant agrees with the generated list", "[perft]") {
  auto compare = [&](const pgn::Position& pos) {
    bool en_passant = false;
    for (pgn::Move m : pgn::legal_moves(pos)) en_passant |= m.kind() == pgn::Move::EnPassant;
    if (pgn::has_legal_en_passant(pos) != en_passant)
      FAIL_CHECK(pgn::to_fen(pos) << ": has_legal_en_passant should be " << en_passant);
    return en_passant;
  };
  int positions = 0, with_en_passant = 0;
  for (const char* suite : {"shakmaty/random.perft", "shakmaty/tricky.perft"}) {
    for (const auto& c : read_block_suite(data_path(suite))) {
      auto pos = pgn::parse_fen(c.fen);
      REQUIRE(pos);
      compare(*pos);
      for (pgn::Move m : pgn::legal_moves(*pos)) {
        pgn::Position next = *pos;
        next.play(m);
        with_en_passant += compare(next);
        ++positions;
      }
    }
  }
  CHECK(positions > 100000);
  CHECK(with_en_passant > 100);
}

// Stockfish is an independent implementation: for positions from random games (which reach
// odd corners no suite was written for), its per-move perft must equal ours.
namespace {

std::map<std::string, std::uint64_t> stockfish_divide(const std::string& fen, int depth) {
  std::string command = "printf 'setoption name UCI_Chess960 value true\\nposition fen " + fen +
                        "\\ngo perft " + std::to_string(depth) +
                        "\\nquit\\n' | /usr/games/stockfish 2>/dev/null";
  const pgndb::test::CommandResult r = pgndb::test::run_command(command);
  REQUIRE(r.exit_code == 0);
  std::map<std::string, std::uint64_t> result;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    char move[16];
    unsigned long long nodes = 0;
    if (std::sscanf(line.c_str(), "%15[a-h1-8qrbn]: %llu", move, &nodes) == 2) result[move] = nodes;
  }
  return result;
}

}  // namespace

TEST_CASE("perft divide equals Stockfish's on positions from random games", "[perft][stockfish]") {
  std::mt19937_64 rng(20261129);
  int compared = 0;
  for (int game = 0; game < 40; ++game) {
    pgn::Position pos;
    int plies = 10 + int(rng() % 80);
    for (int ply = 0; ply < plies; ++ply) {
      auto moves = pgn::legal_moves(pos);
      if (moves.empty()) break;
      pos.play(moves[rng() % moves.size()]);
    }
    const std::string fen = pgn::to_fen(pos);
    INFO(fen);
    std::map<std::string, std::uint64_t> ours;
    // Stockfish in Chess960 mode writes castling as king-takes-rook; so do we for 960 positions,
    // and for standard ones both write the king's two-square step.
    for (const auto& [move, nodes] : pgn::perft_divide(pos, 3)) {
      std::string uci = pgn::to_uci(pos, move);
      if (move.kind() == pgn::Move::Castling)
        uci = uci.substr(0, 2) +
              std::string{char('a' + pgn::file_of(move.to())), char('1' + pgn::rank_of(move.to()))};
      ours[uci] = nodes;
    }
    CHECK(ours == stockfish_divide(fen, 3));
    ++compared;
  }
  CHECK(compared == 40);
}
