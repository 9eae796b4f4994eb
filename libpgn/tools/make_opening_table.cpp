// Writes lichess's opening tables (libpgn/data/openings/*.tsv) as C++ source for libpgn: every
// line (code, name, moves) by number, and every line's final position keyed by repetition_key,
// sorted, so that no process replays 3,807 lines (2 ms) or splits the tables to name a position.
// `make_opening_table OUT.cpp A.tsv B.tsv ...`; fails (exit 1) on a line whose moves do not
// replay, so a table that libpgn cannot read never ships.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "../src/opening_lines.h"
#include "pgn/game.h"
#include "pgn/san.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: make_opening_table OUT.cpp TABLE.tsv...\n");
    return 2;
  }
  std::vector<std::string> texts;
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    texts.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "make_opening_table: cannot read %s\n", argv[i]);
      return 1;
    }
  }
  std::vector<std::pair<pgn::Key, unsigned>> named;
  unsigned id = 0;
  bool failed = false;
  for (const std::string& text : texts)
    pgn::opening_lines::for_each_line(text, [&](const pgn::Opening& o) {
      ++id;
      pgn::Position pos;
      std::string_view rest = o.moves;
      while (!rest.empty()) {
        const std::size_t space = rest.find(' ');
        const std::string_view token = rest.substr(0, space);
        rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
        if (token.empty() || token.back() == '.') continue;  // a move number
        const auto move = pgn::parse_san(pos, token);
        if (!move) {
          std::fprintf(stderr, "make_opening_table: line %u (%.*s): %s\n", id, int(o.name.size()),
                       o.name.data(), move.error().message.c_str());
          failed = true;
          return;
        }
        pos.play(*move);
      }
      named.emplace_back(pgn::repetition_key(pos), id);
    });
  if (failed) return 1;
  // By key; of the lines that reach one position, the first names it.
  std::stable_sort(named.begin(), named.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  named.erase(std::unique(named.begin(), named.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              named.end());
  // A C++ string literal of `text`.
  auto literal = [](std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    // With its length (`sv`): clang counts each character of a length found by constant
    // evaluation against its step limit, which the tables' 3,807 lines exceed.
    return out + "\"sv";
  };
  std::string out =
      "// Written by libpgn/tools/make_opening_table.cpp from libpgn/data/openings/: do not "
      "edit.\n#include <cstdint>\n#include <span>\n#include <string_view>\n#include "
      "<utility>\n\n#include \"pgn/openings.h\"\n\nnamespace pgn::opening_data {\n\nnamespace "
      "{\n\nusing namespace std::literals;\n\n"
      "// By number, [0] none.\nconstexpr Opening lines[] = {\n    {\"\"sv, \"\"sv, \"\"sv},\n";
  for (const std::string& text : texts)
    pgn::opening_lines::for_each_line(text, [&](const pgn::Opening& o) {
      out += "    {" + literal(o.eco) + ", " + literal(o.name) + ", " + literal(o.moves) + "},\n";
    });
  out +=
      "};\n\n// Each line's final position by repetition_key, sorted, each key once.\n"
      "constexpr std::pair<std::uint64_t, std::uint16_t> named_positions[] = {\n";
  for (const auto& [key, line] : named) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
    out += "    {0x" + std::string(hex) + "ULL, " + std::to_string(line) + "},\n";
  }
  out +=
      "};\n\n}  // namespace\n\n"
      "extern const std::span<const Opening> openings;\n"
      "const std::span<const Opening> openings(lines);\n"
      "extern const std::span<const std::pair<std::uint64_t, std::uint16_t>> positions;\n"
      "const std::span<const std::pair<std::uint64_t, std::uint16_t>> positions(named_positions);\n"
      "\n}  // namespace pgn::opening_data\n";
  std::ofstream file(argv[1], std::ios::binary);
  file << out;
  file.close();
  if (!file) {
    std::fprintf(stderr, "make_opening_table: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
