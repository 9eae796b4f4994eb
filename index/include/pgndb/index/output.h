// Writing PGN out: to standard output ("-"), a file, or a zstd-compressed file (a name ending
// in `.zst`), compressed as a stream, so that memory stays flat whatever is written. The
// counterpart of input.h.
#pragma once

#include <expected>
#include <memory>
#include <string>
#include <string_view>

namespace pgndb::index {

class PgnOutput {
 public:
  // Creates (or truncates) `path`. The error names the file and the reason.
  [[nodiscard]] static std::expected<PgnOutput, std::string> open(const std::string& path);
  PgnOutput(PgnOutput&&) noexcept;
  PgnOutput& operator=(PgnOutput&&) noexcept;
  ~PgnOutput();

  [[nodiscard]] std::expected<void, std::string> write(std::string_view bytes);
  // Ends the compressed stream and flushes; the output is whole only after this.
  [[nodiscard]] std::expected<void, std::string> close();

 private:
  struct Impl;
  explicit PgnOutput(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pgndb::index
