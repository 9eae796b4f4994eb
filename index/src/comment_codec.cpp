#include "comment_codec.h"

#include <charconv>
#include <cstdint>
#include <optional>

namespace pgndb::index::comments {

namespace {

enum Kind : std::uint64_t { Clock = 0, EvalClock = 1, MateClock = 2, KindCount = 3 };

constexpr std::string_view clock_open = " [%clk ", eval_open = " [%eval ",
                           eval_to_clock = "] [%clk ", close = "] ";

// Bounds that keep every number and the text it makes small: a clock below 10^6 hours, an eval
// of at most 9 digits, a mate in at most 9,999.
constexpr std::uint64_t max_clock = 3'600'000'000ull;
constexpr std::int64_t max_eval = 999'999'999, max_mate = 9'999;

std::uint64_t zigzag(std::int64_t v) { return (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63); }
std::int64_t unzigzag(std::uint64_t z) { return std::int64_t(z >> 1) ^ -std::int64_t(z & 1); }

// The decoded form of a command comment; the text is what text_of() writes of it.
struct Command {
  Kind kind;
  std::int64_t value = 0;   // the eval's digits (EvalClock) or the mate's moves (MateClock)
  int decimals = 0;         // the eval's digits after the point (EvalClock)
  std::uint64_t clock = 0;  // seconds
};

// A text of at most 64 bytes built without the heap.
class Text {
 public:
  void add(std::string_view s) {
    for (char c : s) add(c);
  }
  void add(char c) {
    if (size_ < sizeof(chars_)) chars_[size_++] = c;
  }
  void add_number(std::uint64_t n, int width = 1) {
    char digits[20];
    const auto end = std::to_chars(digits, digits + sizeof(digits), n).ptr;
    for (int pad = width - int(end - digits); pad > 0; --pad) add('0');
    add(std::string_view(digits, std::size_t(end - digits)));
  }
  std::string_view view() const { return {chars_, size_}; }

 private:
  char chars_[64];
  std::size_t size_ = 0;
};

void add_clock(Text& t, std::uint64_t seconds) {
  t.add_number(seconds / 3600);
  t.add(':');
  t.add_number(seconds / 60 % 60, 2);
  t.add(':');
  t.add_number(seconds % 60, 2);
}

Text text_of(const Command& c) {
  Text t;
  if (c.kind == Clock) {
    t.add(clock_open);
  } else {
    t.add(eval_open);
    if (c.kind == MateClock) t.add('#');
    const std::uint64_t magnitude = c.value < 0 ? std::uint64_t(-c.value) : std::uint64_t(c.value);
    if (c.value < 0) t.add('-');
    if (c.kind == MateClock || c.decimals == 0) {
      t.add_number(magnitude);
    } else {
      const std::uint64_t scale = c.decimals == 1 ? 10 : 100;
      t.add_number(magnitude / scale);
      t.add('.');
      t.add_number(magnitude % scale, c.decimals);
    }
    t.add(eval_to_clock);
  }
  add_clock(t, c.clock);
  t.add(close);
  return t;
}

// Reads the command comments text_of() writes, and nothing else, in one pass: a comment that
// reads is one that writing its numbers back gives byte for byte (docs/storage.md defines the
// compact form so; tests/test_game_codec.cpp checks this reader against that definition). It
// replaced a loose reader followed by text_of() and a comparison, a twentieth of the time of an
// import of lichess games.
class CanonicalReader {
 public:
  explicit CanonicalReader(std::string_view text) : s_(text) {}

  bool literal(std::string_view expected) {
    if (s_.substr(at_, expected.size()) != expected) return false;
    at_ += expected.size();
    return true;
  }
  bool take(char c) {
    if (at_ >= s_.size() || s_[at_] != c) return false;
    ++at_;
    return true;
  }
  // Up to `max` digits (fewer where another byte comes), as a number; how many. A digit beyond
  // `max` is left for the caller's next expected byte to refuse.
  std::size_t digits(std::size_t max, std::uint64_t& n) {
    const std::size_t begin = at_;
    n = 0;
    while (at_ < s_.size() && at_ - begin < max && is_digit(s_[at_]))
      n = n * 10 + std::uint64_t(s_[at_++] - '0');
    return at_ - begin;
  }
  // A number as add_number() writes it unpadded: 1 to `max` digits, no leading zero unless the
  // number is 0.
  bool number(std::size_t max, std::uint64_t& n) {
    const std::size_t begin = at_, count = digits(max, n);
    return count > 0 && (count == 1 || s_[begin] != '0');
  }
  // `H:MM:SS` as add_clock() writes it, then the closing `] ` that ends the comment.
  bool clock_to_end(std::uint64_t& seconds) {
    std::uint64_t h, m, sec;
    // Six digits of hours are at most 999,999 h, below max_clock; seven are not.
    static_assert(999'999ull * 3600 + 3599 < max_clock && 1'000'000ull * 3600 >= max_clock);
    if (!number(6, h) || !take(':') || digits(2, m) != 2 || m >= 60 || !take(':') ||
        digits(2, sec) != 2 || sec >= 60 || !literal(close) || at_ != s_.size())
      return false;
    seconds = h * 3600 + m * 60 + sec;
    return true;
  }

 private:
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }
  std::string_view s_;
  std::size_t at_ = 0;
};

// The command `c` is, when text_of() writes it exactly as `c`; nothing otherwise.
std::optional<Command> command_of(std::string_view c) {
  CanonicalReader in(c);
  Command command{Clock};
  if (in.literal(clock_open)) {
    if (!in.clock_to_end(command.clock)) return std::nullopt;
    return command;
  }
  if (!in.literal(eval_open)) return std::nullopt;
  const bool mate = in.take('#');
  const bool negative = in.take('-');
  std::uint64_t magnitude;
  if (mate) {
    command.kind = MateClock;
    if (!in.number(4, magnitude)) return std::nullopt;
    static_assert(max_mate == 9'999);
  } else {
    command.kind = EvalClock;
    // At most 9 digits in all (max_eval), the whole part and the 1 or 2 after the point.
    if (!in.number(9, magnitude)) return std::nullopt;
    if (in.take('.')) {
      std::uint64_t fraction;
      // A third digit after the point fails at the `]` expected after these.
      command.decimals = int(in.digits(2, fraction));
      if (command.decimals == 0) return std::nullopt;
      magnitude = magnitude * (command.decimals == 1 ? 10 : 100) + fraction;
    }
    if (magnitude > std::uint64_t(max_eval)) return std::nullopt;
  }
  // text_of() writes no sign before a zero.
  if (negative && magnitude == 0) return std::nullopt;
  command.value = negative ? -std::int64_t(magnitude) : std::int64_t(magnitude);
  if (!in.literal(eval_to_clock) || !in.clock_to_end(command.clock)) return std::nullopt;
  return command;
}

void put_one(std::string& out, std::string_view comment) {
  // Cheap tests first: most comments of most archives are no command comments.
  if (comment.size() >= 16 && comment.size() <= 40 && comment[0] == ' ' && comment[1] == '[')
    if (const auto command = command_of(comment)) {
      bytes::put_varint(out, 2 * std::uint64_t(command->kind) + 1);
      if (command->kind == EvalClock)
        bytes::put_varint(out, zigzag(command->value) * 3 + std::uint64_t(command->decimals));
      else if (command->kind == MateClock)
        bytes::put_varint(out, zigzag(command->value));
      bytes::put_varint(out, command->clock);
      return;
    }
  bytes::put_varint(out, 2 * std::uint64_t(comment.size()));
  out += comment;
}

}  // namespace

void put(std::string& out, const std::vector<std::string>& comments) {
  bytes::put_varint(out, comments.size());
  for (const std::string& comment : comments) put_one(out, comment);
}

bool get(bytes::Reader& in, std::vector<std::string>& comments, bool compact) {
  if (!compact) return in.strings(comments);
  std::uint64_t n;
  if (!in.varint(n) || n > in.remaining()) return false;
  comments.resize(n);
  for (std::string& comment : comments) {
    std::uint64_t header;
    if (!in.varint(header)) return false;
    if (header % 2 == 0) {
      std::string_view text;
      if (!in.bytes_of(header / 2, text)) return false;
      comment.assign(text);
      continue;
    }
    const std::uint64_t kind = header >> 1;
    if (kind >= KindCount) return false;
    Command command{Kind(kind)};
    std::uint64_t value = 0;
    if (kind != Clock && !in.varint(value)) return false;
    if (kind == EvalClock) {
      command.decimals = int(value % 3);
      command.value = unzigzag(value / 3);
      if (command.value > max_eval || command.value < -max_eval) return false;
    } else if (kind == MateClock) {
      command.value = unzigzag(value);
      if (command.value > max_mate || command.value < -max_mate) return false;
    }
    if (!in.varint(command.clock) || command.clock >= max_clock) return false;
    comment.assign(text_of(command).view());
  }
  return true;
}

}  // namespace pgndb::index::comments
