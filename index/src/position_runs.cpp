#include "position_runs.h"

#include <algorithm>
#include <bit>

#include "bytes.h"

namespace pgndb::index::positions {

namespace {

// Bits appended most significant first; finish() pads the last byte with zero bits.
class BitWriter {
 public:
  explicit BitWriter(std::string& out) : out_(out) {}
  // The low `bits` (at most 32) of `value`.
  void put(std::uint32_t value, int bits) {
    if (bits == 0) return;
    pending_ = pending_ << bits | (value & mask(bits));
    count_ += bits;
    while (count_ >= 8) {
      count_ -= 8;
      out_ += char(pending_ >> count_);
    }
  }
  void put_rice(std::uint32_t value, int k) {
    for (std::uint32_t q = value >> k; q > 0;) {
      const int ones = int(std::min<std::uint32_t>(q, 24));
      put(mask(ones), ones);
      q -= std::uint32_t(ones);
    }
    put(0, 1);
    put(value, k);
  }
  // `value` >= 1.
  void put_gamma(std::uint32_t value) {
    const int width = std::bit_width(value);
    put(0, width - 1);
    put(value, width);
  }
  void finish() {
    if (count_ > 0) out_ += char(pending_ << (8 - count_));
    count_ = 0;
  }

 private:
  static std::uint32_t mask(int bits) { return bits >= 32 ? ~0u : (1u << bits) - 1; }
  std::string& out_;
  std::uint64_t pending_ = 0;
  int count_ = 0;  // bits of pending_ not yet written
};

class BitReader {
 public:
  explicit BitReader(std::string_view in)
      : at_(reinterpret_cast<const std::uint8_t*>(in.data())), end_(at_ + in.size()) {}
  // `bits` at most 32.
  bool get(int bits, std::uint32_t& value) {
    while (count_ < bits) {
      if (at_ == end_) return false;
      buffer_ = buffer_ << 8 | *at_++;
      count_ += 8;
    }
    count_ -= bits;
    value =
        bits == 0 ? 0 : std::uint32_t(buffer_ >> count_) & (bits >= 32 ? ~0u : (1u << bits) - 1);
    return true;
  }
  bool get_bit(bool& bit) {
    std::uint32_t v;
    if (!get(1, v)) return false;
    bit = v != 0;
    return true;
  }
  // A Rice code of parameter k whose value is at most `limit`.
  bool get_rice(int k, std::uint32_t limit, std::uint32_t& value) {
    std::uint32_t q = 0;
    for (bool one;;) {
      if (!get_bit(one)) return false;
      if (!one) break;
      if (++q > (limit >> k)) return false;
    }
    std::uint32_t low;
    if (!get(k, low)) return false;
    value = q << k | low;
    return value <= limit;
  }
  bool get_gamma(std::uint32_t& value) {
    int zeros = 0;
    for (bool one;;) {
      if (!get_bit(one)) return false;
      if (one) break;
      if (++zeros > 31) return false;
    }
    std::uint32_t low;
    if (!get(zeros, low)) return false;
    value = std::uint32_t(1) << zeros | low;
    return true;
  }
  // Whether the input is used up, with only zero bits left in its last byte.
  bool clean_end() const {
    return at_ == end_ && count_ < 8 && (buffer_ & ((std::uint64_t(1) << count_) - 1)) == 0;
  }

 private:
  const std::uint8_t* at_;
  const std::uint8_t* end_;
  std::uint64_t buffer_ = 0;
  int count_ = 0;  // bits of buffer_ not yet read
};

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
  BitWriter bits(out);
  bits.put_rice(sorted[0].suffix, k);
  bits.put(sorted[0].game, w);
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    const Entry& e = sorted[i];
    const Entry& previous = sorted[i - 1];
    if (e.suffix == previous.suffix) {
      bits.put(1, 1);
      bits.put_gamma(e.game - previous.game);
    } else {
      bits.put(0, 1);
      bits.put_rice(e.suffix - previous.suffix - 1, k);
      bits.put(e.game, w);
    }
  }
  bits.finish();
}

bool decode_run(std::string_view run, std::vector<Entry>& out) {
  bytes::Reader in(run);
  std::uint64_t count;
  if (!in.varint(count)) return false;
  if (count == 0) return in.empty();
  std::uint8_t k, w;
  // Each entry takes two bits at least.
  if (!in.byte(k) || !in.byte(w) || k > suffix_bits || w < 1 || w > 32 ||
      count > 4 * in.remaining() + 4)
    return false;
  BitReader bits(run.substr(run.size() - in.remaining()));
  const std::size_t first = out.size();
  out.reserve(first + count);
  auto refuse = [&] {
    out.resize(first);
    return false;
  };
  Entry e;
  if (!bits.get_rice(k, suffix_mask, e.suffix) || !bits.get(w, e.game)) return refuse();
  out.push_back(e);
  for (std::uint64_t i = 1; i < count; ++i) {
    bool same;
    std::uint32_t v;
    if (!bits.get_bit(same)) return refuse();
    if (same) {
      if (!bits.get_gamma(v) || v > ~e.game) return refuse();
      e.game += v;
    } else {
      if (e.suffix == suffix_mask || !bits.get_rice(k, suffix_mask - e.suffix - 1, v) ||
          !bits.get(w, e.game))
        return refuse();
      e.suffix += v + 1;
    }
    out.push_back(e);
  }
  return bits.clean_end() ? true : refuse();
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
