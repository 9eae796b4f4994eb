// Keys of the metadata index (docs/storage.md, "Metadata"): one byte naming the dimension, the
// value in a form whose byte order is the value's order, then the game id (4 bytes, big-endian),
// so that every game with a given value, or in a range of values, is one range scan in id order.
// Dates and ECO codes are built the same way, then kept as lists of games in the postings family
// instead (value_postings.h: the dimension and the value as here, without the game id).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pgndb::index::metadata {

enum Dimension : char {
  Player = 'p',  // normalised name, 0, colour (0 White, 1 Black)
  Event = 'e',   // normalised name, 0
  Site = 's',    // normalised name, 0
  Date = 'd',    // year (2 bytes), month, day; 0 for each unknown (`??`) part
  Eco = 'o',     // the three characters of the ECO code (A00..E99)
  // Up to schema 10, also 'r' (result) and 'n' (plies): the facts family answers them now
  // (search_facts.h), and an upgrade deletes their keys.
  RetiredResult = 'r',
  RetiredPlies = 'n',
};

inline void put16(std::string& out, unsigned v) {
  out += char(v >> 8);
  out += char(v);
}

// The first key past every key of `value` (a key without its game id, or a prefix of one):
// its keys are the value, then 4 bytes of game id, so anything they can be is below this.
inline std::string past_value(std::string_view value) {
  return std::string(value) + std::string(5, '\xFF');
}

// Date parts from a PGN date such as `1994.??.??`; false when it is not of that form at all.
struct DateParts {
  unsigned year = 0, month = 0, day = 0;
};
[[nodiscard]] bool parse_date(std::string_view text, DateParts& parts);
// The key of a date, without the game id.
[[nodiscard]] std::string date_key(const DateParts& parts);
// The date a date key (with or without its game id) stands for, as PGN writes it: `1994.??.??`.
[[nodiscard]] std::string date_text(std::string_view key);

}  // namespace pgndb::index::metadata
