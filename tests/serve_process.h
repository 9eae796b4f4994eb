// The real `pgndb serve`, started by a test on 127.0.0.1 and a free port, and asked over HTTP.
// It stops (SIGTERM, then waited for) when the test's object goes; a test that fails midway
// leaves no server behind.
#pragma once

#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace pgndb::test {

struct HttpAnswer {
  int status = 0;
  std::string content_type, body;
  nlohmann::json json() const {
    INFO(body);
    return nlohmann::json::parse(body);
  }
};

class ServeProcess {
 public:
  explicit ServeProcess(const std::string& db) {
    int out[2];
    REQUIRE(pipe(out) == 0);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      execl(PGNDB_BINARY, PGNDB_BINARY, "serve", "--db", db.c_str(), "--port", "0", "--threads",
            "2", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(out[1]);
    // The first line names the address: "pgndb serve: http://127.0.0.1:PORT/ ...".
    FILE* in = fdopen(out[0], "r");
    char line[512] = {};
    const bool read = std::fgets(line, sizeof line, in) != nullptr;
    std::fclose(in);
    INFO("pgndb serve printed: " << line);
    REQUIRE(read);
    const std::string text = line;
    const std::size_t colon = text.find(':', text.find("127.0.0.1"));
    REQUIRE(colon != std::string::npos);
    port_ = std::stoi(text.substr(colon + 1));
    REQUIRE(port_ > 0);
  }
  ~ServeProcess() {
    if (pid_ > 0) stop();
  }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  // `path` with its query string, already encoded.
  HttpAnswer get(const std::string& path) const {
    httplib::Client client("127.0.0.1", port_);
    client.set_read_timeout(std::chrono::seconds(60));
    client.set_url_encode(false);  // the tests' paths are sent as written
    auto r = client.Get(path);
    INFO("GET " << path);
    REQUIRE(r);
    return {r->status, r->get_header_value("Content-Type"), r->body};
  }
  // Stops the server with SIGTERM; its exit status.
  int stop() {
    REQUIRE(pid_ > 0);  // never kill(-1, ...)
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return status;
  }
  int port() const { return port_; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace pgndb::test
