#include "pgn/writer.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "pgn/san.h"

namespace pgn {

namespace {

constexpr std::array<std::string_view, 7> seven_tag_roster = {"Event", "Site",  "Date",  "Round",
                                                              "White", "Black", "Result"};

std::string_view default_value(std::string_view tag) { return tag == "Date" ? "????.??.??" : "?"; }

void write_tag(std::string& out, std::string_view name, std::string_view value) {
  out += '[';
  out += name;
  out += " \"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += "\"]\n";
}

bool is_blank(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Lays out movetext tokens into lines of at most `width` characters.
class LineBreaker {
 public:
  LineBreaker(std::string& out, std::size_t width) : out_(out), width_(width) {}

  // A token is held back until the next one comes, so that a variation's `)` can still be
  // glued to it (and `(` to the token after it) before its line is chosen.
  void token(std::string_view t) {
    flush();
    if (open_paren_) pending_ += '(';
    open_paren_ = false;
    pending_ += t;
  }
  void open_variation() { open_paren_ = true; }
  void close_variation() { pending_ += ')'; }
  // A comment's words are tokens too, so that long comments wrap; the braces stick to the first
  // and last word. Text holding a `}` (possible from a `;` comment) is written as a `;` comment,
  // which runs to the end of its line.
  void comment(std::string_view text) {
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && is_blank(text[i])) ++i;
      std::size_t start = i;
      while (i < text.size() && !is_blank(text[i])) ++i;
      if (i > start) words.push_back(text.substr(start, i - start));
    }
    if (text.find('}') != std::string_view::npos) {
      std::string joined = ";";
      for (auto w : words) joined.append(" ").append(w);
      token(joined);
      end();
      return;
    }
    if (words.empty()) return token("{}");
    for (std::size_t w = 0; w < words.size(); ++w) {
      std::string t(words[w]);
      if (w == 0) t.insert(0, "{");
      if (w + 1 == words.size()) t += '}';
      token(t);
    }
  }
  void end() {
    flush();
    if (column_ == 0) return;
    out_ += '\n';
    column_ = 0;
  }

 private:
  std::string& out_;
  std::size_t width_;
  std::size_t column_ = 0;
  std::string pending_;
  bool open_paren_ = false;

  void flush() {
    if (pending_.empty()) return;
    if (column_ > 0 && column_ + 1 + pending_.size() > width_) {
      out_ += '\n';
      column_ = 0;
    }
    if (column_ > 0) {
      out_ += ' ';
      ++column_;
    }
    out_ += pending_;
    column_ += pending_.size();
    pending_.clear();
  }
};

class MovetextWriter {
 public:
  MovetextWriter(LineBreaker& lines, const WriterOptions& options)
      : lines_(lines), options_(options) {}

  // Writes `line` from `pos`; `force_number` asks for a move number on the first move even when
  // Black plays it (the start of the game or of a variation).
  void write_line(const Line& line, Position pos) {
    bool force_number = true;
    for (const MoveNode& node : line) {
      for (const auto& c : node.comments_before) {
        lines_.comment(c);
        force_number = true;
      }
      write_number(pos, force_number);
      lines_.token(written_san(to_san(pos, node.move), options_));
      for (std::uint8_t nag : node.nags) lines_.token("$" + std::to_string(nag));
      for (const auto& c : node.comments_after) lines_.comment(c);
      force_number = !node.comments_after.empty();
      for (const Line& variation : node.variations) {
        lines_.open_variation();
        write_variation(variation, pos);
        lines_.close_variation();
        force_number = true;
      }
      for (const auto& c : node.comments_after_variations) lines_.comment(c);
      pos.play_or_pass(node.move);
    }
  }

 private:
  void write_variation(const Line& line, const Position& pos) { write_line(line, pos); }

  void write_number(const Position& pos, bool force) {
    if (pos.side_to_move() == White)
      lines_.token(std::to_string(pos.fullmove_number()) + ".");
    else if (force)
      lines_.token(std::to_string(pos.fullmove_number()) + "...");
  }

  LineBreaker& lines_;
  const WriterOptions& options_;
};

}  // namespace

std::string written_san(std::string san, const WriterOptions& options) {
  if (!options.letters && !options.figurines) return san;
  return local_san(san, options.letters ? *options.letters : *piece_letters("en"),
                   options.figurines);
}

void write_game(const GameRecord& game, std::string& out, const WriterOptions& options) {
  for (std::string_view name : seven_tag_roster) {
    if (name == "Result") {
      write_tag(out, name, game.result);
      continue;
    }
    const std::string* value = game.tag(name);
    write_tag(out, name, value ? std::string_view(*value) : default_value(name));
  }
  std::vector<const std::pair<std::string, std::string>*> others;
  for (const auto& tag : game.tags) {
    bool in_roster = false;
    for (std::string_view r : seven_tag_roster) in_roster |= r == tag.first;
    if (!in_roster) others.push_back(&tag);
  }
  std::stable_sort(others.begin(), others.end(),
                   [](const auto* a, const auto* b) { return a->first < b->first; });
  for (const auto* tag : others) write_tag(out, tag->first, tag->second);
  out += '\n';

  LineBreaker lines(out, options.line_width);
  for (const auto& c : game.leading_comments) lines.comment(c);
  MovetextWriter(lines, options).write_line(game.moves, game.start);
  lines.token(game.result);
  lines.end();
  out += '\n';
}

}  // namespace pgn
