// The allocator of the importer's large buffers (index/src/huge_pages.h): what it promises about
// the memory it maps, and that containers built on it keep their contents as they grow.
#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "huge_pages.h"
#include "pgndb/index/packed_strings.h"

using namespace pgndb::index;

namespace {

// The VmFlags of the mapping of this process that holds `p`, from /proc/self/smaps; empty when
// no mapping holds it.
std::string flags_of_mapping_at(const void* p) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= at && at < end;
      continue;
    }
    if (inside && line.starts_with("VmFlags:")) return line;
  }
  return {};
}

bool huge_pages_offered() {
  std::ifstream policy("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string text;
  std::getline(policy, text);
  return !text.empty() && text.find("[never]") == std::string::npos;
}

}  // namespace

TEST_CASE("a large buffer is mapped on its own, aligned to a huge page and advised to use them",
          "[huge_pages]") {
  LargeVector<std::uint64_t> numbers;
  for (std::uint64_t i = 0; i < 3'000'000; ++i) numbers.push_back(i * 0x9E3779B97F4A7C15ull);
  REQUIRE(numbers.capacity() * sizeof(std::uint64_t) >= huge_page_size);
  CHECK(reinterpret_cast<std::uintptr_t>(numbers.data()) % huge_page_size == 0);
  bool kept = true;
  for (std::uint64_t i = 0; i < numbers.size(); ++i)
    kept = kept && numbers[i] == i * 0x9E3779B97F4A7C15ull;
  CHECK(kept);
  const std::string flags = flags_of_mapping_at(numbers.data());
  REQUIRE_FALSE(flags.empty());
  // "hg": the mapping was advised MADV_HUGEPAGE (it is the kernel's, not ours, to grant them).
  if (huge_pages_offered()) CHECK(flags.find(" hg") != std::string::npos);
}

TEST_CASE("a small buffer comes from operator new and is not a mapping advised for huge pages",
          "[huge_pages]") {
  LargeVector<std::uint32_t> small(1000, 7u);
  CHECK(small.capacity() * sizeof(std::uint32_t) < huge_page_size);
  CHECK(flags_of_mapping_at(small.data()).find(" hg") == std::string::npos);
  CHECK(small[999] == 7u);
}

TEST_CASE("packed strings in huge pages read back every string after the buffer grows",
          "[huge_pages]") {
  BasicPackedStrings<HugePageAllocator<char>> strings;
  for (int i = 0; i < 400'000; ++i) strings.add("game " + std::to_string(i));
  REQUIRE(strings.size() == 400'000);
  CHECK(strings.bytes() >= huge_page_size);
  CHECK(strings[0] == "game 0");
  CHECK(strings[123'456] == "game 123456");
  CHECK(strings[399'999] == "game 399999");
  strings.clear();
  strings.add("after");
  CHECK(strings.size() == 1);
  CHECK(strings[0] == "after");
}
