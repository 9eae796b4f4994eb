#include "run_merge_operator.h"

#include "position_runs.h"

namespace pgndb::index::positions {

namespace {

// Folds runs into `out`; false (RocksDB then reports corruption) when one is damaged.
template <class Runs>
bool fold(const rocksdb::Slice* existing, const Runs& runs, std::string& out) {
  // One folder per compaction thread: its buffers keep their memory from bucket to bucket.
  thread_local RunFolder folder;
  if (existing && !folder.add(existing->ToStringView())) return false;
  for (const rocksdb::Slice& run : runs)
    if (!folder.add(run.ToStringView())) return false;
  out.clear();
  folder.fold(out);
  return true;
}

}  // namespace

bool RunMergeOperator::FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const {
  return fold(in.existing_value, in.operand_list, out->new_value);
}

bool RunMergeOperator::PartialMergeMulti(const rocksdb::Slice&,
                                         const std::deque<rocksdb::Slice>& operands,
                                         std::string* new_value, rocksdb::Logger*) const {
  return fold(nullptr, operands, *new_value);
}

}  // namespace pgndb::index::positions
