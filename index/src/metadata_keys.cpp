#include "metadata_keys.h"

#include <charconv>

#include "bytes.h"
#include "pgn/text.h"

namespace pgndb::index::metadata {

std::string name_value(Dimension dimension, std::string_view normalized) {
  std::string value(1, char(dimension));
  value += normalized;
  value += '\0';
  return value;
}

std::string player_value(std::string_view normalized, unsigned colour) {
  std::string value = name_value(Player, normalized);
  value += char(colour);
  return value;
}

std::string name_prefix(Dimension dimension, std::string_view normalized, int colour) {
  return dimension == Player && colour >= 0 ? player_value(normalized, unsigned(colour))
                                            : name_value(dimension, normalized);
}

std::optional<std::string_view> name_of(std::string_view value) {
  if (value.size() < 2 || value.back() != '\0') return std::nullopt;
  return value.substr(1, value.size() - 2);
}

std::optional<std::string_view> stored_name(std::string_view value) {
  if (value.empty()) return std::nullopt;
  const char d = value[0];
  if (d != Player && d != Event && d != Site) return std::nullopt;
  if (d == Player && value.size() > 2) value.remove_suffix(1);  // the colour
  return value;
}

bool parse_date(std::string_view text, DateParts& parts) {
  // yyyy.mm.dd, each part digits or question marks.
  if (text.size() != 10 || text[4] != '.' || text[7] != '.') return false;
  auto part = [&](std::size_t at, std::size_t length, unsigned& value) {
    std::string_view s = text.substr(at, length);
    if (s.find_first_not_of('?') == std::string_view::npos) return value = 0, true;
    auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
    return error == std::errc() && end == s.data() + s.size();
  };
  return part(0, 4, parts.year) && part(5, 2, parts.month) && part(8, 2, parts.day) &&
         parts.month <= 12 && parts.day <= 31;
}

std::string date_value(const DateParts& parts) {
  std::string value(1, char(Date));
  bytes::put_big_endian16(value, std::uint16_t(parts.year));
  value += char(parts.month);
  value += char(parts.day);
  return value;
}

std::string date_value(std::uint32_t packed) {
  return date_value(DateParts{packed >> 16, packed >> 8 & 0xFF, packed & 0xFF});
}

std::string date_text(std::string_view value) {
  const unsigned year = bytes::read_big_endian16(value.substr(1));
  auto two = [](unsigned v) {
    return v ? std::string{char('0' + v / 10), char('0' + v % 10)} : std::string("??");
  };
  return pgn::cat(year / 1000, year / 100 % 10, year / 10 % 10, year % 10, '.',
                  two(std::uint8_t(value[3])), '.', two(std::uint8_t(value[4])));
}

std::string eco_value(std::string_view code) { return char(Eco) + std::string(code); }

bool is_eco_code(std::string_view tag) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  return tag.size() == 3 && tag[0] >= 'A' && tag[0] <= 'E' && digit(tag[1]) && digit(tag[2]);
}

std::size_t value_size(char dimension) {
  switch (dimension) {
    case Date: return 4;
    case Eco: return 3;
    case Material: return 5;
    default: return 0;
  }
}

std::string past_value(std::string_view value) {
  return std::string(value) + std::string(5, '\xFF');
}

std::optional<std::uint32_t> game_id_of(std::string_view key) {
  if (key.size() < 5) return std::nullopt;
  return bytes::read_big_endian32(key.substr(key.size() - 4));
}

}  // namespace pgndb::index::metadata
