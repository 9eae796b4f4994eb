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
      if (i == 0 || v < 3) return false;
      e = {previous.suffix, std::uint32_t(previous.game + (v >> 1))};
    } else {
      std::uint8_t a, b, c;
      if (!in.byte(a) || !in.byte(b) || !in.byte(c)) return false;
      e = {(std::uint32_t(a) << 16) | (std::uint32_t(b) << 8) | c, std::uint32_t(v >> 1)};
      if (i > 0 && e.suffix <= previous.suffix) return false;
    }
    out.push_back(e);
    previous = e;
  }
  return in.empty();
}

bool RunFolder::add(std::string_view run) {
  if (!decode_run(run, entries_)) {
    entries_.clear();
    ends_.clear();
    return false;
  }
  ends_.push_back(entries_.size());
  return true;
}

void RunFolder::fold(std::string& out) {
  // Bottom-up merge: each pass merges neighbouring runs pairwise, halving their number.
  while (ends_.size() > 1) {
    merged_.resize(entries_.size());
    std::size_t kept = 0, begin = 0;
    for (std::size_t i = 0; i < ends_.size(); i += 2) {
      const std::size_t middle = ends_[i];
      const std::size_t end = i + 1 < ends_.size() ? ends_[i + 1] : middle;
      std::merge(entries_.begin() + std::ptrdiff_t(begin),
                 entries_.begin() + std::ptrdiff_t(middle),
                 entries_.begin() + std::ptrdiff_t(middle), entries_.begin() + std::ptrdiff_t(end),
                 merged_.begin() + std::ptrdiff_t(begin));
      ends_[kept++] = end;
      begin = end;
    }
    ends_.resize(kept);
    entries_.swap(merged_);
  }
  entries_.erase(std::unique(entries_.begin(), entries_.end()), entries_.end());
  encode_run(entries_, out);
  entries_.clear();
  ends_.clear();
}

}  // namespace pgndb::index::positions
