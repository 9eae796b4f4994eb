#include "position_runs.h"

#include <algorithm>
#include <bit>

#include "bytes.h"

namespace pgndb::index::positions {

namespace {

// Bits appended most significant first through a 64-bit word, written out 32 bits at a time;
// finish() pads the last byte with zero bits.
class BitWriter {
 public:
  explicit BitWriter(std::string& out) : out_(out) {}
  // The low `bits` (at most 32) of `value`.
  void put(std::uint32_t value, int bits) {
    if (bits == 0) return;
    const std::uint64_t low = bits == 32 ? value : value & ((std::uint32_t(1) << bits) - 1);
    word_ |= low << (64 - count_ - bits);
    count_ += bits;
    if (count_ >= 32) {
      const char bytes[4] = {char(word_ >> 56), char(word_ >> 48), char(word_ >> 40),
                             char(word_ >> 32)};
      out_.append(bytes, 4);
      word_ <<= 32;
      count_ -= 32;
    }
  }
  void put_rice(std::uint32_t value, int k) {
    std::uint32_t q = value >> k;
    for (; q >= 31; q -= 31) put(0x7FFFFFFF, 31);
    put(((std::uint32_t(1) << q) - 1) << 1, int(q) + 1);  // q ones and a zero
    put(value, k);
  }
  // `value` >= 1: width - 1 zeros, then the value in width bits.
  void put_gamma(std::uint32_t value) {
    const int width = std::bit_width(value);
    if (2 * width - 1 <= 32) {
      put(value, 2 * width - 1);
    } else {
      put(0, width - 1);
      put(value, width);
    }
  }
  void finish() {
    for (; count_ > 0; count_ -= 8) {
      out_ += char(word_ >> 56);
      word_ <<= 8;
    }
    count_ = 0;
  }

 private:
  std::string& out_;
  std::uint64_t word_ = 0;  // the pending bits, most significant first
  int count_ = 0;           // how many (below 32 between calls)
};

// Bits read most significant first through a 64-bit window (the next bits, left-aligned), so
// that a unary or gamma code's run of equal bits is counted in one instruction rather than bit
// by bit: decoding is most of a merge's time.
class BitReader {
 public:
  explicit BitReader(std::string_view in)
      : at_(reinterpret_cast<const std::uint8_t*>(in.data())), end_(at_ + in.size()) {}
  // `bits` at most 32.
  bool get(int bits, std::uint32_t& value) {
    if (bits == 0) {
      value = 0;
      return true;
    }
    if (count_ < bits && (refill(), count_ < bits)) return false;
    value = std::uint32_t(window_ >> (64 - bits));
    consume(bits);
    return true;
  }
  bool get_bit(bool& bit) {
    if (count_ == 0 && (refill(), count_ == 0)) return false;
    bit = window_ >> 63;
    consume(1);
    return true;
  }
  // A Rice code of parameter k whose value is at most `limit`.
  bool get_rice(int k, std::uint32_t limit, std::uint32_t& value) {
    std::uint32_t q;
    if (!run_of(true, limit >> k, q)) return false;
    std::uint32_t low;
    if (!get(k, low)) return false;
    value = q << k | low;
    return value <= limit;
  }
  bool get_gamma(std::uint32_t& value) {
    std::uint32_t zeros;
    if (!run_of(false, 31, zeros)) return false;
    std::uint32_t low;
    if (!get(int(zeros), low)) return false;
    value = std::uint32_t(1) << zeros | low;
    return true;
  }
  // Whether the input is used up, with only zero bits left in its last byte.
  bool clean_end() const { return at_ == end_ && count_ < 8 && window_ == 0; }

 private:
  void refill() {
    while (count_ <= 56 && at_ != end_) {
      window_ |= std::uint64_t(*at_++) << (56 - count_);
      count_ += 8;
    }
  }
  void consume(int bits) {
    window_ = bits >= 64 ? 0 : window_ << bits;
    count_ -= bits;
  }
  // Reads bits equal to `one` up to the first other bit, which is consumed too: their count,
  // at most `limit`.
  bool run_of(bool one, std::uint32_t limit, std::uint32_t& run) {
    run = 0;
    for (;;) {
      if (count_ == 0 && (refill(), count_ == 0)) return false;
      const int same = std::min(one ? std::countl_one(window_) : std::countl_zero(window_), count_);
      run += std::uint32_t(same);
      if (run > limit) return false;
      if (same < count_) {
        consume(same + 1);
        return true;
      }
      consume(same);
    }
  }

  const std::uint8_t* at_;
  const std::uint8_t* end_;
  std::uint64_t window_ = 0;  // the next count_ bits, most significant first; zeros after them
  int count_ = 0;
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
  out.reserve(out.size() + sorted.size() * 5 + 8);
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
  // Geometric growth: a folder decodes a bucket's runs one after another into one vector.
  if (out.capacity() < first + count) out.reserve(std::max(first + count, 2 * out.capacity()));
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
