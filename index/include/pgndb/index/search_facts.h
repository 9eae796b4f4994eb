// The fixed facts of a game that filters check and searches sort by: result, date, ratings,
// plies, annotated. They are kept for every game in the `facts` column family, bit-packed in
// columns (docs/storage.md, "Facts"), so that checking a million candidates reads a few
// megabytes without decompressing anything.
#pragma once

#include <cstdint>
#include <optional>

namespace pgndb::index {

struct SearchFacts {
  std::uint8_t result = 0;  // 0 `*`, 1 `1-0`, 2 `0-1`, 3 `1/2-1/2` (as the game codec)
  bool annotated = false;   // as GameSummary::annotated
  std::uint16_t year = 0;   // 0 for each unknown part
  std::uint8_t month = 0, day = 0;
  std::uint16_t white_elo = 0, black_elo = 0;  // 0 when unknown
  std::uint16_t plies = 0;                     // main-line plies (at most 65,535)

  // A sortable date: year, month, day in one number, 0 for unknown parts.
  std::uint32_t date_number() const { return std::uint32_t(year) << 16 | month << 8 | day; }
  bool operator==(const SearchFacts&) const = default;
};

// What a search checks on its candidates' facts, every part optional: each range inclusive,
// the date as date_number() (a game of unknown year fails a date range: the date index holds
// known years only), the ratings both known and within. Store::select_facts checks it reading
// only the fields it names.
struct FactsFilter {
  struct Range {
    std::uint32_t low, high;
    bool holds(std::uint32_t v) const { return v >= low && v <= high; }
  };
  std::optional<Range> result, date, plies;
  unsigned min_elo = 0, max_elo = 0;  // 0: no bound
  bool annotated = false;             // only annotated games

  bool checks_ratings() const { return min_elo || max_elo; }
  bool rating_holds(unsigned elo) const {
    return elo && (!min_elo || elo >= min_elo) && (!max_elo || elo <= max_elo);
  }
  bool passes(const SearchFacts& s) const {
    return (!result || result->holds(s.result)) &&
           (!date || (s.year && date->holds(s.date_number()))) &&
           (!plies || plies->holds(s.plies)) &&
           (!checks_ratings() || (rating_holds(s.white_elo) && rating_holds(s.black_elo))) &&
           (!annotated || s.annotated);
  }
};

}  // namespace pgndb::index
