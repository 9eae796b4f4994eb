#include "pgndb/index/output.h"

#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "pgn/text.h"

namespace pgndb::index {

struct PgnOutput::Impl {
  std::FILE* file = nullptr;
  std::string path;
  ZSTD_CStream* zstd = nullptr;  // for `.zst`
  std::vector<char> buffer;      // compressed bytes on their way to the file

  ~Impl() {
    if (zstd) ZSTD_freeCStream(zstd);
    if (file && file != stdout) std::fclose(file);
  }
  std::unexpected<std::string> failed() const {
    return std::unexpected(pgn::cat(path, ": ", std::strerror(errno)));
  }
  std::expected<void, std::string> put(const char* data, std::size_t size) {
    if (size && std::fwrite(data, 1, size, file) != size) return failed();
    return {};
  }
  // Runs the compressor over `in` (with `end`, to the end of the frame) and writes its output.
  std::expected<void, std::string> compress(std::string_view in, ZSTD_EndDirective end) {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    for (;;) {
      ZSTD_outBuffer output{buffer.data(), buffer.size(), 0};
      const std::size_t left = ZSTD_compressStream2(zstd, &output, &input, end);
      if (ZSTD_isError(left))
        return std::unexpected(pgn::cat(path, ": zstd: ", ZSTD_getErrorName(left)));
      if (auto r = put(buffer.data(), output.pos); !r) return r;
      if (end == ZSTD_e_end ? left == 0 : input.pos == input.size) return {};
    }
  }
};

PgnOutput::PgnOutput(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PgnOutput::PgnOutput(PgnOutput&&) noexcept = default;
PgnOutput& PgnOutput::operator=(PgnOutput&&) noexcept = default;
PgnOutput::~PgnOutput() = default;

std::expected<PgnOutput, std::string> PgnOutput::open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  impl->path = path == "-" ? "standard output" : path;
  impl->file = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (!impl->file) return impl->failed();
  if (path.size() > 4 && path.ends_with(".zst")) {
    impl->zstd = ZSTD_createCStream();
    ZSTD_CCtx_setParameter(impl->zstd, ZSTD_c_compressionLevel, 3);
    impl->buffer.resize(ZSTD_CStreamOutSize());
  }
  return PgnOutput(std::move(impl));
}

std::expected<void, std::string> PgnOutput::write(std::string_view bytes) {
  return impl_->zstd ? impl_->compress(bytes, ZSTD_e_continue)
                     : impl_->put(bytes.data(), bytes.size());
}

std::expected<void, std::string> PgnOutput::close() {
  if (impl_->zstd)
    if (auto r = impl_->compress({}, ZSTD_e_end); !r) return r;
  if (std::fflush(impl_->file) != 0) return impl_->failed();
  return {};
}

}  // namespace pgndb::index
