// Checking a database against itself: every index entry is rebuilt from the stored games (each
// decoded and replayed) and compared with what the index holds, both ways. What is checked per
// column family, and what it costs, is in index/src/verify.cpp and docs/query.md ("verify").
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <string>
#include <vector>

#include "pgndb/index/status.h"
#include "pgndb/index/store.h"

namespace pgndb::index {

// One thing wrong: the column family, and one line naming the key (decoded: a game id, a
// position key, a tag value) and what is wrong with it.
struct Inconsistency {
  std::string family;
  std::string text;
};

struct VerifyOptions {
  unsigned threads = 0;  // threads decoding and replaying games; 0: one per core
  // How many inconsistencies the report keeps (all are counted).
  std::size_t keep = 1000;
};

// What was checked, and what was found.
struct VerifyReport {
  std::uint64_t inconsistencies = 0;  // all found
  std::vector<Inconsistency> listed;  // the first VerifyOptions::keep of them
  std::uint64_t games = 0;            // games read (decoded or not)
  std::uint64_t undecodable = 0;      // of which could not be decoded
  std::uint64_t rejects = 0;          // quarantined games read
  std::uint64_t positions = 0;        // entries of positions and positions_upper
  std::uint64_t variation_positions = 0;
  std::uint64_t position_statistics = 0;  // popular positions' statistics, each recounted
  std::uint64_t metadata = 0;             // metadata keys (none since schema 15)
  std::uint64_t postings = 0;             // lists of a value's games
  std::uint64_t names = 0;
  std::uint64_t name_index = 0;  // keys of the name index (numbers and fragments)
  std::uint64_t summaries = 0;
  std::uint64_t facts = 0;
  std::uint64_t materials = 0;  // material histories
  std::uint64_t fingerprints = 0;
  std::uint64_t duplicates = 0;
  std::uint64_t sources = 0;
  bool consistent() const { return inconsistencies == 0; }
};

// Checks every column family of `store` (opened read-only beside an import, it checks the
// batches committed when it was opened). Inconsistencies are in the report; an error is a
// failure to read (I/O, or damage RocksDB itself detects in its files).
[[nodiscard]] std::expected<VerifyReport, Status> verify_store(const Store& store,
                                                               const VerifyOptions& options = {});

}  // namespace pgndb::index
