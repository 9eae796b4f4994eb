// An order-independent digest of a set of entries (byte strings), for comparing two sets too
// large to hold (19 M position entries on the corpus) that come in different orders: the index
// in key order, the entries rebuilt from the games in game order. Entries fall into 65,536
// groups by a hash; each group keeps its count and the sum of a second hash of its entries.
// Two sets that differ almost surely differ in some group's count or sum (a sum ignores order
// and counts repeats), and only the entries of the groups that differ need to be compared one
// by one, in a second pass. Memory: 1 MiB per digest, whatever the number of entries.
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace pgndb::index {

class EntryDigest {
 public:
  static constexpr std::uint32_t group_count = 1 << 16;

  EntryDigest() : groups_(group_count) {}

  static std::uint64_t hash(std::string_view entry) {
    return mix(std::hash<std::string_view>()(entry));
  }
  static std::uint32_t group_of(std::string_view entry) { return std::uint32_t(hash(entry) >> 48); }

  void add(std::string_view entry) {
    const std::uint64_t h = hash(entry);
    Group& g = groups_[h >> 48];
    ++g.count;
    g.sum += mix(h ^ 0x9E3779B97F4A7C15ULL);
    ++count_;
  }
  // Adds the entries of `other` (digests of parts of a set, kept by several threads).
  void merge(const EntryDigest& other) {
    for (std::uint32_t i = 0; i < group_count; ++i) {
      groups_[i].count += other.groups_[i].count;
      groups_[i].sum += other.groups_[i].sum;
    }
    count_ += other.count_;
  }
  // The groups in which the two sets differ, ascending.
  std::vector<std::uint32_t> differing(const EntryDigest& other) const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < group_count; ++i)
      if (groups_[i].count != other.groups_[i].count || groups_[i].sum != other.groups_[i].sum)
        out.push_back(i);
    return out;
  }
  std::uint64_t count() const { return count_; }

 private:
  // A finaliser that spreads every input bit over the result (std::hash of a string is good,
  // but the group takes its top bits and the sum the whole word).
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  struct Group {
    std::uint64_t count = 0, sum = 0;
  };
  std::vector<Group> groups_;
  std::uint64_t count_ = 0;
};

}  // namespace pgndb::index
