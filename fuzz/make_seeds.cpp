// Writes the fuzz targets' seed inputs, made from PGN files (scripts/fuzz-seeds passes the
// shared edge-case files): usage `fuzz_make_seeds OUT_DIR FILE...`, one folder per target under
// OUT_DIR. Seeds are generated rather than committed: the files are others' work, and a few
// of each file's games give every target inputs of the shapes it has to handle.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "fact_group.h"
#include "pgn/fen.h"
#include "pgn/movegen.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgn/san.h"
#include "pgndb/index/prepared_game.h"
#include "san_positions.h"

namespace fs = std::filesystem;

namespace {

// libFuzzer's default -max_len: longer seeds would be cut anyway.
constexpr std::size_t max_len = 4096;
// Games taken from each file: enough to cover its quirks, few enough to keep runs short.
constexpr int games_per_file = 4;

class SeedWriter {
 public:
  explicit SeedWriter(fs::path dir) : dir_(std::move(dir)) {}
  void write(std::string_view target, std::string_view bytes) {
    if (bytes.size() > max_len) return;
    const fs::path folder = dir_ / target;
    fs::create_directories(folder);
    std::ofstream(folder / std::to_string(count_++), std::ios::binary)
        .write(bytes.data(), std::streamsize(bytes.size()));
  }

 private:
  fs::path dir_;
  std::size_t count_ = 0;
};

std::string with_byte(int byte, std::string_view rest) {
  return std::string(1, char(byte)) + std::string(rest);
}

// Arguments for fuzz_query_options, NUL-separated, as `pgndb find` would get them.
std::string command_line(std::initializer_list<std::string_view> args) {
  std::string line = "--db";
  line += '\0';
  line += "db";
  for (std::string_view a : args) {
    line += '\0';
    line += a;
  }
  return line;
}

void seeds_of_game(SeedWriter& out, const pgn::ReplayVisitor& game, int n) {
  const pgn::GameRecord& record = game.record();
  const pgndb::index::PreparedGame prepared = pgndb::index::prepare_game(record);
  out.write("fuzz_game_decoder", prepared.encoded);
  out.write("fuzz_game_decoder", prepared.summary);
  std::string facts;
  pgndb::index::facts::encode_group(std::vector{prepared.facts, prepared.facts}, facts);
  out.write("fuzz_game_decoder", facts);

  // Positions along the main line, a few plies apart.
  pgn::Position pos = record.start;
  std::string moves;
  int ply = 0;
  for (const pgn::MoveNode& node : record.moves) {
    if (ply % 9 == n % 9) out.write("fuzz_fen", pgn::to_fen(pos));
    if (ply < 8) moves += (moves.empty() ? "" : " ") + pgn::to_san(pos, node.move);
    pos.play_or_pass(node.move);
    ++ply;
  }
  out.write("fuzz_fen", pgn::to_fen(pos));

  auto tag = [&](std::string_view name) {
    const std::string* v = record.tag(name);
    return v ? std::string_view(*v) : std::string_view();
  };
  out.write("fuzz_query_options", command_line({"--fen", pgn::to_fen(pos), "--in-variations"}));
  out.write("fuzz_query_options", command_line({"--moves", moves, "--white", tag("White"), "--date",
                                                tag("Date"), "--result", record.result}));
  out.write("fuzz_query_options",
            command_line({"--player-re", tag("Black"), "--eco-tag", tag("ECO"), "--min-elo",
                          tag("WhiteElo").empty() ? "0" : tag("WhiteElo"), "--annotated"}));
}

void seeds_of_file(SeedWriter& out, const fs::path& path, int index) {
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The reader's input: the file's first bytes as they are (BOMs, CRLFs and encodings
  // included), and the next ones, each behind a byte that chooses the chunk size.
  for (std::size_t at = 0; at < text.size() && at < 2 * (max_len - 1); at += max_len - 1)
    out.write("fuzz_reader", with_byte(index * 37 + int(at), text.substr(at, max_len - 1)));

  pgn::StringSource source(text);
  pgn::Reader reader(source);
  pgn::ReplayVisitor visitor({.keep_record = true});
  for (int n = 0; n < games_per_file;) {
    auto read = reader.read_game(visitor);
    if (!read || !*read) break;
    if (const std::string* fen = visitor.record().tag("FEN")) out.write("fuzz_fen", *fen);
    if (!visitor.replayed()) continue;
    seeds_of_game(out, visitor, index + n);
    ++n;
  }
}

void seeds_of_san_positions(SeedWriter& out) {
  const auto& positions = pgndb::fuzz::san_positions;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    auto pos = pgn::parse_fen(positions[i]);
    if (!pos) continue;
    for (pgn::Move m : pgn::legal_moves(*pos)) {
      out.write("fuzz_san", with_byte(int(i), pgn::to_san(*pos, m)));
      out.write("fuzz_san", with_byte(int(i), pgn::to_uci(*pos, m)));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: fuzz_make_seeds OUT_DIR FILE...\n";
    return 2;
  }
  SeedWriter out(argv[1]);
  seeds_of_san_positions(out);
  for (int i = 2; i < argc; ++i) seeds_of_file(out, argv[i], i);
  return 0;
}
