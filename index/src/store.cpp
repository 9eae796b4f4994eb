#include "pgndb/index/store.h"

#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include "pgn/text.h"

namespace pgndb::index {

namespace {

// Key of the schema version in the default column family; the value is 4 bytes big-endian.
constexpr std::string_view version_key = "meta:schema_version";

std::string encode_u32(std::uint32_t v) {
  return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

std::uint32_t decode_u32(std::string_view s) {
  std::uint32_t v = 0;
  for (char c : s) v = (v << 8) | std::uint8_t(c);
  return v;
}

Status from_rocksdb(const rocksdb::Status& s, std::string_view context) {
  using Code = Status::Code;
  Code code = s.IsNotFound()     ? Code::NotFound
              : s.IsCorruption() ? Code::Corruption
              : s.IsIOError()    ? Code::IoError
                                 : Code::InvalidArgument;
  return Status::error(code, pgn::cat(context, ": ", s.ToString()));
}

}  // namespace

struct Store::Impl {
  std::unique_ptr<rocksdb::DB> db;
  std::uint32_t version = 0;
};

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

std::uint32_t Store::version() const { return impl_->version; }

std::expected<Store, Status> Store::open(const std::string& path, const StoreOptions& options) {
  rocksdb::Options db_options;
  db_options.create_if_missing = options.create_if_missing;
  db_options.compression = rocksdb::kZSTD;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, path, &raw);
  if (!s.ok()) {
    if (!options.create_if_missing && s.IsInvalidArgument())
      return std::unexpected(Status::error(Status::Code::NotFound, "no database at " + path));
    return std::unexpected(from_rocksdb(s, "opening " + path));
  }
  auto impl = std::make_unique<Impl>();
  impl->db.reset(raw);

  std::string value;
  s = impl->db->Get(rocksdb::ReadOptions(), version_key, &value);
  if (s.IsNotFound()) {
    s = impl->db->Put(rocksdb::WriteOptions(), version_key, encode_u32(schema_version));
    if (!s.ok()) return std::unexpected(from_rocksdb(s, "writing the schema version"));
    impl->version = schema_version;
  } else if (!s.ok()) {
    return std::unexpected(from_rocksdb(s, "reading the schema version"));
  } else if (value.size() != 4 || decode_u32(value) != schema_version) {
    return std::unexpected(Status::error(
        Status::Code::IncompatibleVersion,
        pgn::cat(path, " holds schema version ", value.size() == 4 ? decode_u32(value) : 0,
                 ", this pgndb reads version ", schema_version)));
  } else {
    impl->version = schema_version;
  }
  return Store(std::move(impl));
}

}  // namespace pgndb::index
