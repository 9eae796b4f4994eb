#include "pgn/reader.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <optional>

#include "encoding.h"
#include "pgn/game_record.h"
#include "pgn/text.h"

namespace pgn {

// --- Byte sources ---

std::expected<std::unique_ptr<FileSource>, std::string> FileSource::open(const std::string& path) {
  if (path == "-") return std::unique_ptr<FileSource>(new FileSource(stdin, false, "<stdin>"));
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return std::unexpected(cat(path, ": ", std::strerror(errno)));
  return std::unique_ptr<FileSource>(new FileSource(f, true, path));
}

FileSource::~FileSource() {
  if (owned_) std::fclose(file_);
}

std::expected<std::size_t, std::string> FileSource::read(char* buffer, std::size_t size) {
  std::size_t n = std::fread(buffer, 1, size, file_);
  if (n == 0 && std::ferror(file_)) return std::unexpected(cat(path_, ": ", std::strerror(errno)));
  return n;
}

std::expected<std::size_t, std::string> StringSource::read(char* buffer, std::size_t size) {
  std::size_t n = std::min(size, text_.size());
  std::memcpy(buffer, text_.data(), n);
  text_.remove_prefix(n);
  return n;
}

int nag_of_symbol(std::string_view s) {
  // Suffix annotations ($1-$6) and the common evaluation symbols, as the PGN standard and
  // ChessBase's figurine notation map them.
  struct Entry {
    std::string_view symbol;
    int nag;
  };
  static constexpr Entry table[] = {
      {"!", 1},    {"?", 2},       {"!!", 3},      {"??", 4},   {"!?", 5},
      {"?!", 6},   {"=", 10},      {"\u221e", 13}, {"+=", 14},  {"\u2a72", 14},
      {"=+", 15},  {"\u2a71", 15}, {"\u00b1", 16}, {"+/-", 16}, {"\u2213", 17},
      {"-/+", 17}, {"+-", 18},     {"-+", 19},     {"N", 146},  {"\u25a1", 22},
  };
  for (const auto& e : table)
    if (e.symbol == s) return e.nag;
  return 0;
}

// --- The reader ---

namespace {

// Character classes by table: the tokenizer asks one of these for every byte it reads.
// NUL is in no class: it is the sentinel that ends the buffered input (Reader::Impl::run_of).
enum CharClass : std::uint8_t {
  Space = 1,
  Digit = 2,
  Alpha = 4,
  MoveChar = 8,
  SymbolChar = 16,
  TagNameChar = 32,  // letters, digits, `_`, and `-` (seen in real files)
  ResultChar = 64,   // what a result, a move number or castling with zeros is made of
  Blank = 128,       // white space that does not end a line
};
constexpr std::array<std::uint8_t, 256> char_classes = [] {
  std::array<std::uint8_t, 256> t{};
  for (char c : {' ', '\t', '\n', '\r', '\f', '\v'}) t[std::uint8_t(c)] |= Space;
  for (char c : {' ', '\t', '\f', '\v'}) t[std::uint8_t(c)] |= Blank;
  for (int c = '0'; c <= '9'; ++c) t[c] |= TagNameChar | ResultChar;
  for (int c = 'a'; c <= 'z'; ++c) t[c] |= TagNameChar;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] |= TagNameChar;
  t['_'] |= TagNameChar;
  t['-'] |= TagNameChar;
  for (char c : {'-', '/', 'O'}) t[std::uint8_t(c)] |= ResultChar;
  for (int c = '0'; c <= '9'; ++c) t[c] |= Digit | MoveChar;
  for (int c = 'a'; c <= 'z'; ++c) t[c] |= Alpha | MoveChar;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] |= Alpha | MoveChar;
  // Characters a SAN, LAN or UCI move may hold (the annotations `!?` come after).
  for (char c : {'=', '+', '#', '-', ':', '/', '.', '@'}) t[std::uint8_t(c)] |= MoveChar;
  for (char c : {'+', '-', '=', '/'}) t[std::uint8_t(c)] |= SymbolChar;
  return t;
}();
bool is_space(char c) { return char_classes[std::uint8_t(c)] & Space; }
bool is_digit(char c) { return char_classes[std::uint8_t(c)] & Digit; }
bool is_alpha(char c) { return char_classes[std::uint8_t(c)] & Alpha; }
bool is_symbol_char(char c) { return char_classes[std::uint8_t(c)] & SymbolChar; }

// Bytes the buffer holds past its sentinel, so that a scan may read a whole word at any byte up
// to the sentinel (Reader::Impl::scan_comment_brace).
constexpr std::size_t word_padding = 8;

// Where the first of `}`, a line end or NUL stands from `p` on; one must (the sentinel). Eight
// bytes at a time: a game with a clock and an eval on every move is mostly comments, which the
// import's cutting thread and its workers each scan (a byte at a time, 5% of such an import).
const char* comment_stop(const char* p) {
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    // The lowest byte flagged is exactly the first zero byte (flags above it may be false).
    auto zeros = [](std::uint64_t v) { return (v - ones) & ~v & highs; };
    for (;; p += 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      const std::uint64_t stops =
          zeros(w) | zeros(w ^ ('}' * ones)) | zeros(w ^ ('\n' * ones)) | zeros(w ^ ('\r' * ones));
      if (stops) return p + std::countr_zero(stops) / 8;
    }
  }
  while (*p != '}' && *p != '\n' && *p != '\r' && *p != '\0') ++p;
  return p;
}

bool is_result(std::string_view t) {
  return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*" || t == "1/2" ||
         t == "\u00bd-\u00bd";
}

}  // namespace

class Reader::Impl {
 public:
  Impl(ByteSource& source, ReaderOptions options) : source_(source), options_(options) {
    buffer_.resize(options_.chunk_size + 1 + word_padding);
    buffer_[0] = '\0';
    // When the source starts inside a line of a larger input, that line began before the
    // source's first byte: the offset wraps around (unsigned), and columns still come out right.
    line_ = options_.origin.line;
    line_start_ = std::uint64_t(0) - (options_.origin.column - 1);
  }

  std::expected<bool, std::string> read_game(Visitor& visitor);
  Location location() const { return location_at(pos_); }
  std::uint64_t offset() const { return stream_offset(); }
  bool ends_before_tags() const { return !input_ended_ || input_ended_between_tokens_; }

 private:
  // --- Buffer ---
  // buffer_[0, end_) holds input; buffer_[end_] is a NUL sentinel. Bytes before `keep_` may be
  // dropped at the next refill; from `keep_` on (the current game) they stay, so the game's
  // original text is contiguous at end_game.
  bool refill();
  // Makes buffer_[pos_ + n] readable if the input has that many bytes; false at the end.
  bool available(std::size_t n) {
    while (pos_ + n >= end_) {
      if (!refill()) return false;
    }
    return true;
  }
  char peek(std::size_t n = 0) { return available(n) ? buffer_[pos_ + n] : '\0'; }
  bool at_end() { return !available(0); }

  Location location_at(std::size_t offset) const {
    return {line_, std::uint32_t(dropped_ + offset - line_start_ + 1)};
  }
  // Consumes one byte, keeping the line count (LF, CRLF and lone CR all end a line).
  void consume_byte() {
    char c = buffer_[pos_++];
    if (c == '\n' || (c == '\r' && peek() != '\n')) {
      ++line_;
      line_start_ = dropped_ + pos_;
    }
  }
  bool at_line_start() const { return dropped_ + pos_ == line_start_; }
  // Offsets into the buffer move when a refill drops consumed bytes; offsets in the stream do
  // not. Anything held across a read of more input is held as a stream offset.
  std::uint64_t stream_offset() const { return dropped_ + pos_; }
  // The bytes from `start` to here; those of an over-long game already given up are missing.
  std::string_view since(std::uint64_t start) const {
    start = std::max(start, dropped_);
    return {buffer_.data() + (start - dropped_), std::size_t(stream_offset() - start)};
  }

  // --- Scanning ---
  void skip_whitespace();
  void skip_line();
  // The length of the run of bytes in `classes` from pos_ + n on, reading more input as needed
  // but not much past max_token_size: a run that long may go on (see too_long). The inner loop
  // needs no bounds check: the NUL sentinel at end_ is in no class; a run that reaches end_
  // reads on.
  std::size_t run_of(std::uint8_t classes, std::size_t n = 0) {
    for (;;) {
      const char* p = buffer_.data() + pos_ + n;
      while (char_classes[std::uint8_t(*p)] & classes) ++p;
      n = std::size_t(p - buffer_.data()) - pos_;
      if (pos_ + n < end_ || n >= options_.max_token_size || !available(n)) return n;
    }
  }
  // Whether a figurine (U+2654..U+265F, UTF-8 E2 99 94..9F) starts `n` bytes past pos_.
  bool figurine_at(std::size_t n) {
    if (!available(n + 2)) return false;
    const auto* b = reinterpret_cast<const std::uint8_t*>(buffer_.data() + pos_ + n);
    return b[0] == 0xE2 && b[1] == 0x99 && b[2] >= 0x94 && b[2] <= 0x9F;
  }
  // The length of a move token at pos_: a run of MoveChar with figurines among them (`♘f3`,
  // `e8=♕`), which the replay reads as piece letters.
  std::size_t move_run() {
    std::size_t n = run_of(MoveChar);
    // The byte after a run is in the buffer (the NUL sentinel at end_ at the latest): one
    // comparison for the tokens without figurines, nearly all of them.
    while (n < options_.max_token_size && std::uint8_t(buffer_[pos_ + n]) == 0xE2 && figurine_at(n))
      n = run_of(MoveChar, n + 3);
    return n;
  }
  // When the token of `n` bytes at pos_ (a run of `classes`) is over the limit: passes over all
  // of it, reports it, and returns true.
  bool too_long(Visitor& v, std::uint8_t classes, std::size_t n, Location at) {
    if (n < options_.max_token_size) return false;
    pass_over([&](char c) { return (char_classes[std::uint8_t(c)] & classes) != 0; });
    problem(v, SyntaxProblem::Severity::Error, at,
            cat("token longer than ", options_.max_token_size, " bytes; ignored"));
    return true;
  }
  // Consumes bytes while `in_token` holds, keeping none of them: once a game is over its size
  // limit, a refill may drop everything before pos_.
  template <class InToken>
  void pass_over(InToken in_token) {
    while (available(0) && in_token(buffer_[pos_])) {
      ++pos_;
      token_start_ = stream_offset();
    }
  }

  // --- Grammar ---
  bool read_tag(Visitor& v);
  void read_movetext(Visitor& v);
  void skip_movetext(Visitor& v);
  // Reads a `{...}` comment; the text is valid until the next read of input. Nothing when the
  // comment is over the token limit (reported).
  std::optional<std::string_view> scan_comment_brace(Visitor& v, Location at);
  void read_comment_brace(Visitor& v);
  void read_comment_line(Visitor& v);
  void read_token(Visitor& v);

  // At the end of the input, between two tokens of the movetext: as where a line starting with
  // `[` would end it, when the movetext has begun, the last byte ended a line, and no comment is
  // left open.
  void note_input_end() {
    input_ended_ = true;
    input_ended_between_tokens_ = movetext_items_ > 0 && at_line_start() && !comment_unclosed_;
  }

  // --- Events, filtered by skip state ---
  bool delivering() const { return !skip_game_ && skip_depth_ == 0; }
  void handle(Control c, bool variation_begin = false);
  void close_variation(Visitor& v, Location at) {
    if (skip_depth_ > 0) {
      if (--skip_depth_ > 0 || !skip_ends_visibly_) return;
      skip_ends_visibly_ = false;
    }
    if (!skip_game_) handle(v.end_variation(at));
  }
  // Problems in a part of the game the visitor skipped are not its concern. At most
  // max_problems of each severity are reported, then one more of that severity says the rest
  // are not: an error is never hidden behind warnings.
  void problem(Visitor& v, SyntaxProblem::Severity severity, Location at, std::string message) {
    if (!delivering()) return;
    std::size_t& count = problem_counts_[severity == SyntaxProblem::Severity::Error];
    if (count > options_.max_problems) return;
    if (count++ == options_.max_problems)
      message = cat("more than ", options_.max_problems, " problems of this kind in this game; ",
                    "the rest are not reported");
    v.syntax_problem({severity, at, std::move(message)});
  }
  // Tag values and comments as UTF-8: returned as they are when valid, else re-encoded.
  std::string_view as_utf8(Visitor& v, std::string_view text, Location at);

  ByteSource& source_;
  ReaderOptions options_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, end_ = 0, keep_ = 0;
  std::uint64_t line_start_ = 0;  // stream offset of the current line's first byte
  std::uint64_t dropped_ = 0;     // bytes dropped from the front of the buffer so far
  std::uint64_t line_ = 1;
  bool eof_ = false;
  bool stopped_ = false;
  bool first_game_ = true;
  std::string io_error_;

  // Per game.
  bool skip_game_ = false;
  std::uint64_t variation_depth_ = 0;
  std::uint64_t skip_depth_ = 0;    // > 0 while inside a skipped variation
  bool skip_ends_visibly_ = false;  // the skipped variation began before it was skipped
  bool game_over_ = false;
  bool reported_encoding_ = false;
  bool game_truncated_ = false;
  // How the game ended, for ends_before_tags(): at the end of the input, and if so, at a line
  // start between two tokens of its movetext (not in its tags, not inside a comment).
  bool input_ended_ = false, input_ended_between_tokens_ = false;
  bool comment_unclosed_ = false;
  // Tokens, comments and parentheses of the movetext so far.
  std::uint64_t movetext_items_ = 0;
  bool tags_over_limit_ = false;
  std::size_t problem_counts_[2] = {};  // warnings, errors
  std::uint64_t token_end_ = 0;         // stream offset just past the game's last token so far
  std::uint64_t token_start_ = 0;       // stream offset of the token being read
  std::vector<std::string> tag_names_;
  std::vector<std::pair<std::string, Location>> leading_comments_;
  std::string scratch_, unescaped_;
};

bool Reader::Impl::refill() {
  if (eof_) return false;
  // A game longer than the limit gives up its original text: from then on only the bytes of
  // the token being read are kept (reported at the game's end).
  const std::size_t token_start = std::size_t(std::max(token_start_, dropped_) - dropped_);
  if (end_ - keep_ >= options_.max_game_size && keep_ < token_start) {
    game_truncated_ = true;
    keep_ = token_start;
  }
  // Drop what is no longer needed, then make room for a chunk.
  if (keep_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + keep_, end_ - keep_);
    dropped_ += keep_;
    pos_ -= keep_;
    end_ -= keep_;
    keep_ = 0;
  }
  if (buffer_.size() - 1 - word_padding - end_ < options_.chunk_size)
    buffer_.resize(std::max(buffer_.size() * 2, end_ + options_.chunk_size + 1 + word_padding));
  auto n = source_.read(buffer_.data() + end_, options_.chunk_size);
  if (!n) {
    io_error_ = n.error();
    eof_ = true;
    buffer_[end_] = '\0';
    return false;
  }
  end_ += *n;
  buffer_[end_] = '\0';
  if (*n == 0) eof_ = true;
  return *n > 0;
}

void Reader::Impl::skip_whitespace() {
  for (;;) {
    token_start_ = stream_offset();  // white space is no token: nothing here needs keeping
    char c = peek();
    if (char_classes[std::uint8_t(c)] & Blank) {
      pos_ += run_of(Blank);
    } else if (is_space(c)) {
      consume_byte();
    } else if (c == '%' && at_line_start()) {
      skip_line();  // PGN's escape mechanism: the whole line is ignored
    } else if (c == '\0' && !at_end()) {
      ++pos_;  // stray NUL bytes (seen between games in real files) carry nothing
    } else {
      return;
    }
  }
}

void Reader::Impl::skip_line() {
  pass_over([](char c) { return c != '\n' && c != '\r'; });
  if (at_end()) return;
  const char c = buffer_[pos_];
  consume_byte();
  if (c == '\r' && peek() == '\n') consume_byte();
}

void Reader::Impl::handle(Control c, bool variation_begin) {
  switch (c) {
    case Control::Continue: break;
    case Control::Skip:
      if (variation_begin) {
        skip_depth_ = 1;
      } else if (variation_depth_ > 0 && skip_depth_ == 0) {
        // The rest of the variation the visitor is in; it still sees that variation end.
        skip_depth_ = 1;
        skip_ends_visibly_ = true;
      } else {
        skip_game_ = true;
      }
      break;
    case Control::Stop:
      skip_game_ = true;
      stopped_ = true;
      break;
  }
}

std::string_view Reader::Impl::as_utf8(Visitor& v, std::string_view text, Location at) {
  if (is_valid_utf8(text)) return text;
  scratch_ = windows1252_to_utf8(text);
  if (!reported_encoding_) {
    reported_encoding_ = true;
    problem(v, SyntaxProblem::Severity::Warning, at,
            "text is not valid UTF-8; read as Windows-1252 (Latin-1)");
  }
  return scratch_;
}

// One tag pair, `[Name "value"]`, from the `[`. Lenient about what real files hold: raw quotes
// and `]` inside the value (the value ends at the last `"` before the `]` that ends the line or
// precedes the next `[`), a missing closing bracket or quote.
bool Reader::Impl::read_tag(Visitor& v) {
  const Location at = location_at(pos_);
  ++pos_;  // '['
  pass_over([](char b) { return b == ' ' || b == '\t'; });
  // A tag line over the token limit is passed over whole.
  auto tag_too_long = [&] {
    skip_line();
    problem(v, SyntaxProblem::Severity::Error, at,
            cat("tag longer than ", options_.max_token_size, " bytes; ignored"));
    return true;
  };
  const std::size_t name_size = run_of(TagNameChar);
  if (name_size >= options_.max_token_size) return tag_too_long();
  std::string name_copy(buffer_.data() + pos_, name_size);
  pos_ += name_size;
  pass_over([](char b) { return b == ' ' || b == '\t'; });

  // The rest of the line, up to where the tag ends.
  std::size_t n = 0;
  while (n <= options_.max_token_size && available(n) && buffer_[pos_ + n] != '\n' &&
         buffer_[pos_ + n] != '\r')
    ++n;
  if (n > options_.max_token_size) return tag_too_long();
  std::string_view rest(buffer_.data() + pos_, n);

  // Where the tag ends: the `]` after the closing quote. Another tag may follow on the line.
  std::size_t close = std::string_view::npos;
  if (!rest.empty() && rest[0] == '"') {
    for (std::size_t i = 1; i < rest.size(); ++i) {
      if (rest[i] == '\\' && i + 1 < rest.size()) {
        ++i;
        continue;
      }
      if (rest[i] != '"') continue;
      std::size_t j = i + 1;
      while (j < rest.size() && (rest[j] == ' ' || rest[j] == '\t')) ++j;
      if (j < rest.size() && rest[j] == ']') {
        // This `"]` ends the tag when the line ends there, a new tag follows, or no other `"]`
        // comes later on the line (movetext may follow: `[Result "1-0"] 1. e4 1-0`).
        // Otherwise the quote was a raw one inside the value.
        std::size_t after = j + 1;
        while (after < rest.size() && (rest[after] == ' ' || rest[after] == '\t')) ++after;
        if (after == rest.size() || rest[after] == '[' ||
            rest.find("\"]", after) == std::string_view::npos) {
          close = j;
          rest = rest.substr(0, i + 1);
          break;
        }
      }
    }
  }

  std::string_view value;
  if (close != std::string_view::npos) {
    value = rest.substr(1, rest.size() - 2);
    pos_ += close + 1;
  } else {
    // No well-formed end: take the line, without the brackets and quotes it has.
    std::string_view line = rest;
    while (!line.empty() && (line.back() == ']' || line.back() == ' ' || line.back() == '\t'))
      line.remove_suffix(1);
    if (!line.empty() && line.front() == '"') line.remove_prefix(1);
    if (!line.empty() && line.back() == '"') line.remove_suffix(1);
    value = line;
    pos_ += n;
    problem(
        v, SyntaxProblem::Severity::Warning, at,
        cat("tag ", name_copy.empty() ? std::string("?") : excerpt(name_copy),
            " is not of the form [Name \"value\"]; read its value as \"", excerpt(value), "\""));
  }

  if (name_copy.empty()) {
    problem(v, SyntaxProblem::Severity::Error, at, "tag without a name; ignored");
    return true;
  }

  // Resolve the escapes `\"` and `\\`; any other backslash stands for itself.
  unescaped_.clear();
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\' && i + 1 < value.size() && (value[i + 1] == '"' || value[i + 1] == '\\'))
      ++i;
    unescaped_ += value[i];
  }
  tag_names_.push_back(name_copy);
  if (delivering()) handle(v.tag(name_copy, as_utf8(v, unescaped_, at), at));
  return true;
}

std::optional<std::string_view> Reader::Impl::scan_comment_brace(Visitor& v, Location at) {
  consume_byte();  // '{'
  const std::uint64_t start = stream_offset();
  bool over_limit = false;
  // Braces do not nest in PGN; the first `}` closes the comment.
  for (;;) {
    if (!available(0)) {
      problem(v, SyntaxProblem::Severity::Error, at,
              "comment not closed before the end of the input");
      comment_unclosed_ = true;
      break;
    }
    // The buffered bytes up to the next `}`, line end or NUL (the sentinel at end_ among them).
    const char* const from = buffer_.data() + pos_;
    const char* const p = comment_stop(from);
    pos_ += std::size_t(p - from);
    if (pos_ < end_) {
      if (*p == '}') break;
      if (*p == '\0')
        ++pos_;  // a NUL inside the comment is text
      else
        consume_byte();
    }
    if (!over_limit) over_limit = stream_offset() - start > options_.max_token_size;
    if (over_limit) token_start_ = stream_offset();  // given up: keep none of it
  }
  // The last stretch, up to the `}`, counts too: one read can hold a whole long comment.
  over_limit = over_limit || stream_offset() - start > options_.max_token_size;
  std::string_view text = over_limit ? std::string_view() : since(start);
  if (!at_end()) ++pos_;  // '}'
  if (!over_limit) return text;
  problem(v, SyntaxProblem::Severity::Error, at,
          cat("comment longer than ", options_.max_token_size, " bytes; ignored"));
  return std::nullopt;
}

void Reader::Impl::read_comment_brace(Visitor& v) {
  const Location at = location_at(pos_);
  const std::optional<std::string_view> text = scan_comment_brace(v, at);
  if (text && delivering()) handle(v.comment(as_utf8(v, *text, at), at));
}

void Reader::Impl::read_comment_line(Visitor& v) {
  const Location at = location_at(pos_);
  ++pos_;  // ';'
  const std::uint64_t start = stream_offset();
  std::size_t n = 0;
  while (n <= options_.max_token_size && available(n) && buffer_[pos_ + n] != '\n' &&
         buffer_[pos_ + n] != '\r')
    ++n;
  if (n > options_.max_token_size) {
    skip_line();
    problem(v, SyntaxProblem::Severity::Error, at,
            cat("comment longer than ", options_.max_token_size, " bytes; ignored"));
    return;
  }
  pos_ += n;
  std::string_view text = since(start);
  if (delivering()) handle(v.comment(as_utf8(v, text, at), at));
}

// A token that starts with a digit, a letter or a symbol: move number, result, move, NAG.
void Reader::Impl::read_token(Visitor& v) {
  const Location at = location_at(pos_);
  const char c = peek();

  if (c == '$') {
    ++pos_;
    const std::size_t n = run_of(Digit);
    if (too_long(v, Digit, n, at)) return;
    std::string_view digits(buffer_.data() + pos_, n);
    pos_ += n;
    int nag = 0;
    for (char d : digits.substr(0, 4)) nag = nag * 10 + (d - '0');
    if (digits.empty() || digits.size() > 3 || nag > 255) {
      problem(v, SyntaxProblem::Severity::Error, at,
              cat("bad NAG '$", excerpt(digits), "'; ignored"));
      return;
    }
    if (delivering()) handle(v.nag(nag, at));
    return;
  }
  if (c == '*') {
    ++pos_;
    if (delivering()) handle(v.result("*", at));
    game_over_ = true;
    return;
  }

  // Evaluation symbols written out (`+-`, `=+`, `+/-`, `=`), and UTF-8 ones (`±`, `∞`).
  if (is_symbol_char(c) && !(c == '-' && peek(1) == '-')) {
    const std::size_t n = run_of(SymbolChar);
    if (too_long(v, SymbolChar, n, at)) return;
    std::string_view sym(buffer_.data() + pos_, n);
    pos_ += n;
    if (int nag = nag_of_symbol(sym)) {
      if (delivering()) handle(v.nag(nag, at));
    } else {
      problem(v, SyntaxProblem::Severity::Error, at,
              cat("unexpected '", excerpt(sym), "'; ignored"));
    }
    return;
  }
  const bool figurine = std::uint8_t(c) == 0xE2 && figurine_at(0);
  if (std::uint8_t(c) >= 0x80 && !figurine) {
    auto non_ascii = [](char b) { return std::uint8_t(b) >= 0x80; };
    std::size_t n = 0;
    while (n < options_.max_token_size && available(n) && non_ascii(buffer_[pos_ + n])) ++n;
    if (n >= options_.max_token_size) {
      pass_over(non_ascii);
      problem(v, SyntaxProblem::Severity::Error, at,
              cat("token longer than ", options_.max_token_size, " bytes; ignored"));
      return;
    }
    std::string_view sym(buffer_.data() + pos_, n);
    pos_ += n;
    if (int nag = nag_of_symbol(sym)) {
      if (delivering()) handle(v.nag(nag, at));
    } else if (sym == "\u00bd") {  // ½-½
      if (peek() == '-' && std::uint8_t(peek(1)) == 0xC2 && std::uint8_t(peek(2)) == 0xBD) {
        pos_ += 3;
        if (delivering()) handle(v.result("1/2-1/2", at));
        game_over_ = true;
      }
    } else {
      problem(v, SyntaxProblem::Severity::Error, at, "unexpected non-ASCII characters; ignored");
    }
    return;
  }

  if (is_digit(c)) {
    // A move number (`12.`, `12...`, `12`), a result, or castling written with zeros.
    const std::size_t n = run_of(ResultChar);
    if (too_long(v, ResultChar, n, at)) return;
    std::string_view t(buffer_.data() + pos_, n);
    pos_ += n;
    if (is_result(t)) {
      if (delivering()) handle(v.result(t == "1/2" ? "1/2-1/2" : t, at));
      game_over_ = true;
      return;
    }
    if (t.find('-') == std::string_view::npos) {
      pass_over([](char b) { return b == '.'; });  // a move number
      return;
    }
    // `0-0`, `0-0-0` (with annotations): a move.
    pos_ -= t.size();
  }

  if (is_alpha(c) || is_digit(c) || c == '-' || figurine) {
    std::size_t n = move_run();
    if (too_long(v, MoveChar, n, at)) return;
    // `e8(Q)`: a promotion in parentheses, not a variation.
    if (n >= 2 && (buffer_[pos_ + n - 1] == '8' || buffer_[pos_ + n - 1] == '1') &&
        available(n + 2) && buffer_[pos_ + n] == '(' &&
        std::strchr("QRBNqrbn", buffer_[pos_ + n + 1]) && buffer_[pos_ + n + 1] != '\0' &&
        buffer_[pos_ + n + 2] == ')') {
      n += 3;
      while (n < options_.max_token_size && available(n) &&
             (buffer_[pos_ + n] == '+' || buffer_[pos_ + n] == '#'))
        ++n;
    }
    // Suffix annotation. Both views are made once nothing more is read (a refill moves bytes).
    std::size_t s = 0;
    while (s < 3 && available(n + s) &&
           (buffer_[pos_ + n + s] == '!' || buffer_[pos_ + n + s] == '?'))
      ++s;
    std::string_view san(buffer_.data() + pos_, n);
    std::string_view suffix(buffer_.data() + pos_ + n, s);
    pos_ += n + s;
    int suffix_nag = 0;
    if (!suffix.empty()) {
      suffix_nag = nag_of_symbol(suffix);
      if (!suffix_nag)
        problem(v, SyntaxProblem::Severity::Warning, at,
                cat("unknown annotation '", suffix, "'; ignored"));
    }
    if (san == "e.p." || san == "ep") return;  // `exd6 e.p.`: the move before said it all
    if (san.size() == 1 && san[0] == 'N' && suffix.empty()) {
      if (delivering()) handle(v.nag(146, at));  // novelty
      return;
    }
    if (delivering()) handle(v.move(MoveToken{san, suffix_nag, at}));
    return;
  }

  ++pos_;
  // A control character is named by its value: a message is one printable line.
  static constexpr char hex[] = "0123456789abcdef";
  const std::string shown =
      c >= 0x20 && c < 0x7F ? cat("'", c, "'")
                            : cat("byte 0x", hex[std::uint8_t(c) >> 4], hex[std::uint8_t(c) & 15]);
  problem(v, SyntaxProblem::Severity::Error, at, cat("unexpected character ", shown, "; ignored"));
}

// read_movetext for a game the visitor skips whole (an import cuts every file into games so,
// before its workers read each game): the game ends where read_movetext ends it, and its last
// token ends at the same byte, but moves and move numbers, nearly every token, are passed over
// without a look at what they say, and nothing is reported (problem() drops what a skipped game
// would report). That thread spent 4.7 ns a byte reading every token in full.
void Reader::Impl::skip_movetext(Visitor& v) {
  for (; !game_over_; token_end_ = stream_offset(), ++movetext_items_) {
    skip_whitespace();
    token_start_ = stream_offset();
    if (at_end()) {
      note_input_end();
      break;
    }
    const char c = buffer_[pos_];
    if (is_digit(c)) {
      // As read_token: a result ends the game; a move number is passed over with its dots;
      // castling with zeros is a move (below).
      const std::size_t n = run_of(ResultChar);
      if (n >= options_.max_token_size) {
        read_token(v);
        continue;
      }
      const std::string_view t(buffer_.data() + pos_, n);
      if (is_result(t)) {
        pos_ += n;
        game_over_ = true;
        continue;
      }
      if (t.find('-') == std::string_view::npos) {
        pos_ += n;
        pass_over([](char b) { return b == '.'; });
        continue;
      }
    }
    if (is_alpha(c) || is_digit(c)) {
      // A move: its characters, then at most three of `!` and `?`. A `(` after it starts a
      // variation or, in `e8(Q)`, ends the move: either way no result hides in it.
      std::size_t n = run_of(MoveChar);
      if (n >= options_.max_token_size) {
        read_token(v);
        continue;
      }
      for (std::size_t s = 0;
           s < 3 && available(n) && (buffer_[pos_ + n] == '!' || buffer_[pos_ + n] == '?'); ++s)
        ++n;
      pos_ += n;
      continue;
    }
    switch (c) {
      case '{': read_comment_brace(v); break;
      case ';': read_comment_line(v); break;
      case '(':
        ++pos_;
        ++variation_depth_;
        break;
      case ')':
        ++pos_;
        if (variation_depth_ > 0) --variation_depth_;
        break;
      case '[':
        if (at_line_start()) return;  // the next game's tags
        read_token(v);
        break;
      case '.': ++pos_; break;
      default: read_token(v);
    }
  }
}

void Reader::Impl::read_movetext(Visitor& v) {
  if (skip_game_ && skip_depth_ == 0) return skip_movetext(v);
  for (; !game_over_; token_end_ = stream_offset(), ++movetext_items_) {
    skip_whitespace();
    token_start_ = stream_offset();
    if (at_end()) {
      note_input_end();
      break;
    }
    const char c = buffer_[pos_];
    switch (c) {
      case '{': read_comment_brace(v); break;
      case ';': read_comment_line(v); break;
      case '(': {
        const Location at = location_at(pos_);
        ++pos_;
        ++variation_depth_;
        if (skip_depth_ > 0) {
          ++skip_depth_;
        } else if (variation_depth_ > std::uint64_t(max_variation_depth)) {
          // Left out like a variation the visitor skipped (no end_variation either).
          problem(v, SyntaxProblem::Severity::Error, at,
                  cat("variations nested deeper than ", max_variation_depth,
                      " levels; the deeper ones are left out"));
          skip_depth_ = 1;
        } else if (!skip_game_) {
          handle(v.begin_variation(at), true);
        }
        break;
      }
      case ')': {
        const Location at = location_at(pos_);
        ++pos_;
        if (variation_depth_ == 0) {
          problem(v, SyntaxProblem::Severity::Error, at,
                  "')' without a variation to close; ignored");
          break;
        }
        --variation_depth_;
        close_variation(v, at);
        break;
      }
      case '[':
        if (at_line_start()) return;  // the next game's tags: this one had no result
        read_token(v);
        break;
      case '.': ++pos_; break;  // `1. ... e5`: dots set apart from their move number
      default: read_token(v);
    }
  }
}

std::expected<bool, std::string> Reader::Impl::read_game(Visitor& v) {
  if (stopped_) return false;
  keep_ = pos_;
  if (first_game_) {
    first_game_ = false;
    if (options_.byte_order_mark && available(2) &&
        std::memcmp(buffer_.data(), "\xEF\xBB\xBF", 3) == 0) {
      pos_ += 3;  // a byte order mark; the first line starts after it
      line_start_ = stream_offset();
    }
  }
  skip_whitespace();
  if (!io_error_.empty()) return std::unexpected(io_error_);
  if (at_end()) return false;

  keep_ = pos_;
  token_end_ = stream_offset();
  skip_game_ = false;
  variation_depth_ = 0;
  skip_depth_ = 0;
  skip_ends_visibly_ = false;
  game_over_ = false;
  reported_encoding_ = false;
  game_truncated_ = false;
  input_ended_ = input_ended_between_tokens_ = comment_unclosed_ = false;
  movetext_items_ = 0;
  tags_over_limit_ = false;
  problem_counts_[0] = problem_counts_[1] = 0;
  tag_names_.clear();

  // Comments before the tags belong to the game whose tags follow them (some files open with
  // a comment about the whole file); they are delivered as the game's first comments.
  // They are kept while they span at most max_token_size bytes.
  leading_comments_.clear();
  const Location game_at = location_at(pos_);
  const std::uint64_t game_start = stream_offset();
  // First, so that problems with those comments count for this game.
  handle(v.begin_game(game_at));
  bool leading_over_limit = false;
  while (peek() == '{') {
    const Location at = location_at(pos_);
    const std::optional<std::string_view> text = scan_comment_brace(v, at);
    if (stream_offset() - game_start > options_.max_token_size && !leading_over_limit) {
      leading_over_limit = true;
      problem(v, SyntaxProblem::Severity::Error, at,
              cat("comments before the tags longer than ", options_.max_token_size,
                  " bytes; the rest are left out"));
    }
    if (text && !leading_over_limit) leading_comments_.push_back({std::string(*text), at});
    token_end_ = stream_offset();
    skip_whitespace();
  }

  // Tags. A blank line may stand among them; a name seen before in this game starts a new game
  // (the previous one had neither moves nor result).
  for (;;) {
    skip_whitespace();
    token_start_ = stream_offset();
    if (peek() != '[') break;
    if (tag_names_.size() >= options_.max_tags) {
      if (!tags_over_limit_)
        problem(v, SyntaxProblem::Severity::Error, location_at(pos_),
                cat("more than ", options_.max_tags, " tags; the rest are left out"));
      tags_over_limit_ = true;
      skip_line();
      token_end_ = stream_offset();
      continue;
    }
    std::size_t n = 1;
    while (n < options_.max_token_size && available(n) &&
           (buffer_[pos_ + n] == ' ' || buffer_[pos_ + n] == '\t'))
      ++n;
    // The name as read_tag will read it (same characters), so that `Round-1` after `Round` is a
    // new name, not a repeat that would start a new game.
    const std::size_t name_start = n;
    n = std::min(run_of(TagNameChar, n), name_start + options_.max_token_size);
    std::string_view name(buffer_.data() + pos_ + name_start, n - name_start);
    if (std::find(tag_names_.begin(), tag_names_.end(), name) != tag_names_.end()) {
      game_over_ = true;
      break;
    }
    read_tag(v);
    token_end_ = stream_offset();
  }

  if (!game_over_) {
    if (!skip_game_) handle(v.begin_movetext());
    for (const auto& [text, at] : leading_comments_)
      if (delivering()) handle(v.comment(as_utf8(v, text, at), at));
    read_movetext(v);
    if (variation_depth_ > 0) {
      const Location at = location_at(pos_);
      problem(v, SyntaxProblem::Severity::Error, at,
              cat(variation_depth_, " variation(s) not closed at the end of the game"));
      // Close them, so that the visitor always sees properly nested variations.
      while (variation_depth_ > 0) {
        --variation_depth_;
        close_variation(v, at);
      }
    }
  }

  // The game's text: from its first byte to the end of its last token (not the escape lines,
  // NUL bytes or white space after it).
  const std::size_t text_end = std::max<std::uint64_t>(token_end_, dropped_ + keep_) - dropped_;
  if (game_truncated_ || text_end - keep_ > options_.max_game_size) {
    game_truncated_ = true;
    problem(
        v, SyntaxProblem::Severity::Error, location_at(pos_),
        cat("game longer than ", options_.max_game_size, " bytes; its original text is not kept"));
  }
  v.end_game(game_truncated_ ? std::string_view()
                             : std::string_view(buffer_.data() + keep_, text_end - keep_));
  keep_ = pos_;
  if (!io_error_.empty()) return std::unexpected(io_error_);
  return true;
}

Reader::Reader(ByteSource& source, ReaderOptions options)
    : impl_(std::make_unique<Impl>(source, options)) {}
Reader::~Reader() = default;

std::expected<bool, std::string> Reader::read_game(Visitor& visitor) {
  return impl_->read_game(visitor);
}

Location Reader::location() const { return impl_->location(); }

std::uint64_t Reader::offset() const { return impl_->offset(); }

bool Reader::ends_before_tags() const { return impl_->ends_before_tags(); }

}  // namespace pgn
