// A group of consecutive games' facts (search_facts.h), the value of one key of the `facts`
// column family (docs/storage.md, "Facts"). The layout, owned here:
//
//   varint  n, the games in the group (1..65,536)
//   11 x    one column per field, in the order result, annotated, year, month, day, White's
//           Elo, Black's Elo, plies, speed (pgn::Speed, since schema 19), ending
//           (SearchFacts::ending_code, since schema 20), opening (pgn::OpeningId, since schema
//           21): varint base, then 1 byte width (0..16 bits)
//   11 x    the column's n values, `width` bits each, packed from bit 0 of the first byte
//           (little-endian), the column padded to a whole byte
//   7 bytes of zeros, so that a value is read with one unaligned 8-byte load
//
// A stored value 0 is the field's 0 (unknown, or none); a value v > 0 is base + v - 1, base
// being the smallest non-zero value of the column in the group. Ratings of 0 and 1,800..2,850
// take 11 bits, not 12. A column of width 0 holds `base` for every game: a column the same all
// over (the year of one lichess dump, a group without annotations) takes no bits.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <span>
#include <string>
#include <string_view>

#include "pgndb/index/search_facts.h"
#include "pgndb/index/status.h"

namespace pgndb::index::facts {

// The games of one group at most: a group ends before an id that is a multiple of this, or
// where an import batch ends.
inline constexpr std::uint32_t group_size = 4096;
// The most games a group whose first game is `first` may hold: the rule above, in one place.
inline constexpr std::size_t group_capacity(std::uint32_t first) {
  return group_size - first % group_size;
}

// Appends the group of `games` (1..65,536 of them) to `out`.
void encode_group(std::span<const SearchFacts> games, std::string& out);

// A stored group, read where it lies: the bytes must outlive it.
class GroupView {
 public:
  // Corruption when the bytes are not a group.
  [[nodiscard]] static std::expected<GroupView, Status> parse(std::string_view bytes);
  // A group of schema 18, without the speed and ending columns (every game's speed unknown, its
  // ending None), or of 19, without the ending column: what the upgrade reads.
  [[nodiscard]] static std::expected<GroupView, Status> parse_schema_18(std::string_view bytes);
  [[nodiscard]] static std::expected<GroupView, Status> parse_schema_19(std::string_view bytes);
  // Of 20: without the opening column (every game's opening 0).
  [[nodiscard]] static std::expected<GroupView, Status> parse_schema_20(std::string_view bytes);

  std::size_t size() const { return size_; }
  // The facts of the i-th game of the group (i < size()).
  SearchFacts at(std::size_t i) const;
  // Whether the i-th game passes `filter` (as FactsFilter::passes), reading only the fields it
  // names: a search checks a million candidates' ratings.
  bool passes(std::size_t i, const FactsFilter& filter) const;

 private:
  enum Field {
    Result,
    Annotated,
    Year,
    Month,
    Day,
    WhiteElo,
    BlackElo,
    Plies,
    Speed,
    Ending,
    Opening,
    FieldCount
  };
  struct Column {
    const std::uint8_t* bits = nullptr;
    std::uint32_t base = 0;
    std::uint8_t width = 0;
  };
  std::uint32_t value(Field f, std::size_t i) const;
  static std::expected<GroupView, Status> parse_columns(std::string_view bytes,
                                                        std::size_t columns);

  std::size_t size_ = 0;
  std::array<Column, FieldCount> columns_{};
};

}  // namespace pgndb::index::facts
