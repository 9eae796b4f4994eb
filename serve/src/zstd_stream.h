// zstd compression of a stream of pieces (an export sent as it is read): each piece compressed
// as it comes, the frame ended after the last, memory flat whatever the size.
#pragma once

#include <zstd.h>

#include <memory>
#include <string>
#include <string_view>

namespace pgndb::serve {

class ZstdStream {
 public:
  ZstdStream() : context_(ZSTD_createCCtx(), ZSTD_freeCCtx) {
    // Level 3, zstd's default: an export is compressed as fast as it is read.
    ZSTD_CCtx_setParameter(context_.get(), ZSTD_c_compressionLevel, 3);
  }
  // Appends to `out` what compressing `in` gives; with `last`, ends the frame. False when zstd
  // fails (out of memory).
  [[nodiscard]] bool compress(std::string_view in, std::string& out, bool last) {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    const ZSTD_EndDirective mode = last ? ZSTD_e_end : ZSTD_e_continue;
    while (true) {
      const std::size_t at = out.size();
      out.resize(at + ZSTD_CStreamOutSize());
      ZSTD_outBuffer output{out.data() + at, out.size() - at, 0};
      const std::size_t left = ZSTD_compressStream2(context_.get(), &output, &input, mode);
      out.resize(at + output.pos);
      if (ZSTD_isError(left)) return false;
      if (last ? left == 0 : input.pos == input.size) return true;
    }
  }

 private:
  std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> context_;
};

}  // namespace pgndb::serve
