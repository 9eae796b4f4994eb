// Opening PGN input: a plain file, standard input ("-"), or a zstd-compressed file (`.zst`, as
// the lichess dumps come), decompressed as a stream. libpgn reads plain bytes only; compression
// lives here, with the other third-party libraries.
#pragma once

#include <atomic>
#include <cstdint>
#include <expected>
#include <memory>
#include <string>

#include "pgn/reader.h"

namespace pgndb::index {

// Opens `path` for reading; files whose name ends in `.zst` are decompressed on the fly.
// The error names the file and the reason. When `bytes_read` is given, it counts the bytes read
// from the file itself (compressed ones for `.zst`), for progress against the file's size; it
// may be read from another thread.
[[nodiscard]] std::expected<std::unique_ptr<pgn::ByteSource>, std::string> open_pgn_input(
    const std::string& path, std::atomic<std::uint64_t>* bytes_read = nullptr);

}  // namespace pgndb::index
