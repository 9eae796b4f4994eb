// How names and other tag texts are compared in the metadata indexes: the same person written
// "Carlsen, Magnus", "CARLSEN,Magnus" and "Carlsen, M." sorts together, and "Ulf Andersson"
// is found as "ulf andersson" or "andersson" (the query layer matches prefixes of words).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pgndb::index {

// Lower case; Latin letters with accents folded to their base letters (U+00C0..U+017F: "é" ->
// "e", "ß" -> "ss", "Ł" -> "l"); other characters kept as they are; dots dropped; runs of white
// space made one space; no space before a comma and one after it; trimmed. The tag's own text
// stays in the game.
[[nodiscard]] std::string normalize_name(std::string_view name);

// A name's search key: the letters and digits of its normalised form (bytes of other scripts
// kept), so that "Kasparov, Garry", "Kasparov,G" and "Kasparov G." all contain "kasparovg".
// Searches by part of a name look for a search key inside the names' search keys.
[[nodiscard]] std::string name_search_key(std::string_view normalized);
// Whether a byte of a normalised name is in its search key.
[[nodiscard]] inline bool in_search_key(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         std::uint8_t(c) >= 0x80;
}
// Whether the search key of `normalized` contains `key` (a search key), found by skipping the
// other characters rather than building the key of each of thousands of names. An empty key
// is in every name.
[[nodiscard]] bool search_key_contains(std::string_view normalized, std::string_view key);

}  // namespace pgndb::index
