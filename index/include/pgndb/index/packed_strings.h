// Strings stored one after another in one buffer, with where each ends. Tens of thousands of
// short strings (player names, the texts of a chunk of games, a batch's encoded games) cost two
// allocations instead of one each, and the memory goes back with the list: the importer frees
// it on the thread that allocated it (importer.cpp explains why).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pgndb::index {

// `Allocator` (of char) lets the importer's batch keep its strings in huge pages
// (index/src/huge_pages.h).
template <class Allocator = std::allocator<char>>
class BasicPackedStrings {
 public:
  void add(std::string_view s) {
    bytes_ += s;
    ends_.push_back(bytes_.size());
  }
  std::size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  // The memory the strings take, roughly.
  std::size_t bytes() const { return bytes_.size() + ends_.size() * sizeof(std::size_t); }
  std::string_view operator[](std::size_t i) const {
    const std::size_t begin = i ? ends_[i - 1] : 0;
    return std::string_view(bytes_.data(), bytes_.size()).substr(begin, ends_[i] - begin);
  }
  // Room for strings of `bytes` bytes in all, and for `count` of them, without reallocating.
  void reserve(std::size_t bytes, std::size_t count) {
    bytes_.reserve(bytes);
    ends_.reserve(count);
  }
  // Empties the list and keeps its memory for the next strings.
  void clear() {
    bytes_.clear();
    ends_.clear();
  }

 private:
  std::basic_string<char, std::char_traits<char>, Allocator> bytes_;
  std::vector<std::size_t,
              typename std::allocator_traits<Allocator>::template rebind_alloc<std::size_t>>
      ends_;
};

using PackedStrings = BasicPackedStrings<>;

}  // namespace pgndb::index
