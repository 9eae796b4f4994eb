// jemalloc's settings for the pgndb program, in the `malloc_conf` string jemalloc reads at its
// first allocation (its documented way for a program to set options; MALLOC_CONF in the
// environment still overrides it). Linked only where jemalloc is (not in the sanitized build).
//
// thp:always: jemalloc's own memory in transparent huge pages. A first touch of a 4 KiB page
// costs about 10 us on the 2-core machines pgndb is measured on; an import's small blocks (a
// game's moves and comments, a batch's names and statistics) still touched 73,000 fresh pages
// for 100,000 lichess-style games after the batch's large buffers went to huge pages of their
// own (index/src/huge_pages.h), and 15,000-18,000 with this: that import 10-12% faster, 300,000
// generated games 4% (docs/scale.md). The cost: memory taken 2 MiB at a time, 40-80 MiB more
// at an import's peak.
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "thp:always";
}
