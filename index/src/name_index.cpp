#include "name_index.h"

#include <rocksdb/merge_operator.h>

#include <algorithm>

#include "bytes.h"
#include "pgndb/index/names.h"

namespace pgndb::index::name_index {

std::vector<std::string_view> fragments_of(std::string_view search_key) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i + fragment_length <= search_key.size(); ++i)
    out.push_back(search_key.substr(i, fragment_length));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string fragment_key(char dimension, std::string_view fragment) {
  std::string key{fragment_tag, dimension};
  key.append(fragment);
  return key;
}

void append_fragment_codes(std::string_view name_key, std::vector<std::uint32_t>& out) {
  if (name_key.size() < 2) return;
  // Straight from the name (without its dimension byte and final 0): no search key or list of
  // fragments is built for it, since a batch of lichess games has hundreds of thousands of new
  // names. The codes of a name's fragments sort as the fragments do (unsigned bytes, big-endian).
  static_assert(fragment_length == 3);
  const std::size_t first = out.size();
  const std::uint32_t dimension = std::uint32_t(std::uint8_t(name_key[0])) << 24;
  std::uint32_t window = 0;  // the search key's last three bytes
  std::size_t length = 0;    // of the search key so far
  for (char c : name_key.substr(1, name_key.size() - 2)) {
    if (!in_search_key(c)) continue;
    window = (window << 8 | std::uint8_t(c)) & 0xFFFFFF;
    if (++length >= fragment_length) out.push_back(dimension | window);
  }
  std::sort(out.begin() + std::ptrdiff_t(first), out.end());
  out.erase(std::unique(out.begin() + std::ptrdiff_t(first), out.end()), out.end());
}

std::string fragment_key(std::uint32_t code) {
  const char fragment[3] = {char(code >> 16), char(code >> 8), char(code)};
  return fragment_key(char(code >> 24), std::string_view(fragment, 3));
}

std::vector<std::string> fragment_keys(std::string_view name_key) {
  std::vector<std::uint32_t> codes;
  append_fragment_codes(name_key, codes);
  std::vector<std::string> out;
  for (std::uint32_t code : codes) out.push_back(fragment_key(code));
  return out;
}

std::string number_key(std::uint32_t number) {
  std::string key(1, number_tag);
  bytes::put_big_endian32(key, number);
  return key;
}

std::optional<std::uint32_t> number_of_key(std::string_view key) {
  if (key.size() != 5 || key[0] != number_tag) return std::nullopt;
  return bytes::read_big_endian32(key.substr(1));
}

void encode_numbers(std::span<const std::uint32_t> numbers, std::string& out) {
  std::uint32_t previous = 0;
  for (std::uint32_t n : numbers) {
    bytes::put_varint(out, n - previous);
    previous = n;
  }
}

bool decode_numbers(std::string_view in, std::vector<std::uint32_t>& out) {
  bytes::Reader reader(in);
  std::uint64_t previous = 0;
  bool first = true;
  while (!reader.empty()) {
    std::uint64_t delta = 0;
    // A difference past 32 bits would wrap the sum (the fuzzer found one going backwards).
    if (!reader.varint(delta) || delta > 0xFFFFFFFFu) return false;
    // Each operand's first number is written whole (a difference from 0).
    const std::uint64_t n = first ? delta : previous + delta;
    if (n > 0xFFFFFFFFu || (first ? n == 0 : delta == 0)) return false;
    if (first && !out.empty() && n <= out.back()) return false;
    out.push_back(std::uint32_t(n));
    previous = n;
    first = false;
  }
  return true;
}

namespace {

class PostingMerge final : public rocksdb::MergeOperator {
 public:
  const char* Name() const override { return "pgndb.name_index.postings"; }

  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    // A list written once (by one batch, in a file no merge has rewritten yet) is its own
    // merge: a reader takes it as it is rather than decoded and written again. A damaged one
    // is refused where it is read, as a merged list would be.
    if (!in.existing_value && in.operand_list.size() == 1) {
      out->existing_operand = in.operand_list.front();
      return true;
    }
    std::vector<std::uint32_t> numbers;
    bool ordered = true;
    auto add = [&](const rocksdb::Slice& operand) {
      // An operand out of order (two batches never give one, but a list is never lost for it)
      // is read on its own and the whole sorted.
      const std::size_t before = numbers.size();
      if (decode_numbers(operand.ToStringView(), numbers)) return true;
      numbers.resize(before);
      std::vector<std::uint32_t> alone;
      if (!decode_numbers(operand.ToStringView(), alone)) return false;
      numbers.insert(numbers.end(), alone.begin(), alone.end());
      ordered = false;
      return true;
    };
    if (in.existing_value && !add(*in.existing_value)) return false;
    for (const rocksdb::Slice& operand : in.operand_list)
      if (!add(operand)) return false;
    if (!ordered) {
      std::sort(numbers.begin(), numbers.end());
      numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    }
    out->new_value.clear();
    encode_numbers(numbers, out->new_value);
    return true;
  }
};

}  // namespace

std::shared_ptr<rocksdb::MergeOperator> posting_merge_operator() {
  return std::make_shared<PostingMerge>();
}

}  // namespace pgndb::index::name_index
