// The loop every command that reads PGN shares: open a file (plain, `-`, or `.zst`), read its
// games one at a time into a visitor, and hand each to the command.
#pragma once

#include <expected>
#include <string>

#include "pgn/reader.h"
#include "pgndb/index/input.h"

namespace pgndb::cli {

// Reads the games of `file` into `visitor` and calls `each()` after each one; stops early when
// `each()` returns false. Returns the error that kept the file from being read (it could not
// be opened, or an I/O error).
template <class Each>
[[nodiscard]] std::expected<void, std::string> for_each_game(const std::string& file,
                                                             pgn::Visitor& visitor, Each&& each) {
  auto source = index::open_pgn_input(file);
  if (!source) return std::unexpected(source.error());
  pgn::Reader reader(**source);
  for (;;) {
    auto more = reader.read_game(visitor);
    if (!more) return std::unexpected(more.error());
    if (!*more || !each()) return {};
  }
}

}  // namespace pgndb::cli
