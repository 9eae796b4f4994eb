// The stored form of a game's comments (game format 3, docs/storage.md "Games"). Most comments
// of lichess games are nothing but a clock, or an eval and a clock, written one way:
// ` [%clk 0:03:00] `, ` [%eval 0.59] [%clk 0:03:00] `, ` [%eval #-3] [%clk 0:00:41] `. Such a
// comment is kept as two or three varints instead of its 16 to 30 bytes of text; any other
// comment, and any of those shapes written another way (`0:3:00`, `-0.0`, `0.590`, two spaces),
// is kept as its text. The form is chosen by writing the numbers back and comparing with the
// comment, so every comment decodes to exactly its bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bytes.h"

namespace pgndb::index::comments {

// A list of comments: a varint count, then per comment a varint header h. An even h is a comment
// of h / 2 bytes of text, which follow. An odd h is a command comment of kind h >> 1:
//   0  ` [%clk C] `                 then varint C (seconds; written H:MM:SS)
//   1  ` [%eval E] [%clk C] `       then varint E, varint C
//   2  ` [%eval #M] [%clk C] `      then varint zigzag(M), varint C
// E is zigzag(v) * 3 + d: the eval's digits without the point as a number v, and d (0 to 2) the
// digits after the point (`0.59` is v = 59, d = 2; `-4.0` is v = -40, d = 1; `3` is v = 3, d = 0).
void put(std::string& out, const std::vector<std::string>& comments);

// Reads a list put() wrote; false on bytes that are not one. `compact` false (game format 2)
// takes every comment as text, the list's only form then.
[[nodiscard]] bool get(bytes::Reader& in, std::vector<std::string>& comments, bool compact);

}  // namespace pgndb::index::comments
