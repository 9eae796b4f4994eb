// Opening PGN input: a plain file, standard input ("-"), or a zstd-compressed file (`.zst`, as
// the lichess dumps come), decompressed as a stream. libpgn reads plain bytes only; compression
// lives here, with the other third-party libraries.
#pragma once

#include <expected>
#include <memory>
#include <string>

#include "pgn/reader.h"

namespace pgndb::index {

// Opens `path` for reading; files whose name ends in `.zst` are decompressed on the fly.
// The error names the file and the reason.
[[nodiscard]] std::expected<std::unique_ptr<pgn::ByteSource>, std::string> open_pgn_input(
    const std::string& path);

}  // namespace pgndb::index
