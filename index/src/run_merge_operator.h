// Folds a bucket's position runs inside RocksDB: each import batch writes its run of a bucket as
// a merge operand, and reads and compactions combine the operands into one sorted run
// (docs/storage.md, "Positions"). So a lookup always sees one run per bucket, and the
// compaction after an import folds and rewrites the index in a single pass.
#pragma once

#include <rocksdb/merge_operator.h>

namespace pgndb::index::positions {

class RunMergeOperator final : public rocksdb::MergeOperator {
 public:
  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override;
  bool PartialMergeMulti(const rocksdb::Slice& key, const std::deque<rocksdb::Slice>& operands,
                         std::string* new_value, rocksdb::Logger* logger) const override;
  // The name is recorded in the database: a database written with it needs it to be read.
  const char* Name() const override { return "pgndb.position_runs"; }
};

}  // namespace pgndb::index::positions
