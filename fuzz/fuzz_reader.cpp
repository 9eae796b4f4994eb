// The PGN reader and the replay on any bytes, and the writer over what they make of them.
//
// Input: the first byte chooses the reader's chunk size (1..128 bytes, so that games, tags,
// comments and tokens straddle buffer refills) and, with its high bit, a small max_game_size
// (the path that gives up a game's original text); the rest is the PGN text.
//
// Checks, besides the sanitizers' own: variation events nest (no end_variation without its
// begin, none left open at end_game, never deeper than pgn::max_variation_depth); and export is
// canonical: a game the replay could play whole, written by the writer, reads back as exactly
// one game with no error, which the writer writes as the same text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.h"
#include "pgn/game_record.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgn/writer.h"

namespace {

// The replay visitor, watching its variation events.
class NestingVisitor final : public pgn::ReplayVisitor {
 public:
  NestingVisitor() : ReplayVisitor({.keep_record = true}) {}

  pgn::Control begin_game(pgn::Location at) override {
    FUZZ_CHECK(depth_ == 0);
    return ReplayVisitor::begin_game(at);
  }
  pgn::Control begin_variation(pgn::Location at) override {
    const pgn::Control c = ReplayVisitor::begin_variation(at);
    // A skipped variation sends no end_variation.
    if (c == pgn::Control::Continue) {
      ++depth_;
      FUZZ_CHECK(depth_ <= pgn::max_variation_depth);
    }
    return c;
  }
  pgn::Control end_variation(pgn::Location at) override {
    FUZZ_CHECK(depth_ > 0);
    --depth_;
    return ReplayVisitor::end_variation(at);
  }
  void end_game(std::string_view text) override {
    FUZZ_CHECK(depth_ == 0);
    ReplayVisitor::end_game(text);
  }

 private:
  int depth_ = 0;
};

// Reads `text` (one game, written by the writer) and writes it again.
std::string reread(const std::string& text) {
  pgn::StringSource source(text);
  // The default chunk (1 MiB, zeroed when the reader starts) would cost more than the game.
  pgn::Reader reader(source, {.chunk_size = 4096});
  NestingVisitor visitor;
  auto read = reader.read_game(visitor);
  FUZZ_CHECK(read && *read);
  FUZZ_CHECK(visitor.replayed() && !visitor.has_error());
  std::string again;
  pgn::write_game(visitor.record(), again);
  auto more = reader.read_game(visitor);
  FUZZ_CHECK(more && !*more);
  return again;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  pgn::ReaderOptions options;
  options.chunk_size = 1 + data[0] % 128;
  if (data[0] & 0x80) options.max_game_size = 512;
  pgn::StringSource source(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  pgn::Reader reader(source, options);
  NestingVisitor visitor;
  std::string written;
  for (int games = 0;; ++games) {
    auto read = reader.read_game(visitor);
    FUZZ_CHECK(read);  // a string source has no I/O error
    if (!*read) break;
    FUZZ_CHECK(games < int(size));  // every game consumes input
    if (!visitor.replayed()) continue;
    written.clear();
    pgn::write_game(visitor.record(), written);
    FUZZ_CHECK(reread(written) == written);
  }
  return 0;
}
