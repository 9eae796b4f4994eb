// What pgndb serve answers, without the HTTP around it: a GET of a path with a query string,
// against one open database. Tests and the fuzzer call it directly; server.h puts it behind
// sockets. docs/serve.md lists the paths and their parameters.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "pgndb/index/store.h"

namespace pgndb::serve {

struct Response {
  // 200; 400 for a request that is wrong (a malformed FEN, an illegal move, a bad or unknown
  // parameter), with `{"error": "..."}`; 404 for an unknown path or game; 500 only when the
  // database fails.
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  // A long body (an export) is produced in pieces instead: each call appends the next piece to
  // its argument and returns false after the last. Set, `body` is empty. It holds what it reads
  // (the store among it) for as long as it lives.
  std::function<bool(std::string&)> stream;
};

// Never throws. `store` is shared so that a stream can outlive the call.
[[nodiscard]] Response respond(const std::shared_ptr<const index::Store>& store,
                               std::string_view path, std::string_view query);

}  // namespace pgndb::serve
