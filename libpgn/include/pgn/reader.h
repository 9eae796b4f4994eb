// The streaming PGN reader: pulls one game at a time from a byte source and pushes the events
// inside it to a visitor. It knows PGN syntax, not chess: a move is a token that looks like one,
// and the rules layer (replay.h) decides whether it is legal.
//
// Safety and cost: linear time in the input on any bytes, and memory bounded whatever the input
// (see ReaderOptions for the limits: a game's text, a token, tags and problems per game;
// variations nest at most pgn::max_variation_depth deep). The reader keeps the current game's
// bytes contiguous, so that a visitor can copy the original text of a game it could not
// understand. Nothing is loaded whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <expected>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pgn {

// Where something stands in the input. Lines and columns count from 1; a column counts bytes.
struct Location {
  std::uint64_t line = 1;
  std::uint32_t column = 1;
};

// --- Byte sources ---

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to `size` bytes into `buffer`: the count read, 0 at the end, or an I/O error.
  [[nodiscard]] virtual std::expected<std::size_t, std::string> read(char* buffer,
                                                                     std::size_t size) = 0;
};

// A file (or standard input for "-") read with stdio.
class FileSource final : public ByteSource {
 public:
  [[nodiscard]] static std::expected<std::unique_ptr<FileSource>, std::string> open(
      const std::string& path);
  ~FileSource() override;
  std::expected<std::size_t, std::string> read(char* buffer, std::size_t size) override;

 private:
  FileSource(std::FILE* file, bool owned, std::string path)
      : file_(file), owned_(owned), path_(std::move(path)) {}
  std::FILE* file_;
  bool owned_;
  std::string path_;
};

// Bytes already in memory (tests, fuzzing).
class StringSource final : public ByteSource {
 public:
  explicit StringSource(std::string_view text) : text_(text) {}
  std::expected<std::size_t, std::string> read(char* buffer, std::size_t size) override;

 private:
  std::string_view text_;
};

// --- Events ---

// What a visitor's callback asks of the reader.
enum class Control {
  Continue,
  // From begin_variation: skip that variation. Elsewhere inside a variation: skip the rest of
  // it (its end_variation still comes). Outside variations: skip the rest of the game.
  Skip,
  Stop,  // stop reading: read_game() returns after this game without reading further
};

// A move as written, with its surroundings. `san` is the bare move (suffix annotations and
// check signs removed only where they are annotations: `!`, `?`, `!!`, `??`, `!?`, `?!`).
struct MoveToken {
  std::string_view san;
  // The NAG a suffix annotation stands for ($1 `!` .. $6 `?!`), 0 when none.
  int suffix_nag;
  Location location;
};

// A problem in the syntax. Errors lose something (a token the reader could not use); warnings
// lose nothing (a quirk the reader repaired, such as a Latin-1 comment re-encoded as UTF-8).
struct SyntaxProblem {
  enum class Severity { Warning, Error };
  Severity severity;
  Location location;
  std::string message;
};

// Callbacks for one game, in order: begin_game, tag*, begin_movetext, then any of move, nag,
// comment, begin_variation / end_variation (properly nested), result; then end_game.
// String views are valid only during the callback. Every callback has a do-nothing default.
class Visitor {
 public:
  virtual ~Visitor() = default;

  virtual Control begin_game(Location) { return Control::Continue; }
  // Tag values have their escapes (`\"`, `\\`) resolved and are valid UTF-8.
  virtual Control tag(std::string_view /*name*/, std::string_view /*value*/, Location) {
    return Control::Continue;
  }
  virtual Control begin_movetext() { return Control::Continue; }
  virtual Control move(const MoveToken&) { return Control::Continue; }
  virtual Control nag(int /*nag*/, Location) { return Control::Continue; }
  // The text between the braces (or after `;` to the end of the line), valid UTF-8.
  virtual Control comment(std::string_view /*text*/, Location) { return Control::Continue; }
  // Variations are skipped unless a visitor asks for them by returning Continue.
  virtual Control begin_variation(Location) { return Control::Skip; }
  virtual Control end_variation(Location) { return Control::Continue; }
  // The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), when the movetext has one.
  virtual Control result(std::string_view /*result*/, Location) { return Control::Continue; }
  virtual void syntax_problem(const SyntaxProblem&) {}
  // `text` is the game's original bytes, from its first tag (or move) to the end of its
  // movetext; valid only during the call.
  virtual void end_game(std::string_view /*text*/) {}
};

// --- The reader ---

struct ReaderOptions {
  // Bytes read from the source at a time.
  std::size_t chunk_size = 1 << 20;
  // The most bytes of one game the reader keeps. A longer game is still read and its events
  // delivered, but its original text is given up (end_game gets an empty text) and an error is
  // reported. Guards memory against input that never ends a game.
  std::size_t max_game_size = std::size_t(64) << 20;
  // The longest comment, tag line or single token (a move, a number, a run of symbols). A
  // longer one is an error and is left out; its bytes are passed over without being kept.
  std::size_t max_token_size = std::size_t(1) << 20;
  // The most tag pairs of one game; the lines after are an error and are left out.
  std::size_t max_tags = 1000;
  // The most problems reported for one game; after them, one error says the rest are not.
  std::size_t max_problems = 100;
  // Where the source's first byte stands in the input it was cut from: a game's text read again
  // on its own (by another thread, say) reports the lines and columns of the original file.
  Location origin{};
  // Whether a UTF-8 byte order mark at the start of the source is passed over. Not in a text cut
  // from a longer input: there it is a character of the text, as a reader of the whole input
  // reads it.
  bool byte_order_mark = true;
};

class Reader {
 public:
  explicit Reader(ByteSource& source, ReaderOptions options = {});
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Reads the next game into `visitor`. Returns true when a game was read, false at the end of
  // the input (or after a visitor asked to stop); an I/O error of the source is an error value.
  [[nodiscard]] std::expected<bool, std::string> read_game(Visitor& visitor);

  // Where the reader stands now (after read_game: just past the game it read).
  Location location() const;
  // How many bytes of the source it has consumed, counted as location() is: a text cut from a
  // longer input can be read again from there (Location does not give the byte).
  std::uint64_t offset() const;
  // Whether the game read last would have ended as it did had the input gone on with a line
  // starting with `[` (a next game's tags): it ended before the input did (at a termination
  // marker, or at such a line), or the input ended at a line start between two tokens of its
  // movetext. Then a text cut from a longer input before such a line reads as the whole input
  // reads up to there (what an import's workers rely on to read a file in pieces).
  bool ends_before_tags() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// NAG of a suffix annotation or evaluation symbol (`!` -> 1, `+-` -> 18, `N` -> 146), or 0.
[[nodiscard]] int nag_of_symbol(std::string_view symbol);

}  // namespace pgn
