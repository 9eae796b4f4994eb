// pgndb serve: the answers of respond.h over HTTP, from a database opened read-only and opened
// again when an import changes it.
#pragma once

#include <chrono>
#include <expected>
#include <memory>
#include <string>

#include "pgndb/index/status.h"

namespace pgndb::serve {

struct ServerOptions {
  std::string db;
  std::string host = "127.0.0.1";
  unsigned port = 9090;  // 0: any free port (Server::port() tells which)
  // Requests answered at once. A connection kept alive holds its thread while it waits for the
  // next request (up to 5 s): a browser keeps about six.
  unsigned threads = 16;
  // The database's block cache: the games, summaries and index blocks that requests read stay
  // decompressed there for the next requests.
  std::size_t cache_bytes = std::size_t(256) << 20;
  // How often the database directory is looked at for an import's changes.
  std::chrono::milliseconds refresh = std::chrono::seconds(1);
};

class Server {
 public:
  // Opens the database and binds; an error names what failed (the database, the address).
  [[nodiscard]] static std::expected<Server, index::Status> start(const ServerOptions& options);
  Server(Server&&) noexcept;
  Server& operator=(Server&&) noexcept;
  ~Server();  // stops

  unsigned port() const;
  // Answers requests until stop() (from another thread or a signal handler's thread).
  void run();
  void stop();

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pgndb::serve
