#include "pgndb/index/game_codec.h"
#include <functional>
#include "pgn/game_result.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "bytes.h"
#include "comment_codec.h"
#include "move_index.h"
#include "pgn/fen.h"
#include "pgn/game.h"
#include "pgn/movegen.h"
#include "pgn/text.h"

namespace pgndb::index {

namespace {

// 1 numbered moves among the legal ones; 2 kept every comment as its text, where 3 keeps a
// clock or an eval and a clock as numbers (comment_codec.h). Format 2 is still read.
constexpr std::uint8_t format_version = 3;
constexpr std::uint8_t text_comments_version = 2;

// Tags common enough to be stored as one byte. Codes are part of the format: append only.
constexpr std::array<std::string_view, 28> common_tags = {
    "Event",           "Site",        "Date",        "Round",      "White",    "Black",
    "Result",          "WhiteElo",    "BlackElo",    "ECO",        "PlyCount", "EventDate",
    "TimeControl",     "Termination", "FEN",         "SetUp",      "Variant",  "WhiteTitle",
    "BlackTitle",      "Opening",     "Annotator",   "UTCDate",    "UTCTime",  "WhiteRatingDiff",
    "BlackRatingDiff", "EventType",   "WhiteFideId", "BlackFideId"};

enum NodeByte : std::uint8_t {
  MaxShortIndex = 250,
  LongIndex = 251,
  NullMove = 252,
  Annotated = 253
};
enum Flags : std::uint8_t {
  HasNags = 1,
  HasCommentsBefore = 2,
  HasCommentsAfter = 4,
  HasVariations = 8,
  HasCommentsAfterVariations = 16,
};

// --- Writing ---

using bytes::put_string;
using bytes::put_varint;

// Writes a move whose index among the pseudo-legal moves is `index` (unused for a null move).
void put_move(std::string& out, pgn::Move m, unsigned index) {
  if (m.is_null()) {
    out += char(NullMove);
    return;
  }
  // Below 507 in any position a game can reach (and in any FEN seen): the long form holds it.
  if (index <= MaxShortIndex) {
    out += char(index);
  } else {
    out += char(LongIndex);
    out += char(index - LongIndex);
  }
}

// Writes lines, playing their moves, or taking what a replay computed of them (`played`, read in
// the order the lines are written: see PlayedMoves).
struct LineWriter {
  std::string& out;
  const PlayedMoves* played;
  std::size_t next_played = 0;

  // `pos` is the line's start (unused with `played`), `start_key` its repetition key (used only
  // with `played`). With `keys`, the repetition key of every position of the line (its start and
  // its end included) is appended to it. With `variation_keys`, those of every position inside
  // the line's variations (at any depth) are appended to it. With `codes`, the codes of the
  // first `code_count` moves, up to the first in a longer form.
  void line(const pgn::Line& line, pgn::Position pos, pgn::Key start_key,
            std::vector<pgn::Key>* keys = nullptr, std::vector<pgn::Key>* variation_keys = nullptr,
            std::string* codes = nullptr, std::size_t code_count = 0) {
    put_varint(out, line.size());
    pgn::Key key = played ? start_key : 0;
    if (keys) keys->push_back(played ? key : pgn::repetition_key(pos));
    for (const pgn::MoveNode& node : line) {
      const std::uint8_t flags =
          (node.nags.empty() ? 0 : HasNags) |
          (node.comments_before.empty() ? 0 : HasCommentsBefore) |
          (node.comments_after.empty() ? 0 : HasCommentsAfter) |
          (node.variations.empty() ? 0 : HasVariations) |
          (node.comments_after_variations.empty() ? 0 : HasCommentsAfterVariations);
      if (flags) out += char(Annotated);
      const std::size_t code_at = out.size();
      const std::size_t mine = next_played;
      if (played) {
        ++next_played;
        put_move(out, node.move, played->codes[mine]);
      } else {
        put_move(out, node.move, node.move.is_null() ? 0 : pseudo_legal_index(pos, node.move));
      }
      if (codes && codes->size() < code_count) {
        const auto code = std::uint8_t(out[code_at]);
        if (code <= MaxShortIndex)
          *codes += char(code);
        else
          code_count = 0;  // the codes stop at the first move in another form
      }
      if (flags) {
        out += char(flags);
        if (flags & HasNags) {
          put_varint(out, node.nags.size());
          for (std::uint8_t nag : node.nags) out += char(nag);
        }
        if (flags & HasCommentsBefore) comments::put(out, node.comments_before);
        if (flags & HasCommentsAfter) comments::put(out, node.comments_after);
        if (flags & HasVariations) {
          put_varint(out, node.variations.size());
          for (const pgn::Line& variation : node.variations)
            this->line(variation, pos, key, variation_keys, variation_keys);
        }
        if (flags & HasCommentsAfterVariations) comments::put(out, node.comments_after_variations);
      }
      if (played) {
        key = played->keys_after[mine];
        if (keys) keys->push_back(key);
      } else {
        pos.play_or_pass(node.move);
        if (keys) keys->push_back(pgn::repetition_key(pos));
      }
    }
  }
};

// The moves of `line` and of its variations, at any depth.
std::size_t moves_in(const pgn::Line& line) {
  std::size_t n = line.size();
  for (const pgn::MoveNode& node : line)
    for (const pgn::Line& variation : node.variations) n += moves_in(variation);
  return n;
}

}  // namespace

void PlayedMoves::add(const pgn::Position& before, pgn::Move move, const pgn::Position& after) {
  codes.push_back(move.is_null() ? null_code : std::uint16_t(pseudo_legal_index(before, move)));
  keys_after.push_back(pgn::repetition_key(after));
}

namespace {

// --- Reading ---

class Decoder {
 public:
  explicit Decoder(std::string_view bytes) : in_(bytes) {}

  // The whole game, or with `header_only` its result and tags alone.
  std::expected<pgn::GameRecord, Status> game(bool header_only = false);
  // decode_main_line_until; `visit(position, ply)`.
  template <class Visit>
  std::expected<std::optional<PlyMove>, Status> main_line_until(const Visit& visit);

 private:
  // Steps over a move's bytes without finding the move.
  bool skip_move(std::uint8_t first) {
    std::uint8_t rest;
    return first == NullMove || first <= MaxShortIndex || (first == LongIndex && byte(rest));
  }
  // Steps over a node's annotations (after its move), variations included.
  bool skip_annotations(int depth);
  bool skip_line(int depth);
  // Reads the format version, the result and the tags, into `game` when given; without, they
  // are checked and kept nowhere (a replay of thousands of main lines built every tag's string
  // for nothing). False, with what is wrong in `fault`, when they do not read.
  bool header(pgn::GameRecord* game, std::string_view& fault);
  bool byte(std::uint8_t& b) { return in_.byte(b); }
  bool varint(std::uint64_t& v) { return in_.varint(v); }
  bool string(std::string& s) { return in_.string(s); }
  bool comments(std::vector<std::string>& out) {
    return comments::get(in_, out, version_ != text_comments_version);
  }
  bool move(const pgn::Position& pos, std::uint8_t first, pgn::Move& m);
  bool line(pgn::Line& line, pgn::Position pos, int depth);

  bytes::Reader in_;
  std::uint8_t version_ = format_version;
};

bool Decoder::move(const pgn::Position& pos, std::uint8_t first, pgn::Move& m) {
  if (first == NullMove) {
    if (pos.in_check()) return false;
    m = pgn::Move::null();
    return true;
  }
  unsigned index = first;
  if (first == LongIndex) {
    std::uint8_t rest;
    if (!byte(rest)) return false;
    index = LongIndex + rest;
  } else if (first > MaxShortIndex) {
    return false;
  }
  const pgn::Move found = pseudo_legal_move_at(pos, index);
  if (found.is_none()) return false;
  // Damaged bytes can name a pseudo-legal move that is not legal; playing it could break the
  // position, so it is refused.
  if (!is_legal(pos, found)) return false;
  m = found;
  return true;
}

bool Decoder::line(pgn::Line& out, pgn::Position pos, int depth) {
  std::uint64_t count;
  if (depth > pgn::max_variation_depth || !varint(count) || count > in_.remaining()) return false;
  out.resize(count);
  for (pgn::MoveNode& node : out) {
    std::uint8_t first;
    if (!byte(first)) return false;
    const bool annotated = first == Annotated;
    if (annotated && !byte(first)) return false;
    if (!move(pos, first, node.move)) return false;
    if (annotated) {
      std::uint8_t flags;
      if (!byte(flags) || flags == 0 || flags >= 32) return false;
      if (flags & HasNags) {
        std::uint64_t n;
        if (!varint(n) || n > in_.remaining()) return false;
        node.nags.resize(n);
        for (auto& nag : node.nags)
          if (!byte(nag)) return false;
      }
      if ((flags & HasCommentsBefore) && !comments(node.comments_before)) return false;
      if ((flags & HasCommentsAfter) && !comments(node.comments_after)) return false;
      if (flags & HasVariations) {
        std::uint64_t n;
        if (!varint(n) || n > in_.remaining()) return false;
        node.variations.resize(n);
        for (auto& variation : node.variations)
          if (!line(variation, pos, depth + 1)) return false;
      }
      if ((flags & HasCommentsAfterVariations) && !comments(node.comments_after_variations))
        return false;
    }
    pos.play_or_pass(node.move);
  }
  return true;
}

bool Decoder::skip_annotations(int depth) {
  thread_local std::vector<std::string> scratch;
  std::uint8_t flags;
  if (!byte(flags) || flags == 0 || flags >= 32) return false;
  if (flags & HasNags) {
    std::uint64_t n;
    std::uint8_t nag;
    if (!varint(n) || n > in_.remaining()) return false;
    for (std::uint64_t i = 0; i < n; ++i)
      if (!byte(nag)) return false;
  }
  if ((flags & HasCommentsBefore) && !comments(scratch)) return false;
  if ((flags & HasCommentsAfter) && !comments(scratch)) return false;
  if (flags & HasVariations) {
    std::uint64_t n;
    if (!varint(n) || n > in_.remaining()) return false;
    for (std::uint64_t i = 0; i < n; ++i)
      if (!skip_line(depth + 1)) return false;
  }
  if ((flags & HasCommentsAfterVariations) && !comments(scratch)) return false;
  scratch.clear();
  return true;
}

bool Decoder::skip_line(int depth) {
  std::uint64_t count;
  if (depth > pgn::max_variation_depth || !varint(count) || count > in_.remaining()) return false;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint8_t first;
    if (!byte(first)) return false;
    const bool annotated = first == Annotated;
    if (annotated && !byte(first)) return false;
    if (!skip_move(first)) return false;
    if (annotated && !skip_annotations(depth)) return false;
  }
  return true;
}

template <class Visit>
std::expected<std::optional<PlyMove>, Status> Decoder::main_line_until(const Visit& visit) {
  auto corrupt = [] {
    return std::unexpected(Status::error(Status::Code::Corruption, "stored game: bad move data"));
  };
  if (std::string_view fault; !header(nullptr, fault)) return corrupt();
  std::string_view fen;
  if (!in_.view(fen)) return corrupt();
  pgn::Position pos;
  if (!fen.empty()) {
    auto start = pgn::parse_fen(fen);
    if (!start) return corrupt();
    pos = *start;
  }
  thread_local std::vector<std::string> scratch;
  if (!comments(scratch)) return corrupt();
  scratch.clear();
  std::uint64_t count;
  if (!varint(count) || count > in_.remaining()) return corrupt();
  for (std::uint64_t ply = 0; ply < count; ++ply) {
    std::uint8_t first;
    if (!byte(first)) return corrupt();
    const bool annotated = first == Annotated;
    if (annotated && !byte(first)) return corrupt();
    pgn::Move m;
    if (!move(pos, first, m)) return corrupt();
    if (const MainLineVisit v = visit(pos, unsigned(ply)); v != MainLineVisit::Next) {
      if (v == MainLineVisit::Found) return PlyMove{ply, m};
      return std::nullopt;
    }
    if (annotated && !skip_annotations(0)) return corrupt();
    pos.play_or_pass(m);
  }
  if (visit(pos, unsigned(count)) == MainLineVisit::Found) return PlyMove{count, pgn::Move::none()};
  return std::nullopt;
}

bool Decoder::header(pgn::GameRecord* game, std::string_view& fault) {
  const auto fail = [&](std::string_view what) {
    fault = what;
    return false;
  };
  std::uint8_t result;
  if (!byte(version_) || (version_ != format_version && version_ != text_comments_version))
    return fail("unknown format version");
  if (!byte(result)) return fail("bad result");
  const auto typed = pgn::game_result_from_code(result);
  if (!typed) return fail("bad result");
  if (game) game->result = pgn::to_text(*typed);
  std::uint64_t tags;
  if (!varint(tags) || tags > in_.remaining()) return fail("bad tag count");
  if (game) game->tags.resize(tags);
  std::string_view name, value;
  for (std::uint64_t i = 0; i < tags; ++i) {
    std::uint8_t code;
    if (!byte(code) || code > common_tags.size()) return fail("bad tag name");
    if (code > 0)
      name = common_tags[code - 1];
    else if (!in_.view(name))
      return fail("bad tag name");
    if (!in_.view(value)) return fail("bad tag value");
    if (game) game->tags[i] = {std::string(name), std::string(value)};
  }
  return true;
}

std::expected<pgn::GameRecord, Status> Decoder::game(bool header_only) {
  auto corrupt = [](std::string_view what) {
    return std::unexpected(
        Status::error(Status::Code::Corruption, pgn::cat("stored game: ", what)));
  };
  pgn::GameRecord game;
  if (std::string_view fault; !header(&game, fault)) return corrupt(fault);
  if (header_only) return game;

  std::string fen;
  if (!string(fen)) return corrupt("bad start position");
  if (!fen.empty()) {
    auto start = pgn::parse_fen(fen);
    if (!start) return corrupt("bad start position");
    game.start = *start;
  }
  if (!comments(game.leading_comments)) return corrupt("bad comments");
  if (!line(game.moves, game.start, 0)) return corrupt("bad move data");
  if (!in_.empty()) return corrupt("trailing bytes");
  return game;
}

}  // namespace

std::expected<std::optional<PlyMove>, Status> decode_main_line_until(std::string_view bytes,
                                                                     pgn::Key key) {
  return Decoder(bytes).main_line_until([key](const pgn::Position& pos, unsigned) {
    return pgn::repetition_key(pos) == key ? MainLineVisit::Found : MainLineVisit::Next;
  });
}

std::expected<std::optional<PlyMove>, Status> decode_main_line_until(std::string_view bytes,
                                                                     const MainLineVisitor& visit,
                                                                     std::size_t game) {
  return Decoder(bytes).main_line_until(
      [&visit, game](const pgn::Position& pos, unsigned ply) { return visit(game, pos, ply); });
}

void encode_game(const pgn::GameRecord& game, std::string& out,
                 std::vector<pgn::Key>* main_line_keys, std::string* opening_codes,
                 std::size_t opening_plies, std::vector<pgn::Key>* variation_keys,
                 const PlayedMoves* played) {
  out += char(format_version);
  out += char(pgn::code_of(pgn::game_result_of(game.result)));

  put_varint(out, game.tags.size());
  for (const auto& [name, value] : game.tags) {
    const auto common = std::find(common_tags.begin(), common_tags.end(), name);
    if (common != common_tags.end()) {
      out += char(common - common_tags.begin() + 1);
    } else {
      out += char(0);
      put_string(out, name);
    }
    put_string(out, value);
  }

  put_string(out, game.start == pgn::Position() ? std::string() : pgn::to_fen(game.start));
  comments::put(out, game.leading_comments);
  if (played && (played->codes.size() != played->keys_after.size() ||
                 played->codes.size() != moves_in(game.moves)))
    played = nullptr;
  LineWriter writer{out, played};
  writer.line(game.moves, game.start, played ? pgn::repetition_key(game.start) : 0, main_line_keys,
              variation_keys, opening_codes, opening_plies);
}

std::expected<pgn::GameRecord, Status> decode_game(std::string_view bytes) {
  return Decoder(bytes).game();
}

bool is_current_format(std::string_view bytes) {
  return !bytes.empty() && std::uint8_t(bytes[0]) == format_version;
}

std::expected<pgn::GameRecord, Status> decode_game_header(std::string_view bytes) {
  return Decoder(bytes).game(true);
}

}  // namespace pgndb::index
