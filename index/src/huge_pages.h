// Memory for the import's large buffers (a batch's position entries, its encoded games and
// summaries: tens of megabytes each) in transparent huge pages.
//
// Why: every 4 KiB page touched for the first time costs a page fault, and on the 2-core virtual
// machines pgndb is measured on one costs about 10 us (1 GiB written in 4 KiB pages: 2.9 s; in
// 2 MiB pages: 0.65 s). A 100,000-game import touched 216,000 fresh pages, most of them in these
// buffers: a fifth of its CPU time went to the kernel's page faults.
//
// Contract: an allocation of at least `huge_page_size` bytes is a mapping of its own, aligned to
// `huge_page_size`, its length rounded up to a multiple of it, and advised MADV_HUGEPAGE (Debian's
// kernel default is the "madvise" policy, so nothing else gets huge pages); smaller ones come from
// operator new. Where the kernel gives no huge pages the memory is ordinary pages and nothing else
// changes. deallocate() must get the count allocate() got, as the standard allocator requirements
// say; containers do that. Memory is zeroed by the kernel, not by this allocator.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace pgndb::index {

inline constexpr std::size_t huge_page_size = std::size_t(2) << 20;

namespace huge_pages {

inline std::size_t mapped_length(std::size_t bytes) {
  return (bytes + huge_page_size - 1) / huge_page_size * huge_page_size;
}

// A mapping of `length` bytes (a multiple of huge_page_size) aligned to huge_page_size: mapped
// one huge page longer, then the unaligned head and the tail beyond `length` unmapped.
inline void* map(std::size_t length) {
  // MAP_NORESERVE: a batch reserves address space for what its limits allow (WriteBatch::
  // reserve), far more than it touches; under strict overcommit the reservation must not count.
  void* mapped = ::mmap(nullptr, length + huge_page_size, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t aligned = (start + huge_page_size - 1) & ~(huge_page_size - 1);
  if (aligned > start) ::munmap(mapped, aligned - start);
  const std::uintptr_t end = start + length + huge_page_size;
  if (end > aligned + length)
    ::munmap(reinterpret_cast<void*>(aligned + length), end - aligned - length);
  void* p = reinterpret_cast<void*>(aligned);
  // Advice only: without it (or without huge pages) the memory still works.
  (void)::madvise(p, length, MADV_HUGEPAGE);
  return p;
}

}  // namespace huge_pages

template <class T>
class HugePageAllocator {
 public:
  using value_type = T;
  HugePageAllocator() noexcept = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_page_size) return static_cast<T*>(::operator new(bytes));
    return static_cast<T*>(huge_pages::map(huge_pages::mapped_length(bytes)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_page_size)
      ::operator delete(p);
    else
      ::munmap(p, huge_pages::mapped_length(bytes));
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using LargeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace pgndb::index
