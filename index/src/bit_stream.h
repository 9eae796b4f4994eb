// The bit streams of the position index's runs (position_runs.h): codes written and read most
// significant bit first, through a 64-bit word.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace pgndb::index::positions {

// Bits appended most significant first through a 64-bit word, stored 8 bytes at a time into
// `out`'s own storage (appending to a std::string 4 bytes at a time took a third of encoding a
// run); finish() pads the last byte with zero bits and trims `out` to what was written. `out`
// must not be touched between construction and finish().
class BitWriter {
 public:
  explicit BitWriter(std::string& out) : out_(out), at_(out.size()) {}
  // The low `bits` (at most 32) of `value`.
  void put(std::uint32_t value, int bits) {
    if (bits == 0) return;
    const std::uint64_t low = bits == 32 ? value : value & ((std::uint32_t(1) << bits) - 1);
    if (count_ + bits < 64) {
      word_ |= low << (64 - count_ - bits);
      count_ += bits;
      return;
    }
    // The word fills: its last 64 - count_ bits are the top of `low`, the rest starts the next.
    const int rest = count_ + bits - 64;
    word_ |= low >> rest;
    store();
    word_ = rest == 0 ? 0 : low << (64 - rest);
    count_ = rest;
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
    if (const std::size_t bytes = std::size_t(count_ + 7) / 8; bytes > 0) {
      store();
      at_ -= 8 - bytes;
    }
    out_.resize(at_);
    word_ = 0;
    count_ = 0;
  }

 private:
  void store() {
    if (out_.size() < at_ + 8) out_.resize(std::max(2 * out_.size(), at_ + 64));
    std::uint64_t big = word_;
    if constexpr (std::endian::native == std::endian::little) big = std::byteswap(big);
    std::memcpy(out_.data() + at_, &big, 8);
    at_ += 8;
  }

  std::string& out_;
  std::size_t at_;          // bytes of out_ written (its size runs ahead of it)
  std::uint64_t word_ = 0;  // the pending bits, most significant first
  int count_ = 0;           // how many (below 64 between calls)
};

// Bits read most significant first through a 64-bit window (the next bits, left-aligned), so
// that a unary or gamma code's run of equal bits is counted in one instruction rather than bit
// by bit: decoding is most of a merge's time.
class BitReader {
 public:
  BitReader() = default;
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
  // Tops the window up to at least 57 bits (or what is left): away from the end, the whole
  // bytes that fit come from one 8-byte load rather than a byte at a time.
  void refill() {
    if (end_ - at_ >= 8) {
      const int take = (64 - count_) >> 3;  // whole bytes that fit: 1 to 8
      std::uint64_t next;
      std::memcpy(&next, at_, 8);
      if constexpr (std::endian::native == std::endian::little) next = std::byteswap(next);
      if (take < 8) next &= ~(~std::uint64_t(0) >> (take * 8));  // zeros after the bits taken
      window_ |= next >> count_;
      at_ += take;
      count_ += take * 8;
      return;
    }
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

  const std::uint8_t* at_ = nullptr;
  const std::uint8_t* end_ = nullptr;
  std::uint64_t window_ = 0;  // the next count_ bits, most significant first; zeros after them
  int count_ = 0;
};

}  // namespace pgndb::index::positions
