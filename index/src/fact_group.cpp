#include "fact_group.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "bytes.h"

namespace pgndb::index::facts {

namespace {

constexpr std::size_t field_count = 11;
constexpr std::size_t padding = 7;
constexpr std::size_t max_games = 65536;

// Field f of a game's facts, in the columns' order (fact_group.h).
std::uint32_t field_of(const SearchFacts& r, std::size_t f) {
  switch (f) {
    case 0: return r.result;
    case 1: return r.annotated ? 1 : 0;
    case 2: return r.year;
    case 3: return r.month;
    case 4: return r.day;
    case 5: return r.white_elo;
    case 6: return r.black_elo;
    case 7: return r.plies;
    case 8: return std::uint32_t(r.speed);
    case 9: return r.ending_code();
    default: return r.opening_id;
  }
}

// The largest value each field may hold: a column of a damaged group decoding above it is
// refused.
constexpr std::array<std::uint32_t, field_count> field_max = {
    3, 1, 65535, 255, 255, 65535, 65535, 65535, pgn::speed_count - 1, 31, 65535};

}  // namespace

void encode_group(std::span<const SearchFacts> games, std::string& out) {
  bytes::put_varint(out, games.size());
  std::array<std::uint32_t, field_count> base, width;
  for (std::size_t f = 0; f < field_count; ++f) {
    std::uint32_t low = 0, high = 0;
    bool zeros = false;
    for (const SearchFacts& g : games) {
      const std::uint32_t v = field_of(g, f);
      zeros |= v == 0;
      if (v == 0) continue;
      low = low == 0 ? v : std::min(low, v);
      high = std::max(high, v);
    }
    base[f] = low;
    // One value in every game (zero or not) takes no bits.
    const bool constant = high == 0 || (!zeros && low == high);
    width[f] = constant ? 0 : std::uint32_t(std::bit_width(high - low + 1));
    bytes::put_varint(out, base[f]);
    out += char(width[f]);
  }
  for (std::size_t f = 0; f < field_count; ++f) {
    const std::size_t start = out.size();
    out.append((games.size() * width[f] + 7) / 8, '\0');
    if (width[f] == 0) continue;
    auto* column = reinterpret_cast<std::uint8_t*>(out.data() + start);
    for (std::size_t i = 0; i < games.size(); ++i) {
      const std::uint32_t v = field_of(games[i], f);
      const std::uint32_t stored = v == 0 ? 0 : v - base[f] + 1;
      const std::size_t bit = i * width[f];
      // At most 16 bits from bit 0-7 of a byte: three bytes at most.
      const std::uint32_t shifted = stored << (bit % 8);
      for (std::size_t b = 0; b < 3 && (b * 8 < (bit % 8) + width[f]); ++b)
        column[bit / 8 + b] |= std::uint8_t(shifted >> (8 * b));
    }
  }
  out.append(padding, '\0');
}

std::expected<GroupView, Status> GroupView::parse(std::string_view bytes) {
  return parse_columns(bytes, field_count);
}

std::expected<GroupView, Status> GroupView::parse_schema_18(std::string_view bytes) {
  return parse_columns(bytes, Speed);
}

std::expected<GroupView, Status> GroupView::parse_schema_19(std::string_view bytes) {
  return parse_columns(bytes, Ending);
}

std::expected<GroupView, Status> GroupView::parse_schema_20(std::string_view bytes) {
  return parse_columns(bytes, Opening);
}

std::expected<GroupView, Status> GroupView::parse_columns(std::string_view bytes,
                                                          std::size_t columns) {
  auto damaged = [] {
    return std::unexpected(Status::error(Status::Code::Corruption, "game facts damaged"));
  };
  bytes::Reader in(bytes);
  std::uint64_t n = 0;
  if (!in.varint(n) || n == 0 || n > max_games) return damaged();
  GroupView view;
  view.size_ = std::size_t(n);
  std::size_t columns_bytes = 0;
  for (std::size_t f = 0; f < columns; ++f) {
    std::uint64_t base = 0;
    std::uint8_t width = 0;
    if (!in.varint(base) || !in.byte(width) || base > field_max[f]) return damaged();
    // A column of values is as wide as the field's range above its base, at most; a column
    // of zeros has neither base nor width.
    if (base == 0 && width != 0) return damaged();
    if (width > 0 && width > std::bit_width(field_max[f] - base + 1)) return damaged();
    view.columns_[f].base = std::uint32_t(base);
    view.columns_[f].width = width;
    columns_bytes += (view.size_ * width + 7) / 8;
  }
  if (in.remaining() != columns_bytes + padding) return damaged();
  const auto* at =
      reinterpret_cast<const std::uint8_t*>(bytes.data() + (bytes.size() - in.remaining()));
  for (std::size_t f = 0; f < columns; ++f) {
    Column& c = view.columns_[f];
    c.bits = at;
    at += (view.size_ * c.width + 7) / 8;
  }
  // A column whose width could hold a value past its field's largest (base + 2^width - 2 >
  // max, as a base of 1,000 and 16 bits of years can) is read whole here, once: no value in it
  // may decode past the largest, which at() would truncate.
  for (std::size_t f = 0; f < columns; ++f) {
    const Column& c = view.columns_[f];
    if (c.width == 0 || c.base + ((std::uint64_t(1) << c.width) - 2) <= field_max[f]) continue;
    for (std::size_t i = 0; i < view.size_; ++i)
      if (view.value(Field(f), i) > field_max[f]) return damaged();
  }
  return view;
}

std::uint32_t GroupView::value(Field f, std::size_t i) const {
  const Column& c = columns_[f];
  if (c.width == 0) return c.base;  // the same value in every game
  const std::size_t bit = i * c.width;
  std::uint64_t word;
  std::memcpy(&word, c.bits + bit / 8, sizeof word);  // the padding keeps this in the value
  if constexpr (std::endian::native == std::endian::big) word = std::byteswap(word);
  const std::uint32_t stored = std::uint32_t(word >> (bit % 8)) & ((1u << c.width) - 1);
  return stored == 0 ? 0 : c.base + stored - 1;
}

SearchFacts GroupView::at(std::size_t i) const {
  SearchFacts r;
  r.result = std::uint8_t(value(Result, i));
  r.annotated = value(Annotated, i) != 0;
  r.year = std::uint16_t(value(Year, i));
  r.month = std::uint8_t(value(Month, i));
  r.day = std::uint8_t(value(Day, i));
  r.white_elo = std::uint16_t(value(WhiteElo, i));
  r.black_elo = std::uint16_t(value(BlackElo, i));
  r.plies = std::uint16_t(value(Plies, i));
  r.speed = pgn::Speed(value(Speed, i));
  r.set_ending_code(value(Ending, i));
  r.opening_id = pgn::OpeningId(value(Opening, i));
  return r;
}

}  // namespace pgndb::index::facts

namespace pgndb::index::facts {

bool GroupView::passes(std::size_t i, const FactsFilter& filter) const {
  if (filter.checks_ratings() &&
      !(filter.rating_holds(value(WhiteElo, i)) && filter.rating_holds(value(BlackElo, i))))
    return false;
  if (filter.result && !filter.result->holds(value(Result, i))) return false;
  if (filter.date) {
    const std::uint32_t year = value(Year, i);
    if (!year || !filter.date->holds(year << 16 | value(Month, i) << 8 | value(Day, i)))
      return false;
  }
  if (filter.plies && !filter.plies->holds(value(Plies, i))) return false;
  if (filter.speeds && !(filter.speeds >> value(Speed, i) & 1)) return false;
  if (filter.rating_groups && !filter.in_rating_groups(value(WhiteElo, i), value(BlackElo, i)))
    return false;
  if (filter.checks_ending() && !filter.ending_holds(value(Ending, i))) return false;
  if (filter.openings && !filter.opening_holds(value(Opening, i))) return false;
  return !filter.annotated || value(Annotated, i) != 0;
}

}  // namespace pgndb::index::facts
