#include "position_runs.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>

#include "bit_stream.h"
#include "bytes.h"

namespace pgndb::index::positions {

namespace {

// The Rice parameter for gaps averaging `mean`: the codes then take about log2(mean) + 1.5 bits.
int rice_parameter(std::uint64_t mean) {
  return mean == 0 ? 0 : std::min(int(std::bit_width(mean)) - 1, suffix_bits);
}

}  // namespace

std::optional<std::uint32_t> parse_bucket_key(std::string_view key) {
  if (key.size() != bucket_key_size) return std::nullopt;
  const std::uint32_t bucket = std::uint32_t(std::uint8_t(key[0])) << 16 |
                               std::uint32_t(std::uint8_t(key[1])) << 8 | std::uint8_t(key[2]);
  if (bucket >= bucket_count) return std::nullopt;
  return bucket;
}

void encode_run(const std::vector<Entry>& sorted, std::string& out) {
  bytes::put_varint(out, sorted.size());
  if (sorted.empty()) return;
  std::uint32_t largest_game = 0, distinct = 1;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    largest_game = std::max(largest_game, sorted[i].game);
    distinct += i > 0 && sorted[i].suffix != sorted[i - 1].suffix;
  }
  const int k = rice_parameter((sorted.back().suffix + 1ull) / distinct);
  const int w = std::max(1, int(std::bit_width(largest_game)));
  out += char(k);
  out += char(w);
  out.reserve(out.size() + sorted.size() * 5 + 16);
  BitWriter bits(out);
  bits.put_rice(sorted[0].suffix, k);
  bits.put(sorted[0].game, w);
  // The flag bit goes out with the code after it, in one put where they fit 32 bits.
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    const Entry& e = sorted[i];
    const Entry& previous = sorted[i - 1];
    if (e.suffix == previous.suffix) {
      const std::uint32_t distance = e.game - previous.game;
      const int width = std::bit_width(distance);
      if (2 * width <= 32) {
        bits.put(std::uint32_t(1) << (2 * width - 1) | distance, 2 * width);
      } else {
        bits.put(1, 1);
        bits.put_gamma(distance);
      }
    } else {
      const std::uint32_t gap = e.suffix - previous.suffix - 1;
      const std::uint32_t q = gap >> k;
      if (q + 2 + std::uint32_t(k) <= 32) {
        const std::uint32_t low = gap & ((std::uint32_t(1) << k) - 1);
        bits.put(((std::uint32_t(1) << q) - 1) << (k + 1) | low, int(q) + 2 + k);
      } else {
        bits.put(0, 1);
        bits.put_rice(gap, k);
      }
      bits.put(e.game, w);
    }
  }
  bits.finish();
}

bool RunReader::open(std::string_view run) {
  *this = RunReader();
  bytes::Reader in(run);
  std::uint64_t count;
  if (!in.varint(count)) return false;
  if (count == 0) {
    bits_ = BitReader(run.substr(run.size() - in.remaining()));
    return in.empty();
  }
  // Each entry takes two bits at least.
  if (!in.byte(k_) || !in.byte(w_) || k_ > suffix_bits || w_ < 1 || w_ > 32 ||
      count > 4 * in.remaining() + 4)
    return false;
  bits_ = BitReader(run.substr(run.size() - in.remaining()));
  left_ = count;
  return true;
}

bool RunReader::next(Entry& e) {
  if (left_ == 0 || damaged_) return false;
  --left_;
  auto refuse = [&] {
    damaged_ = true;
    left_ = 0;
    return false;
  };
  if (first_) {
    first_ = false;
    if (!bits_.get_rice(k_, suffix_mask, last_.suffix) || !bits_.get(w_, last_.game))
      return refuse();
    e = last_;
    return true;
  }
  bool same;
  std::uint32_t v;
  if (!bits_.get_bit(same)) return refuse();
  if (same) {
    if (!bits_.get_gamma(v) || v > ~last_.game) return refuse();
    last_.game += v;
  } else {
    if (last_.suffix == suffix_mask || !bits_.get_rice(k_, suffix_mask - last_.suffix - 1, v) ||
        !bits_.get(w_, last_.game))
      return refuse();
    last_.suffix += v + 1;
  }
  e = last_;
  return true;
}

bool RunReader::clean_end() const { return !damaged_ && left_ == 0 && bits_.clean_end(); }

bool decode_run(std::string_view run, std::vector<Entry>& out) {
  RunReader reader;
  if (!reader.open(run)) return false;
  const std::size_t first = out.size();
  const std::uint64_t count = reader.remaining();
  // Geometric growth: a folder decodes a bucket's runs one after another into one vector.
  if (out.capacity() < first + count) out.reserve(std::max(first + count, 2 * out.capacity()));
  Entry e;
  while (reader.next(e)) out.push_back(e);
  if (reader.clean_end()) return true;
  out.resize(first);
  return false;
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

namespace {

// Merges the sorted ranges [a, a_end) and [b, b_end) into `out`, without a branch on which
// entry comes first: in a bucket's runs that is a coin toss, and mispredicting it cost most of
// a fold.
Entry* merge_two(const Entry* a, const Entry* a_end, const Entry* b, const Entry* b_end,
                 Entry* out) {
  static_assert(sizeof(Entry) == 8 && offsetof(Entry, game) == 4);
  // (suffix, game) as one number, from one load: the entry's bytes as a little-endian word
  // hold the game above the suffix, which a rotation swaps.
  auto order = [](const Entry& e) {
    std::uint64_t word;
    std::memcpy(&word, &e, 8);
    if constexpr (std::endian::native == std::endian::little) return std::rotl(word, 32);
    return word;
  };
  while (a != a_end && b != b_end) {
    const bool take_b = order(*b) < order(*a);
    *out++ = take_b ? *b : *a;
    b += take_b;
    a += !take_b;
  }
  out = std::copy(a, a_end, out);
  return std::copy(b, b_end, out);
}

}  // namespace

void RunFolder::fold(std::string& out) {
  // Bottom-up merge: each pass merges neighbouring runs pairwise, halving their number.
  while (ends_.size() > 1) {
    merged_.resize(entries_.size());
    std::size_t kept = 0, begin = 0;
    for (std::size_t i = 0; i < ends_.size(); i += 2) {
      const std::size_t middle = ends_[i];
      const std::size_t end = i + 1 < ends_.size() ? ends_[i + 1] : middle;
      merge_two(entries_.data() + begin, entries_.data() + middle, entries_.data() + middle,
                entries_.data() + end, merged_.data() + begin);
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
