// The position index's run codec (index/src/position_runs.h) on runs shaped like those the end
// of an import folds: for each bucket, one run per batch of 100,000 games (disjoint, rising game
// ids), a few dozen entries each, some of them sharing the suffixes of popular positions.
// Prints nanoseconds an entry for decoding, encoding and folding (decode, merge, encode), the
// best of several passes; build two commits and run each to compare. See bench/README.md.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "position_runs.h"

using pgndb::index::positions::decode_run;
using pgndb::index::positions::encode_run;
using pgndb::index::positions::Entry;
using pgndb::index::positions::RunFolder;
using pgndb::index::positions::suffix_mask;

namespace {

template <class Work>
double best_seconds(int passes, Work&& work) {
  double best = 1e300;
  for (int pass = 0; pass < passes; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    work();
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

int number_after(int argc, char** argv, std::string_view flag, int fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (argv[i] == flag) {
      int value = fallback;
      std::from_chars(argv[i + 1], argv[i + 1] + std::strlen(argv[i + 1]), value);
      return value;
    }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const int buckets = number_after(argc, argv, "--buckets", 20000);
  const int inputs = number_after(argc, argv, "--runs", 10);
  const int per_run = number_after(argc, argv, "--entries", 31);
  const int passes = number_after(argc, argv, "--passes", 5);
  if (buckets < 1 || inputs < 1 || per_run < 1 || passes < 1) {
    std::fprintf(stderr, "usage: run-codec [--buckets N] [--runs R] [--entries E] [--passes P]\n");
    return 2;
  }
  std::mt19937 random(7);
  std::uniform_int_distribution<std::uint32_t> any_suffix(0, suffix_mask);
  std::vector<std::uint32_t> popular(24);
  for (auto& p : popular) p = any_suffix(random);
  std::vector<std::vector<std::string>> runs{static_cast<std::size_t>(buckets)};
  std::vector<std::vector<Entry>> sorted{static_cast<std::size_t>(buckets)};
  std::size_t entries = 0;
  for (int b = 0; b < buckets; ++b) {
    for (int i = 0; i < inputs; ++i) {
      std::uniform_int_distribution<std::uint32_t> game(std::uint32_t(i) * 100'000 + 1,
                                                        std::uint32_t(i + 1) * 100'000);
      std::set<Entry> run;
      while (int(run.size()) < per_run) {
        // About one entry in seven is one of a few popular positions of the bucket.
        const std::uint32_t suffix =
            random() % 100 < 15 ? popular[random() % 3 + std::size_t(b % 20)] : any_suffix(random);
        run.insert({suffix, game(random)});
      }
      std::vector<Entry> entries_of_run(run.begin(), run.end());
      std::string bytes;
      encode_run(entries_of_run, bytes);
      runs[std::size_t(b)].push_back(std::move(bytes));
      sorted[std::size_t(b)].insert(sorted[std::size_t(b)].end(), run.begin(), run.end());
      entries += run.size();
    }
    std::sort(sorted[std::size_t(b)].begin(), sorted[std::size_t(b)].end());
  }

  std::vector<Entry> decoded;
  bool damaged = false;
  const double decode = best_seconds(passes, [&] {
    for (const auto& of_bucket : runs) {
      decoded.clear();
      for (const std::string& run : of_bucket) damaged |= !decode_run(run, decoded);
    }
  });
  std::string out;
  std::size_t encoded_bytes = 0;
  const double encode = best_seconds(passes, [&] {
    encoded_bytes = 0;
    for (const auto& of_bucket : sorted) {
      out.clear();
      encode_run(of_bucket, out);
      encoded_bytes += out.size();
    }
  });
  RunFolder folder;
  std::size_t folded_bytes = 0;
  const double fold = best_seconds(passes, [&] {
    folded_bytes = 0;
    for (const auto& of_bucket : runs) {
      for (const std::string& run : of_bucket) damaged |= !folder.add(run);
      out.clear();
      folder.fold(out);
      folded_bytes += out.size();
    }
  });
  if (damaged || folded_bytes != encoded_bytes) {
    std::fprintf(stderr, "run-codec: the codec disagrees with itself\n");
    return 1;
  }
  const double ns = 1e9 / double(entries);
  std::printf("%zu entries in %d buckets, %d runs of %d entries each; %.2f bytes an entry\n",
              entries, buckets, inputs, per_run, double(encoded_bytes) / double(entries));
  std::printf("decode %.1f ns/entry, encode %.1f ns/entry, fold %.1f ns/entry\n", decode * ns,
              encode * ns, fold * ns);
  return 0;
}
