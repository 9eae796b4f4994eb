// What code inside index/ (the verifier) may read of a store beyond its public interface: the
// RocksDB database and its column families by name. This header is private to index/: RocksDB
// types never leave the library.
#pragma once

#include <rocksdb/db.h>

#include <cstdint>
#include <string_view>

#include "pgndb/index/store.h"
#include "position_generations.h"

namespace pgndb::index {

struct StoreAccess {
  static rocksdb::DB& db(const Store& store);
  // The handle of the column family named `name` (docs/storage.md); nullptr when no family has
  // that name.
  static rocksdb::ColumnFamilyHandle* family(const Store& store, std::string_view name);
  // The live generations of the position index (of the variations' with `in_variations`).
  static positions::Generations generations(const Store& store, bool in_variations);
};

}  // namespace pgndb::index
