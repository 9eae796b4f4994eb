// Keys of the metadata index (docs/storage.md, "Metadata"), and their one owner: the writer
// (prepared_game.cpp, store.cpp's batch), the searches (store.cpp) and the upgrades build and
// read them only through this header. A key is one byte naming the dimension, the value in a
// form whose byte order is the value's order, then the game id (4 bytes, big-endian), so that
// every game with a given value, or in a range of values, is one range scan in id order.
// Since schema 15 no such key is stored: every value's games are lists in the postings family
// (value_postings.h: the dimension and the value as here, without the game id); the keys (a
// value and an id) remain what a game's metadata is, and what the verifier compares. The
// metadata family stays, empty (schema 13 moved dates and ECO codes, 15 the names).
//
// The verifier (game_facts.cpp) writes the keys a game should have from docs/storage.md's table
// on purpose, beside this header: a fault here then shows as a difference.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pgndb::index::metadata {

enum Dimension : char {
  Player = 'p',  // normalised name, 0, colour (0 White, 1 Black)
  Event = 'e',   // normalised name, 0
  Site = 's',    // normalised name, 0
  Date = 'd',    // year (2 bytes), month, day; 0 for each unknown (`??`) part
  Eco = 'o',     // the three characters of the ECO code (A00..E99)
  // Schema 22: a material balance (material_record.h, 5 bytes) the main line held while a move
  // was played, or ended with. Only the postings keep them (no metadata key is ever stored), so
  // a material search reads the lists of the balances that match.
  Material = 'm',
  // Up to schema 10, also 'r' (result) and 'n' (plies): the facts family answers them now
  // (search_facts.h), and an upgrade deletes their keys.
  RetiredResult = 'r',
  RetiredPlies = 'n',
};

// Values (keys without their game id).

// A name's value: the dimension, the normalised name (names.h), 0; a player's then the colour
// (0 White, 1 Black).
[[nodiscard]] std::string name_value(Dimension dimension, std::string_view normalized);
[[nodiscard]] std::string player_value(std::string_view normalized, unsigned colour);
// The prefix every key of a name has: of both colours' keys of a player when `colour` < 0.
[[nodiscard]] std::string name_prefix(Dimension dimension, std::string_view normalized, int colour);
// The normalised name of a name value without a colour (a key of the names family); nothing
// when `value` is not one.
[[nodiscard]] std::optional<std::string_view> name_of(std::string_view value);
// The name a name value stands for in the names family (name_index.h): the value without a
// player's colour. Nothing for the other dimensions.
[[nodiscard]] std::optional<std::string_view> stored_name(std::string_view value);

// Date parts from a PGN date such as `1994.??.??`; false when it is not of that form at all.
struct DateParts {
  unsigned year = 0, month = 0, day = 0;
};
[[nodiscard]] bool parse_date(std::string_view text, DateParts& parts);
[[nodiscard]] std::string date_value(const DateParts& parts);
// The value of a date given as year << 16 | month << 8 | day (Store::games_dated's form).
[[nodiscard]] std::string date_value(std::uint32_t packed);
// The date a date value (with or without its game id) stands for, as PGN writes it:
// `1994.??.??`.
[[nodiscard]] std::string date_text(std::string_view value);
// An ECO code's value: `code` is a letter A..E and two digits (the caller checks).
[[nodiscard]] std::string eco_value(std::string_view code);
// Whether an ECO tag is a code of that form.
[[nodiscard]] bool is_eco_code(std::string_view tag);

// The bytes of a value of a dimension of fixed size, after the dimension byte: 4 for a date, 3
// for an ECO code, 5 for a balance; 0 for the names.
[[nodiscard]] std::size_t value_size(char dimension);

// The first key past every key of `value` (a value, or a prefix of one): its keys are the
// value, then 4 bytes of game id, so anything they can be is below this.
[[nodiscard]] std::string past_value(std::string_view value);

// Keys: a value, then the game id (4 bytes, big-endian).
// The game id of a key; nothing when the key is too short to hold a value and an id.
[[nodiscard]] std::optional<std::uint32_t> game_id_of(std::string_view key);

}  // namespace pgndb::index::metadata
