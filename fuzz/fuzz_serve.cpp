// Requests to pgndb serve, answered by serve::respond (no sockets) over a database of three
// sample files, imported once when the fuzzer starts.
//
// Input: a path, then `?` and a query string (`/masters?play=e2e4,c7c5&since=1950`).
// Checks: the status is 200, 400 or 404, never 500 (the database is sound: only a request can be
// wrong); a JSON body parses, and an error's body holds a non-empty "error"; an export's stream
// ends.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "check.h"
#include "pgndb/index/importer.h"
#include "pgndb/index/store.h"
#include "pgndb/serve/respond.h"

namespace {

// Never destroyed: closing the database at exit would run after RocksDB's own static objects
// are gone (libFuzzer exits from a thread of its own). The files go, the process ends.
std::shared_ptr<const pgndb::index::Store>& store = *new std::shared_ptr<const pgndb::index::Store>;
std::filesystem::path directory;

void remove_directory() {
  std::error_code ignored;
  std::filesystem::remove_all(directory, ignored);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::string name = (std::filesystem::temp_directory_path() / "pgndb-fuzz-serve-XXXXXX").string();
  FUZZ_CHECK(mkdtemp(name.data()) != nullptr);
  directory = name;
  std::atexit(remove_directory);
  {
    auto writer = pgndb::index::Store::open((directory / "db").string());
    FUZZ_CHECK(writer.has_value());
    for (const char* file : {"Tal-100.pgn", "annotated-variations.pgn", "lichess-2013-100.pgn"}) {
      auto imported = pgndb::index::import_file(
          *writer, std::string(PGNDB_SOURCE_DIR) + "/samples/" + file, {.threads = 1});
      FUZZ_CHECK(imported.has_value());
    }
    FUZZ_CHECK(writer->settle().is_ok());
  }
  auto reader = pgndb::index::Store::open((directory / "db").string(),
                                          {.create_if_missing = false, .read_only = true});
  FUZZ_CHECK(reader.has_value());
  store = std::make_shared<const pgndb::index::Store>(std::move(*reader));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t mark = input.find('?');
  const std::string_view path = input.substr(0, mark);
  const std::string_view query = mark == std::string_view::npos ? "" : input.substr(mark + 1);
  pgndb::serve::Response r = pgndb::serve::respond(store, path, query);
  FUZZ_CHECK(r.status == 200 || r.status == 400 || r.status == 404);
  if (r.stream) {
    FUZZ_CHECK(r.status == 200 && r.body.empty());
    std::string piece;
    int pieces = 0;
    while (r.stream(piece)) FUZZ_CHECK(++pieces < 1000);
    return 0;
  }
  if (r.content_type != "application/json") return 0;
  const auto body = nlohmann::json::parse(r.body, nullptr, /*allow_exceptions=*/false);
  FUZZ_CHECK(!body.is_discarded());
  if (r.status != 200)
    FUZZ_CHECK(body.contains("error") && !body["error"].get<std::string>().empty());
  return 0;
}
