#include "position_generations.h"

#include <algorithm>
#include <bit>

#include "bytes.h"
#include "position_runs.h"

namespace pgndb::index::positions {

std::string generation_key(std::uint32_t generation, std::uint32_t bucket) {
  std::string key = bytes::big_endian32(generation);
  key += bucket_key_of(bucket);
  return key;
}

std::optional<GenerationKey> parse_generation_key(std::string_view key) {
  if (key.size() != generation_key_size) return std::nullopt;
  auto bucket = parse_bucket_key(key.substr(4));
  if (!bucket) return std::nullopt;
  return GenerationKey{bytes::read_big_endian32(key), *bucket};
}

std::uint64_t Generations::entries() const {
  std::uint64_t total = 0;
  for (const Generation& g : live) total += g.entries;
  return total;
}

bool Generations::lists(std::uint32_t id) const {
  return std::any_of(live.begin(), live.end(), [id](const Generation& g) { return g.id == id; });
}

std::string Generations::encode() const {
  std::string out;
  bytes::put_varint(out, next_id);
  bytes::put_varint(out, live.size());
  for (const Generation& g : live) {
    bytes::put_varint(out, g.id);
    bytes::put_varint(out, g.entries);
  }
  return out;
}

std::optional<Generations> Generations::decode(std::string_view bytes) {
  bytes::Reader in(bytes);
  Generations g;
  std::uint64_t next, count;
  if (!in.varint(next) || next == 0 || next > 0xFFFFFFFF || !in.varint(count) ||
      count > in.remaining())
    return std::nullopt;
  g.next_id = std::uint32_t(next);
  std::uint64_t previous = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t id, entries;
    // Ids rise with age and stay below the next one to be given.
    if (!in.varint(id) || !in.varint(entries) || id <= previous || id >= next) return std::nullopt;
    g.live.push_back({std::uint32_t(id), entries});
    previous = id;
  }
  if (!in.empty()) return std::nullopt;
  return g;
}

int tier_of(std::uint64_t entries) {
  // floor(log4(entries / 2^16)), 0 below 4 x 2^16.
  const std::uint64_t units = entries >> 16;
  return units < 4 ? 0 : (int(std::bit_width(units)) - 1) / 2;
}

std::vector<std::uint32_t> pick_merge(const Generations& generations, std::uint32_t first_own) {
  // The lowest tier that holds its fan-in of generations, the older ones' first: merging it may
  // fill the next one, which the caller's next call then finds.
  constexpr int tiers = 33;
  std::vector<std::uint32_t> by_tier[2][tiers];  // older, own
  for (const Generation& g : generations.live)
    by_tier[g.id >= first_own][tier_of(g.entries)].push_back(g.id);
  for (const int own : {0, 1})
    for (auto& ids : by_tier[own])
      if (ids.size() >= (own ? own_merge_fan_in : merge_fan_in)) return ids;
  return {};
}

}  // namespace pgndb::index::positions
