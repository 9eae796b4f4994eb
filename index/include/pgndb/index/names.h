// How names and other tag texts are compared in the metadata indexes: the same person written
// "Carlsen, Magnus", "CARLSEN,Magnus" and "Carlsen, M." sorts together, and "Ulf Andersson"
// is found as "ulf andersson" or "andersson" (the query layer matches prefixes of words).
#pragma once

#include <string>
#include <string_view>

namespace pgndb::index {

// Lower case; Latin letters with accents folded to their base letters (U+00C0..U+017F: "é" ->
// "e", "ß" -> "ss", "Ł" -> "l"); other characters kept as they are; dots dropped; runs of white
// space made one space; no space before a comma and one after it; trimmed. The tag's own text
// stays in the game.
[[nodiscard]] std::string normalize_name(std::string_view name);

}  // namespace pgndb::index
