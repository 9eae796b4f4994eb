// RocksDB's informational log (DIR/LOG), written by our own code. RocksDB's logger, in builds
// with assertions (Debian's), aborts the process when it writes again after a write failed,
// which a full disk makes certain: an import that stopped cleanly on "the disk is full" then
// died while closing the database. Here a failed write is dropped, and the run goes on.
#pragma once

#include <rocksdb/env.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace pgndb::index {

class LogFile final : public rocksdb::Logger {
 public:
  // Appends to `path`; logs nothing when it cannot be opened.
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
