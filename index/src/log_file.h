// RocksDB's informational log (DIR/LOG), written by our own code. RocksDB's logger, in builds
// with assertions (Debian's), aborts the process when it writes again after a write failed,
// which a full disk makes certain: an import that stopped cleanly on "the disk is full" then
// died while closing the database. Here a failed write is dropped, and the run goes on.
//
// Bounded: every writer's open appended RocksDB's dump of each family's options (the same as
// its OPTIONS-NNNNNN file holds), 190 KB an import, so a base that took a weekly TWIC issue
// for ten years would have carried 100 MB of it. The options are left to the OPTIONS file, and
// a LOG past max_bytes when a writer opens becomes LOG.old (replacing the one before): the
// two hold the last runs' flushes, compactions and ingestions.
#pragma once

#include <rocksdb/env.h>

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

namespace pgndb::index {

class LogFile final : public rocksdb::Logger {
 public:
  static constexpr std::uintmax_t max_bytes = 1 << 20;

  // Appends to `path` (after moving it to `path`.old when it holds max_bytes or more); logs
  // nothing when it cannot be opened.
  explicit LogFile(const std::string& path);
  ~LogFile() override;

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override;
  void Flush() override;

 private:
  std::mutex mutex_;
  std::FILE* file_;
};

}  // namespace pgndb::index
