#include "position_runs.h"

#include <algorithm>

#include "bytes.h"

namespace pgndb::index::positions {

void encode_run(const std::vector<Entry>& sorted, std::string& out) {
  bytes::put_varint(out, sorted.size());
  const Entry* previous = nullptr;
  for (const Entry& e : sorted) {
    if (previous && previous->suffix == e.suffix) {
      bytes::put_varint(out, (std::uint64_t(e.game - previous->game) << 1) | 1);
    } else {
      bytes::put_varint(out, std::uint64_t(e.game) << 1);
      out += char(e.suffix >> 16);
      out += char(e.suffix >> 8);
      out += char(e.suffix);
    }
    previous = &e;
  }
}

void fold_runs(std::vector<Entry>& entries, std::string& out) {
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  encode_run(entries, out);
}

bool decode_run(std::string_view run, std::vector<Entry>& out) {
  bytes::Reader in(run);
  std::uint64_t count;
  if (!in.varint(count) || count > run.size()) return false;
  Entry previous{0, 0};
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t v;
    if (!in.varint(v)) return false;
    Entry e;
    if (v & 1) {
      if (i == 0) return false;
      e = {previous.suffix, std::uint32_t(previous.game + (v >> 1))};
    } else {
      std::uint8_t a, b, c;
      if (!in.byte(a) || !in.byte(b) || !in.byte(c)) return false;
      e = {(std::uint32_t(a) << 16) | (std::uint32_t(b) << 8) | c, std::uint32_t(v >> 1)};
    }
    out.push_back(e);
    previous = e;
  }
  return in.empty();
}

}  // namespace pgndb::index::positions
