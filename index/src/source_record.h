// The sources family's value (docs/storage.md, "Sources"): how far the import of one file, keyed
// by the hash of its contents, has come. The name it was imported under (string), the games of
// it stored or quarantined (varint), whether it was read whole (1 byte: 0 or 1).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "bytes.h"
#include "pgndb/index/store.h"

namespace pgndb::index::source_record {

inline std::string encode(const SourceProgress& progress) {
  std::string value;
  bytes::put_string(value, progress.name);
  bytes::put_varint(value, progress.games);
  value += char(progress.complete ? 1 : 0);
  return value;
}

// Nothing when `value` is not a whole record.
inline std::optional<SourceProgress> decode(std::string_view value) {
  SourceProgress p;
  bytes::Reader in(value);
  std::uint8_t complete = 0;
  if (!in.string(p.name) || !in.varint(p.games) || !in.byte(complete) || !in.empty())
    return std::nullopt;
  p.complete = complete != 0;
  return p;
}

}  // namespace pgndb::index::source_record
