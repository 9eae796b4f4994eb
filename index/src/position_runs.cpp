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

// Marks a grouped run's k byte (position_runs.h): schema 9's runs kept k below it.
constexpr std::uint8_t grouped_flag = 0x80;

// The Rice parameter of the distances between the games of a group of `count` whose first game is
// `first`, among ids up to `largest`.
int game_gap_parameter(std::uint32_t first, std::uint32_t largest, std::uint64_t count) {
  const std::uint64_t mean = (std::uint64_t(largest) - first) / count;
  return mean == 0 ? 0 : int(std::bit_width(mean)) - 1;
}

std::uint32_t largest_of_width(int w) { return std::uint32_t(~std::uint64_t(0) >> (64 - w)); }

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
  const std::uint32_t largest = largest_of_width(w);
  out += char(grouped_flag | k);
  out += char(w);
  out.reserve(out.size() + sorted.size() * 5 + 16);
  BitWriter bits(out);
  for (std::size_t i = 0; i < sorted.size();) {
    const std::uint32_t suffix = sorted[i].suffix;
    std::size_t end = i + 1;
    while (end < sorted.size() && sorted[end].suffix == suffix) ++end;
    const std::uint32_t gap = i == 0 ? suffix : suffix - sorted[i - 1].suffix - 1;
    const std::uint32_t q = gap >> k;
    // Most groups are one game (a position new to the run): its Rice code's unary part goes out
    // in one put, then its low bits with the count's single 1 bit in another.
    if (end - i == 1 && q < 31) {
      bits.put(((std::uint32_t(1) << q) - 1) << 1, int(q) + 1);
      bits.put((gap & ((std::uint32_t(1) << k) - 1)) << 1 | 1, k + 1);
    } else {
      bits.put_rice(gap, k);
      bits.put_gamma(std::uint32_t(end - i));
    }
    bits.put(sorted[i].game, w);
    // The parameter's division is paid by groups of two games or more alone.
    if (end - i > 1) {
      const int r = game_gap_parameter(sorted[i].game, largest, end - i);
      for (std::size_t j = i + 1; j < end; ++j)
        bits.put_rice(sorted[j].game - sorted[j - 1].game - 1, r);
    }
    i = end;
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
  if (!in.byte(k_) || !in.byte(w_)) return false;
  grouped_ = k_ & grouped_flag;
  k_ &= ~grouped_flag;
  // An entry takes two bits at least, or one in a group.
  if (k_ > suffix_bits || w_ < 1 || w_ > 32 || count > (grouped_ ? 8 : 4) * in.remaining() + 4)
    return false;
  bits_ = BitReader(run.substr(run.size() - in.remaining()));
  left_ = count;
  largest_ = largest_of_width(w_);
  return true;
}

bool RunReader::next(Entry& e) {
  if (left_ == 0 || damaged_) return false;
  --left_;
  if (grouped_ ? next_grouped(e) : next_flagged(e)) return true;
  damaged_ = true;
  left_ = 0;
  return false;
}

bool RunReader::next_grouped(Entry& e) {
  std::uint32_t v;
  if (group_left_ > 0) {
    --group_left_;
    if (last_.game == largest_ || !bits_.get_rice(r_, largest_ - last_.game - 1, v)) return false;
    last_.game += v + 1;
    e = last_;
    return true;
  }
  if (first_) {
    first_ = false;
    if (!bits_.get_rice(k_, suffix_mask, last_.suffix)) return false;
  } else {
    if (last_.suffix == suffix_mask || !bits_.get_rice(k_, suffix_mask - last_.suffix - 1, v))
      return false;
    last_.suffix += v + 1;
  }
  std::uint32_t count;
  if (!bits_.get_gamma(count) || count - 1 > left_ || !bits_.get(w_, last_.game)) return false;
  group_left_ = count - 1;
  if (count > 1) r_ = std::uint8_t(game_gap_parameter(last_.game, largest_, count));
  e = last_;
  return true;
}

bool RunReader::next_flagged(Entry& e) {
  if (first_) {
    first_ = false;
    if (!bits_.get_rice(k_, suffix_mask, last_.suffix) || !bits_.get(w_, last_.game)) return false;
    e = last_;
    return true;
  }
  bool same;
  std::uint32_t v;
  if (!bits_.get_bit(same)) return false;
  if (same) {
    if (!bits_.get_gamma(v) || v > ~last_.game) return false;
    last_.game += v;
  } else {
    if (last_.suffix == suffix_mask || !bits_.get_rice(k_, suffix_mask - last_.suffix - 1, v) ||
        !bits_.get(w_, last_.game))
      return false;
    last_.suffix += v + 1;
  }
  e = last_;
  return true;
}

bool RunReader::clean_end() const {
  return !damaged_ && left_ == 0 && group_left_ == 0 && bits_.clean_end();
}

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
