// The on-disk database: a RocksDB directory whose layout version is stored in it and checked on
// every open, so that a pgndb never reads a database written in a format it does not know.
#pragma once

#include <cstdint>
#include <expected>
#include <memory>
#include <string>

#include "pgndb/index/status.h"

namespace pgndb::index {

// Bumped whenever the key or value layout of any column family changes (docs/storage-format.md).
inline constexpr std::uint32_t schema_version = 1;

struct StoreOptions {
  // Create an empty database when `path` holds none (default). When false, opening a path
  // without a database fails with NotFound.
  bool create_if_missing = true;
};

class Store {
 public:
  [[nodiscard]] static std::expected<Store, Status> open(const std::string& path,
                                                         const StoreOptions& options = {});
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  ~Store();

  // The schema version recorded in the database.
  std::uint32_t version() const;

 private:
  struct Impl;
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pgndb::index
