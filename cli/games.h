// The loop every command that reads PGN shares: open a file (plain, `-`, or `.zst`), read its
// games one at a time into a visitor, and hand each to the command.
#pragma once

#include <cstdint>
#include <expected>
#include <string>

#include "pgn/reader.h"
#include "pgndb/index/input.h"

namespace pgndb::cli {

// Reads games without looking at them: the part of a source an earlier run already handled.
struct SkipGames final : pgn::Visitor {
  pgn::Control begin_game(pgn::Location) override { return pgn::Control::Skip; }
};

// Reads the games of `file` into `visitor` and calls `each()` after each one; stops early when
// `each()` returns false. The first `skip` games are read without being looked at. Returns the
// error that kept the file from being read (it could not be opened, or an I/O error).
template <class Each>
[[nodiscard]] std::expected<void, std::string> for_each_game(const std::string& file,
                                                             pgn::Visitor& visitor, Each&& each,
                                                             std::uint64_t skip = 0) {
  auto source = index::open_pgn_input(file);
  if (!source) return std::unexpected(source.error());
  pgn::Reader reader(**source);
  SkipGames skipper;
  for (std::uint64_t i = 0; i < skip; ++i) {
    auto more = reader.read_game(skipper);
    if (!more) return std::unexpected(more.error());
    if (!*more) return {};
  }
  for (;;) {
    auto more = reader.read_game(visitor);
    if (!more) return std::unexpected(more.error());
    if (!*more || !each()) return {};
  }
}

}  // namespace pgndb::cli
