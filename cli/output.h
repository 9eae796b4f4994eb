// Where a command writes its PGN: standard output for "-", else a file it creates (or
// truncates). Errors name the file and the reason.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <expected>
#include <memory>
#include <string>
#include <string_view>

namespace pgndb::cli {

class Output {
 public:
  [[nodiscard]] static std::expected<Output, std::string> open(const std::string& path) {
    if (path == "-") return Output(stdout, path);
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return std::unexpected(path + ": " + std::strerror(errno));
    return Output(f, path);
  }

  // False on a write error (the message is then error()).
  [[nodiscard]] bool write(std::string_view bytes) {
    return bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), file_.get()) == bytes.size();
  }
  [[nodiscard]] bool flush() { return std::fflush(file_.get()) == 0; }
  std::string error() const { return path_ + ": " + std::strerror(errno); }

 private:
  static int close(std::FILE* f) { return f == stdout ? 0 : std::fclose(f); }
  Output(std::FILE* f, std::string path) : file_(f, &close), path_(std::move(path)) {}

  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  std::string path_;
};

}  // namespace pgndb::cli
