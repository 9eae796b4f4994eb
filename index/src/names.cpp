#include "pgndb/index/names.h"

#include <cstdint>

namespace pgndb::index {

namespace {

// Base letters of U+00C0..U+017F, one byte per code point; '*' marks the ones that fold to two
// letters or stay as they are (see fold()).
constexpr std::string_view latin_base =
    // U+00C0..U+00FF
    "aaaaaa*ceeeeiiiidnooooo*ouuuuy**aaaaaa*ceeeeiiiidnooooo*ouuuuy*y"
    // U+0100..U+017F
    "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii**jjkkklllllllllln"
    "nnnnnnnnoooooo**rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";

void fold(char32_t c, std::string& out) {
  if (c >= 0xC0 && c <= 0x17F && latin_base[c - 0xC0] != '*') {
    out += latin_base[c - 0xC0];
    return;
  }
  switch (c) {
    case 0xC6:
    case 0xE6: out += "ae"; return;
    case 0xDE:
    case 0xFE: out += "th"; return;
    case 0xDF: out += "ss"; return;
    case 0x132:
    case 0x133: out += "ij"; return;
    case 0x152:
    case 0x153: out += "oe"; return;
    default: break;
  }
  // Anything else as UTF-8, unchanged.
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
}

// The next code point of valid UTF-8 (tag values are); a stray byte is taken as Latin-1.
char32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto b = std::uint8_t(s[i]);
  auto continuation = [&](std::size_t k) {
    return i + k < s.size() && (std::uint8_t(s[i + k]) & 0xC0) == 0x80;
  };
  auto bits = [&](std::size_t k) { return char32_t(std::uint8_t(s[i + k]) & 0x3F); };
  char32_t c = b;
  if (b >= 0xC0 && b < 0xE0 && continuation(1)) {
    c = (char32_t(b & 0x1F) << 6) | bits(1);
    i += 2;
  } else if (b >= 0xE0 && b < 0xF0 && continuation(1) && continuation(2)) {
    c = (char32_t(b & 0x0F) << 12) | (bits(1) << 6) | bits(2);
    i += 3;
  } else if (b >= 0xF0 && continuation(1) && continuation(2) && continuation(3)) {
    c = (char32_t(b & 0x07) << 18) | (bits(1) << 12) | (bits(2) << 6) | bits(3);
    i += 4;
  } else {
    ++i;
  }
  return c;
}

}  // namespace

std::string normalize_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  bool pending_space = false;
  for (std::size_t i = 0; i < name.size();) {
    char32_t c = next_code_point(name, i);
    if (c == '.') continue;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0 || c == 0xA0) {
      pending_space = !out.empty();
      continue;
    }
    if (c == ',') {
      out += ',';
      pending_space = true;
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
    fold(c, out);
  }
  return out;
}

std::string name_search_key(std::string_view normalized) {
  std::string key;
  for (char c : normalized)
    if (in_search_key(c)) key += c;
  return key;
}

bool search_key_contains(std::string_view normalized, std::string_view key) {
  if (key.empty()) return true;
  for (std::size_t start = normalized.find(key.front()); start != std::string_view::npos;
       start = normalized.find(key.front(), start + 1)) {
    std::size_t k = 0;
    for (std::size_t i = start; i < normalized.size() && k < key.size(); ++i) {
      if (!in_search_key(normalized[i])) continue;
      if (normalized[i] != key[k]) break;
      ++k;
    }
    if (k == key.size()) return true;
  }
  return false;
}

}  // namespace pgndb::index
