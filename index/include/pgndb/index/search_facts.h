// The fixed facts of a game that filters check and searches sort by: result, date, ratings,
// plies, annotated. They are kept for every game in the `facts` column family, bit-packed in
// columns (docs/storage.md, "Facts"), so that checking a million candidates reads a few
// megabytes without decompressing anything.
#pragma once

#include <cstdint>

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

}  // namespace pgndb::index
