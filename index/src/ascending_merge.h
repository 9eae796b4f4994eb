// Merging ascending streams of game ids whose ids are all different (the generations of the
// position index hold different games), a few at a time.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pgndb::index {

// Appends to `out` up to `n` ids of `streams`, the smallest first. A stream has `bool live`,
// `std::uint32_t head` (its next id, while live) and `bool advance()` (moves to its next id,
// clearing `live` at its end; false when it cannot be read). Returns false when a stream's
// advance() does. `taken` counts the ids appended.
//
// The generations' ids usually come in stretches (a generation's ids follow an earlier one's),
// so the lowest stream gives every id below the other streams' heads at once: one comparison an
// id, and one scan of the heads a stretch.
template <class Streams>
[[nodiscard]] bool take_ascending(Streams& streams, std::size_t n, std::vector<std::uint32_t>& out,
                                  std::size_t& taken) {
  taken = 0;
  while (taken < n) {
    auto* low = static_cast<decltype(&*streams[0])>(nullptr);
    std::uint32_t bound = ~std::uint32_t(0);
    bool bounded = false;  // whether another stream is live: its head bounds the stretch
    for (auto& s : streams) {
      if (!s->live) continue;
      if (!low || s->head < low->head) {
        if (low) bound = std::min(bound, low->head), bounded = true;
        low = &*s;
      } else {
        bound = std::min(bound, s->head), bounded = true;
      }
    }
    if (!low) break;
    do {
      out.push_back(low->head);
      ++taken;
      if (!low->advance()) return false;
    } while (low->live && (!bounded || low->head < bound) && taken < n);
  }
  return true;
}

}  // namespace pgndb::index
