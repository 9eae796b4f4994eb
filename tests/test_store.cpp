// The database directory: created on first open, schema version recorded and checked.
#include <catch2/catch.hpp>

#include <rocksdb/db.h>

#include <filesystem>
#include <string>

#include "pgndb/index/store.h"

namespace fs = std::filesystem;
using pgndb::index::Status;
using pgndb::index::Store;

namespace {

struct TempDir {
  fs::path path;
  TempDir() : path(fs::temp_directory_path() / ("pgndb-store-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("a new database records the schema version and opens again") {
  TempDir dir;
  {
    auto store = Store::open(dir.path.string());
    REQUIRE(store);
    CHECK(store->version() == pgndb::index::schema_version);
  }
  auto again = Store::open(dir.path.string(), {.create_if_missing = false});
  REQUIRE(again);
  CHECK(again->version() == pgndb::index::schema_version);
}

TEST_CASE("opening a missing database without create_if_missing is NotFound") {
  TempDir dir;
  auto store = Store::open(dir.path.string(), {.create_if_missing = false});
  REQUIRE_FALSE(store);
  CHECK(store.error().code() == Status::Code::NotFound);
  CHECK(store.error().message().find(dir.path.string()) != std::string::npos);
}

TEST_CASE("a database of another schema version is refused, naming both versions") {
  TempDir dir;
  REQUIRE(Store::open(dir.path.string()));
  {
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(rocksdb::Options(), dir.path.string(), &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    REQUIRE(
        db->Put(rocksdb::WriteOptions(), "meta:schema_version", std::string("\0\0\0\x63", 4)).ok());
  }
  auto store = Store::open(dir.path.string());
  REQUIRE_FALSE(store);
  CHECK(store.error().code() == Status::Code::IncompatibleVersion);
  CHECK(store.error().message().find("version 99") != std::string::npos);
}
