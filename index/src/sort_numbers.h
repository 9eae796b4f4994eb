// Sorting the batch's 64-bit numbers (position entries, name-fragment postings) in place.
#pragma once

#include <cstdint>
#include <span>

namespace pgndb::index {

// Sorts `numbers` ascending, in place. A batch's position entries (key bits over the game's
// place in the batch, the places added ascending) so come by key, then game; a name index's
// fragment postings (fragment code over name number) by fragment, then number.
//
// In place because the position entries are the largest part of a batch: the former sort went
// through a second buffer as large as the entries, and two batches in memory so held four
// buffers of 8 bytes per position, all of them touched (a first touch of memory cost about
// 2.3 s per GiB on the machines measured). Extra memory: a buffer the size of the largest of
// 256 parts (the numbers with one value of the top 8 bits).
void sort_in_place(std::span<std::uint64_t> numbers);

}  // namespace pgndb::index
