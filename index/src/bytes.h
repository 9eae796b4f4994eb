// Byte-level encoding shared by the stored forms in index/: LEB128 varints, length-prefixed
// strings, and big-endian integers for keys (so that byte order is numeric order).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgndb::index::bytes {

inline void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += char(std::uint8_t(v) | 0x80);
    v >>= 7;
  }
  out += char(v);
}

inline void put_string(std::string& out, std::string_view s) {
  put_varint(out, s.size());
  out += s;
}

inline void put_strings(std::string& out, const std::vector<std::string>& strings) {
  put_varint(out, strings.size());
  for (const auto& s : strings) put_string(out, s);
}

inline void put_big_endian16(std::string& out, std::uint16_t v) {
  out += char(v >> 8);
  out += char(v);
}
inline std::uint16_t read_big_endian16(std::string_view s) {
  return std::uint16_t(std::uint8_t(s[0]) << 8 | std::uint8_t(s[1]));
}

inline void put_big_endian32(std::string& out, std::uint32_t v) {
  const char bytes[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
  out.append(bytes, 4);
}
inline std::string big_endian32(std::uint32_t v) {
  std::string out;
  put_big_endian32(out, v);
  return out;
}

inline std::uint32_t read_big_endian32(std::string_view s) {
  std::uint32_t v = 0;
  for (char c : s.substr(0, 4)) v = (v << 8) | std::uint8_t(c);
  return v;
}

// Reads what the put_ functions wrote; every read returns false (and reads nothing more
// useful) once the input is short or malformed, so callers report Corruption.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  bool empty() const { return in_.empty(); }
  std::size_t remaining() const { return in_.size(); }

  bool byte(std::uint8_t& b) {
    if (in_.empty()) return false;
    b = std::uint8_t(in_.front());
    in_.remove_prefix(1);
    return true;
  }
  bool varint(std::uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      std::uint8_t b;
      if (!byte(b)) return false;
      v |= std::uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  // The next `n` bytes, viewed in the input (valid as long as the input is).
  bool bytes_of(std::uint64_t n, std::string_view& s) {
    if (n > in_.size()) return false;
    s = in_.substr(0, n);
    in_.remove_prefix(n);
    return true;
  }
  // A string, viewed in the input (valid as long as the input is).
  bool view(std::string_view& s) {
    std::uint64_t n;
    if (!varint(n) || n > in_.size()) return false;
    s = in_.substr(0, n);
    in_.remove_prefix(n);
    return true;
  }
  bool string(std::string& s) {
    std::uint64_t n;
    if (!varint(n) || n > in_.size()) return false;
    s.assign(in_.substr(0, n));
    in_.remove_prefix(n);
    return true;
  }
  bool strings(std::vector<std::string>& out) {
    std::uint64_t n;
    if (!varint(n) || n > in_.size()) return false;
    out.resize(n);
    for (auto& s : out)
      if (!string(s)) return false;
    return true;
  }

 private:
  std::string_view in_;
};

}  // namespace pgndb::index::bytes
