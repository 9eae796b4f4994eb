// Text encodings met in PGN files: UTF-8 (the output), and Windows-1252 / Latin-1 (old files).
#pragma once

#include <string>
#include <string_view>

namespace pgn {

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF). ASCII text is checked at memory speed.
[[nodiscard]] bool is_valid_utf8(std::string_view text);

// Decodes Windows-1252 (a superset of Latin-1's printable range) into UTF-8. The five bytes
// that Windows-1252 leaves undefined map to the C1 controls of the same value, as Latin-1 does.
[[nodiscard]] std::string windows1252_to_utf8(std::string_view text);

}  // namespace pgn
