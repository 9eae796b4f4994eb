#include "pgndb/index/input.h"

#include <zstd.h>

#include <vector>

#include "pgn/text.h"

namespace pgndb::index {

namespace {

// Streams a zstd frame sequence from an underlying source, one input block at a time, so
// memory stays flat whatever the size of the file.
class ZstdSource final : public pgn::ByteSource {
 public:
  ZstdSource(std::unique_ptr<pgn::ByteSource> inner, std::string path)
      : inner_(std::move(inner)),
        path_(std::move(path)),
        stream_(ZSTD_createDStream()),
        in_buffer_(ZSTD_DStreamInSize()) {}
  ~ZstdSource() override { ZSTD_freeDStream(stream_); }

  std::expected<std::size_t, std::string> read(char* buffer, std::size_t size) override {
    ZSTD_outBuffer out{buffer, size, 0};
    while (out.pos == 0) {
      if (in_.pos == in_.size) {
        if (inner_eof_) {
          if (!frame_done_) return std::unexpected(pgn::cat(path_, ": truncated zstd stream"));
          return 0;
        }
        auto n = inner_->read(in_buffer_.data(), in_buffer_.size());
        if (!n) return std::unexpected(n.error());
        if (*n == 0) {
          inner_eof_ = true;
          continue;
        }
        in_ = {in_buffer_.data(), *n, 0};
      }
      std::size_t r = ZSTD_decompressStream(stream_, &out, &in_);
      if (ZSTD_isError(r))
        return std::unexpected(pgn::cat(path_, ": zstd: ", ZSTD_getErrorName(r)));
      frame_done_ = r == 0;
    }
    return out.pos;
  }

 private:
  std::unique_ptr<pgn::ByteSource> inner_;
  std::string path_;
  ZSTD_DStream* stream_;
  std::vector<char> in_buffer_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  bool inner_eof_ = false;
  bool frame_done_ = true;
};

// Counts what passes through.
class MeteredSource final : public pgn::ByteSource {
 public:
  MeteredSource(std::unique_ptr<pgn::ByteSource> inner, std::atomic<std::uint64_t>& bytes_read)
      : inner_(std::move(inner)), bytes_read_(bytes_read) {}
  std::expected<std::size_t, std::string> read(char* buffer, std::size_t size) override {
    auto n = inner_->read(buffer, size);
    if (n) bytes_read_.fetch_add(*n, std::memory_order_relaxed);
    return n;
  }

 private:
  std::unique_ptr<pgn::ByteSource> inner_;
  std::atomic<std::uint64_t>& bytes_read_;
};

}  // namespace

std::expected<std::unique_ptr<pgn::ByteSource>, std::string> open_pgn_input(
    const std::string& path, std::atomic<std::uint64_t>* bytes_read) {
  auto file = pgn::FileSource::open(path);
  if (!file) return std::unexpected(file.error());
  std::unique_ptr<pgn::ByteSource> source = std::move(*file);
  if (bytes_read) source = std::make_unique<MeteredSource>(std::move(source), *bytes_read);
  if (path.ends_with(".zst")) source = std::make_unique<ZstdSource>(std::move(source), path);
  return source;
}

}  // namespace pgndb::index
