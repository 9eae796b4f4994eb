// A material search's spec (pgn::MaterialSpec: an ending's name or pgn-extract's syntax) from any
// text, matched against balances and a history built from the input's last bytes.
//
// Checks: a rejected text gets a message and an offset within it. A spec that parses matches a
// balance with Black as its first side exactly when it matches the swapped balance with White;
// whatever matches passes pieces_can_match (the index's coarser test, which must never drop a
// match); and first_material_match agrees with counting the positions one by one.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "check.h"
#include "pgn/material_spec.h"

namespace {

// Whether some stretch of positions (each ply below `plies` with a move played from it) matches
// for more than `stable` plies, by walking the plies one at a time; the first ply of the stretch.
std::optional<unsigned> by_plies(const pgn::MaterialHistory& h, const pgn::MaterialSpec& spec,
                                 unsigned stable, pgn::Color first) {
  std::size_t run = 0;
  unsigned held = 0, begin = 0;
  for (unsigned ply = 0; ply < h.plies; ++ply) {
    while (run + 1 < h.runs.size() && h.runs[run + 1].ply <= ply) ++run;
    if (!spec.matches(h.runs[run].balance, first)) {
      held = 0;
      continue;
    }
    if (!held) begin = ply;
    if (++held > stable) return begin;
  }
  return std::nullopt;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The text is up to the first NUL; the bytes after it make balances and a history.
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string_view text = input.substr(0, nul);
  const std::string_view rest = nul == std::string_view::npos ? "" : input.substr(nul + 1);
  auto parsed = pgn::MaterialSpec::parse(text);
  if (!parsed) {
    FUZZ_CHECK(!parsed.error().message.empty());
    FUZZ_CHECK(parsed.error().offset <= text.size());
    return 0;
  }
  const pgn::MaterialSpec& spec = *parsed;

  // A history: every 10 bytes a balance (counts 0..9, pawns 0..8), every 11th its run's length.
  pgn::MaterialHistory h;
  std::size_t at = 0;
  while (at + 11 <= rest.size() && h.runs.size() < 64) {
    pgn::MaterialBalance b;
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < 5; ++t)
        b.count[c][t] = std::uint8_t(std::uint8_t(rest[at++]) % (t == 0 ? 9 : 10));
    const unsigned length = std::uint8_t(rest[at++]) % 5;
    if (!h.runs.empty() && (h.runs.back().balance == b || h.plies == h.runs.back().ply)) continue;
    h.runs.push_back({h.plies, b});
    h.plies = std::uint16_t(h.plies + length);

    FUZZ_CHECK(spec.matches(b, pgn::Black) == spec.matches(b.swapped(), pgn::White));
    for (pgn::Color first : {pgn::White, pgn::Black})
      if (spec.matches(b, first)) FUZZ_CHECK(spec.pieces_can_match(b, first));
  }
  if (h.runs.empty()) return 0;
  for (unsigned stable : {0u, 1u, 2u, 5u}) {
    const auto found = pgn::first_material_match(h, spec, stable, false);
    FUZZ_CHECK(found == by_plies(h, spec, stable, pgn::White));
    const auto either = pgn::first_material_match(h, spec, stable, true);
    const auto black = by_plies(h, spec, stable, pgn::Black);
    FUZZ_CHECK(either.has_value() == (found.has_value() || black.has_value()));
  }
  return 0;
}
