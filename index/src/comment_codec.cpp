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

// Digits as a number (at most 10 of them); nothing when `s` is empty or holds another byte.
std::optional<std::uint64_t> digits_of(std::string_view s) {
  if (s.empty() || s.size() > 10) return std::nullopt;
  std::uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + std::uint64_t(c - '0');
  }
  return n;
}

// `H:MM:SS` as seconds, read loosely (text_of() decides whether it was written canonically).
std::optional<std::uint64_t> clock_of(std::string_view s) {
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || s.size() != colon + 6 || s[colon + 3] != ':')
    return std::nullopt;
  const auto h = digits_of(s.substr(0, colon)), m = digits_of(s.substr(colon + 1, 2)),
             sec = digits_of(s.substr(colon + 4, 2));
  if (!h || !m || !sec || *m >= 60 || *sec >= 60) return std::nullopt;
  const std::uint64_t seconds = *h * 3600 + *m * 60 + *sec;
  if (seconds >= max_clock) return std::nullopt;
  return seconds;
}

// The command a comment is made of, read loosely; nothing when it has another shape.
std::optional<Command> command_of(std::string_view c) {
  if (!c.ends_with(close)) return std::nullopt;
  Command command{Clock};
  std::string_view clock;
  if (c.starts_with(clock_open)) {
    clock = c.substr(clock_open.size(), c.size() - clock_open.size() - close.size());
  } else if (c.starts_with(eval_open)) {
    const std::size_t between = c.find(eval_to_clock, eval_open.size());
    if (between == std::string_view::npos) return std::nullopt;
    std::string_view eval = c.substr(eval_open.size(), between - eval_open.size());
    const std::size_t clock_at = between + eval_to_clock.size();
    if (clock_at + close.size() > c.size()) return std::nullopt;
    clock = c.substr(clock_at, c.size() - clock_at - close.size());
    command.kind = EvalClock;
    if (eval.starts_with('#')) {
      command.kind = MateClock;
      eval.remove_prefix(1);
    }
    const bool negative = eval.starts_with('-');
    if (negative) eval.remove_prefix(1);
    const std::size_t point = eval.find('.');
    std::string whole(eval.substr(0, point));
    if (point != std::string_view::npos) {
      if (command.kind == MateClock) return std::nullopt;
      command.decimals = int(eval.size() - point - 1);
      if (command.decimals < 1 || command.decimals > 2) return std::nullopt;
      whole += eval.substr(point + 1);
    }
    const auto magnitude = digits_of(whole);
    if (!magnitude || std::int64_t(*magnitude) > (command.kind == MateClock ? max_mate : max_eval))
      return std::nullopt;
    command.value = negative ? -std::int64_t(*magnitude) : std::int64_t(*magnitude);
  } else {
    return std::nullopt;
  }
  const auto seconds = clock_of(clock);
  if (!seconds) return std::nullopt;
  command.clock = *seconds;
  return command;
}

void put_one(std::string& out, std::string_view comment) {
  // Cheap tests first: most comments of most archives are no command comments.
  if (comment.size() >= 16 && comment.size() <= 40 && comment[0] == ' ' && comment[1] == '[')
    if (const auto command = command_of(comment); command && text_of(*command).view() == comment) {
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
