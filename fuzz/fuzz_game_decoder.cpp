// The stored-game, summary, facts and name-list decoders on any bytes: values read from disk
// are untrusted.
//
// Checks: a game that decodes encodes to bytes that decode to a game encoding to the same
// bytes (the stored form of what the decoder returns is a fixed point), and its header decoder
// agrees on the tags and the result; the decoded game's moves can be written as PGN. A summary
// that decodes encodes to the very bytes it came from (the summary format has one form per
// value; one of the layout before schema 20 to the current layout, with the same fields), and
// its opening codes can be followed from the start position. A group of facts
// that parses reads every game's facts within bounds (a result within 0-3), and encodes to a
// group that reads back the same facts, and a filter of ratings and results passes the same
// games on the stored group as on their facts. A fragment's list of name numbers that decodes
// is strictly ascending, above 0, and encodes to bytes that decode to the same list. A run of
// the position index that decodes is strictly ascending and encodes to a run decoding to the
// same entries; read entry by entry, it gives the same entries, ending cleanly. A material
// history that decodes has runs that start at ply 0, ascend within its plies and change each
// time; it encodes to bytes
// that decode to the same history.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <vector>

#include "check.h"
#include "fact_group.h"
#include "material_record.h"
#include "name_index.h"
#include "pgn/writer.h"
#include "pgndb/index/game_codec.h"
#include "pgndb/index/game_summary.h"
#include "position_runs.h"

namespace {

void check_game(std::string_view bytes) {
  auto game = pgndb::index::decode_game(bytes);
  auto header = pgndb::index::decode_game_header(bytes);
  if (!game) return;
  FUZZ_CHECK(header);
  FUZZ_CHECK(header->tags == game->tags && header->result == game->result);

  std::string encoded;
  pgndb::index::encode_game(*game, encoded);
  auto again = pgndb::index::decode_game(encoded);
  FUZZ_CHECK(again);
  std::string reencoded;
  pgndb::index::encode_game(*again, reencoded);
  FUZZ_CHECK(reencoded == encoded);
  FUZZ_CHECK(again->start == game->start);

  std::string pgn;
  pgn::write_game(*game, pgn);
}

void check_summary(std::string_view bytes) {
  auto summary = pgndb::index::decode_summary(bytes);
  if (!summary) return;
  std::string encoded;
  pgndb::index::encode_summary(*summary, encoded);
  // A summary of schema 21 (bit 7 of its first byte and of its ending's byte) is written back as
  // it was; one written before (no ending byte, or no opening) in the current layout, with the
  // same fields.
  if ((std::uint8_t(bytes[0]) & 0x80) && bytes.size() > 11 && (std::uint8_t(bytes[11]) & 0x80)) {
    FUZZ_CHECK(encoded == bytes);
  } else {
    auto again = pgndb::index::decode_summary(encoded);
    FUZZ_CHECK(again);
    FUZZ_CHECK(again->facts() == summary->facts());
    FUZZ_CHECK(again->standard_start == summary->standard_start);
    FUZZ_CHECK(again->opening_length == summary->opening_length);
    FUZZ_CHECK(again->opening == summary->opening);
  }
  pgn::Position pos;
  for (std::size_t i = 0; i < summary->opening_length; ++i) {
    auto move = pgndb::index::opening_move(pos, summary->opening[i]);
    if (!move) break;
    pos.play(*move);
  }
}

void check_facts(std::string_view bytes) {
  auto group = pgndb::index::facts::GroupView::parse(bytes);
  if (!group) return;
  std::vector<pgndb::index::SearchFacts> games;
  for (std::size_t i = 0; i < group->size(); ++i) {
    games.push_back(group->at(i));
    // What the fields may hold, as the game codec and the calendar's bytes have it.
    FUZZ_CHECK(games.back().result <= 3);
  }
  std::string encoded;
  pgndb::index::facts::encode_group(games, encoded);
  auto again = pgndb::index::facts::GroupView::parse(encoded);
  FUZZ_CHECK(again);
  FUZZ_CHECK(again->size() == games.size());
  for (std::size_t i = 0; i < games.size(); ++i) FUZZ_CHECK(again->at(i) == games[i]);
  // A filter made of the input's first bytes.
  pgndb::index::FactsFilter filter;
  const auto byte = [&](std::size_t i) { return i < bytes.size() ? std::uint8_t(bytes[i]) : 0u; };
  filter.min_elo = byte(0) * 12u;
  filter.max_elo = byte(1) ? 1500u + byte(1) * 6u : 0u;
  if (byte(2) & 1) filter.result = pgndb::index::FactsFilter::Range{byte(2) >> 6, 3};
  filter.annotated = byte(3) & 1;
  for (std::size_t i = 0; i < games.size(); ++i)
    FUZZ_CHECK(group->passes(i, filter) == filter.passes(games[i]));
}

void check_run(std::string_view bytes) {
  using namespace pgndb::index::positions;
  std::vector<Entry> entries;
  RunReader reader;
  const bool opened = reader.open(bytes);
  std::vector<Entry> one_by_one;
  Entry e;
  while (opened && reader.next(e)) one_by_one.push_back(e);
  if (!decode_run(bytes, entries)) {
    FUZZ_CHECK(!opened || reader.damaged() || !reader.clean_end());
    return;
  }
  FUZZ_CHECK(opened && reader.clean_end() && one_by_one == entries);
  for (std::size_t i = 1; i < entries.size(); ++i) FUZZ_CHECK(entries[i - 1] < entries[i]);
  std::string encoded;
  encode_run(entries, encoded);
  std::vector<Entry> again;
  FUZZ_CHECK(decode_run(encoded, again) && again == entries);
}

void check_name_list(std::string_view bytes) {
  std::vector<std::uint32_t> numbers;
  if (!pgndb::index::name_index::decode_numbers(bytes, numbers)) return;
  for (std::size_t i = 0; i < numbers.size(); ++i)
    FUZZ_CHECK(numbers[i] > 0 && (i == 0 || numbers[i] > numbers[i - 1]));
  std::string encoded;
  pgndb::index::name_index::encode_numbers(numbers, encoded);
  std::vector<std::uint32_t> again;
  FUZZ_CHECK(pgndb::index::name_index::decode_numbers(encoded, again) && again == numbers);
}

}  // namespace

void check_material(std::string_view bytes) {
  const auto history = pgndb::index::material::decode_history(bytes);
  if (!history) return;
  FUZZ_CHECK(!history->runs.empty() && history->runs.front().ply == 0);
  for (std::size_t i = 1; i < history->runs.size(); ++i) {
    FUZZ_CHECK(history->runs[i].ply > history->runs[i - 1].ply);
    FUZZ_CHECK(history->runs[i].ply <= history->plies);
    FUZZ_CHECK(!(history->runs[i].balance == history->runs[i - 1].balance));
  }
  std::string again;
  pgndb::index::material::encode_history(*history, again);
  const auto decoded = pgndb::index::material::decode_history(again);
  FUZZ_CHECK(decoded.has_value());
  FUZZ_CHECK(decoded->plies == history->plies && decoded->runs.size() == history->runs.size());
  for (std::size_t i = 0; i < history->runs.size(); ++i)
    FUZZ_CHECK(decoded->runs[i].ply == history->runs[i].ply &&
               decoded->runs[i].balance == history->runs[i].balance);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  check_game(bytes);
  check_summary(bytes);
  check_facts(bytes);
  check_name_list(bytes);
  check_run(bytes);
  check_material(bytes);
  return 0;
}
