#include "group_by_key.h"

#include <algorithm>
#include <utility>

namespace pgndb::index {

namespace {

// Open addressing, linear probing; a slot's key is stored plus one, so that 0 marks it free.
class KeyTable {
 public:
  struct Slot {
    std::uint64_t key_plus_one = 0;
    std::uint64_t value = 0;  // first a count, then where the key's next place goes
  };

  KeyTable() : slots_(std::size_t(1) << bits_) {}

  Slot& find_or_add(std::uint64_t key) {
    Slot* slot = &probe(key);
    if (slot->key_plus_one) return *slot;
    if (2 * (used_ + 1) > slots_.size()) {  // at most half full: short probes
      grow();
      slot = &probe(key);
    }
    ++used_;
    slot->key_plus_one = key + 1;
    return *slot;
  }
  // A key find_or_add has added.
  Slot& find(std::uint64_t key) { return probe(key); }
  std::vector<Slot>& slots() { return slots_; }

 private:
  // The slot holding `key`, or the free one where it would go.
  Slot& probe(std::uint64_t key) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = std::size_t((key * 0x9E3779B97F4A7C15ULL) >> (64 - bits_));
    while (slots_[i].key_plus_one && slots_[i].key_plus_one != key + 1) i = (i + 1) & mask;
    return slots_[i];
  }
  void grow() {
    std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(slots_.size() * 2));
    ++bits_;
    for (const Slot& slot : old)
      if (slot.key_plus_one) probe(slot.key_plus_one - 1) = slot;
  }

  int bits_ = 12;
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
};

}  // namespace

KeyGroups group_by_key(std::span<const std::uint64_t> entries, int place_bits) {
  const std::uint64_t place_mask = (std::uint64_t(1) << place_bits) - 1;
  KeyTable table;
  for (const std::uint64_t entry : entries) ++table.find_or_add(entry >> place_bits).value;

  std::vector<KeyTable::Slot*> present;
  for (KeyTable::Slot& slot : table.slots())
    if (slot.key_plus_one) present.push_back(&slot);
  std::sort(present.begin(), present.end(),
            [](const auto* a, const auto* b) { return a->key_plus_one < b->key_plus_one; });
  KeyGroups groups;
  groups.keys.reserve(present.size());
  groups.starts.reserve(present.size() + 1);
  std::size_t start = 0;
  for (KeyTable::Slot* slot : present) {
    groups.keys.push_back(slot->key_plus_one - 1);
    groups.starts.push_back(start);
    start += std::exchange(slot->value, start);
  }
  groups.starts.push_back(start);

  groups.places.resize(entries.size());
  for (const std::uint64_t entry : entries)
    groups.places[table.find(entry >> place_bits).value++] = std::uint32_t(entry & place_mask);
  return groups;
}

}  // namespace pgndb::index
