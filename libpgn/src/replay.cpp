#include "pgn/replay.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "pgn/fen.h"
#include "pgn/material.h"
#include "pgn/piece_letters.h"
#include "pgn/san.h"
#include "pgn/text.h"

namespace pgn {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Variant tags whose games are standard chess or Chess960 (the FEN tag says which).
bool is_supported_variant(std::string_view variant) {
  static constexpr std::array<std::string_view, 11> names = {
      "",         "standard",  "chess",        "normal",         "from position",
      "chess960", "chess 960", "fischerandom", "fischer random", "freestyle",
      "960"};
  const std::string v = lower(variant);
  return std::find(names.begin(), names.end(), v) != names.end();
}

bool is_chess960_variant(std::string_view variant) {
  static constexpr std::array<std::string_view, 6> names = {
      "chess960", "chess 960", "fischerandom", "fischer random", "freestyle", "960"};
  const std::string v = lower(variant);
  return std::find(names.begin(), names.end(), v) != names.end();
}

// The castling field of `pos` without the rights standard chess cannot have: a right needs
// the king on e1/e8 and the rook on the corner of its side.
std::string standard_castling_field(const Position& pos) {
  std::string field;
  for (Color c : {White, Black}) {
    for (CastlingSide side : {KingSide, QueenSide}) {
      if (!pos.can_castle(c, side)) continue;
      const bool king_home = pos.piece_on(relative_square(c, E1)) == make_piece(c, King);
      const bool rook_home =
          pos.castling_rook(c, side) == relative_square(c, side == KingSide ? H1 : A1);
      if (!king_home || !rook_home) continue;
      const char letter = side == KingSide ? 'k' : 'q';
      field += c == White ? char(letter - 'a' + 'A') : letter;
    }
  }
  return field.empty() ? "-" : field;
}

bool is_result_text(std::string_view r) {
  return r == "1-0" || r == "0-1" || r == "1/2-1/2" || r == "*";
}

}  // namespace

// At most max_problems of each severity are kept (hostile input can hold millions), then one
// that says the rest are not: an error past the limit still leaves has_error() true.
void ReplayVisitor::report(GameProblem::Severity severity, Location at, std::string message) {
  static constexpr int max_problems = 100;
  int& count = severity == GameProblem::Severity::Error ? errors_ : warnings_;
  if (count > max_problems) return;
  if (count++ == max_problems)
    message = cat("more than ", max_problems, " problems of this kind in this game; ",
                  "the rest are not reported");
  problems_.push_back({severity, at, std::move(message)});
}

Control ReplayVisitor::begin_game(Location at) {
  game_location_ = fen_location_ = variant_location_ = result_location_ = at;
  problems_.clear();
  errors_ = warnings_ = 0;
  replayed_ = true;
  setup_failed_ = false;
  stack_.clear();
  main_plies_ = 0;
  ending_ = {};
  material_tracker_.clear();  // a game without movetext is never set up
  move_unread_ = syntax_error_ = other_letters_fit_ = false;
  language_ = options_.letters ? options_.letters->language : "en";
  fen_tag_.clear();
  variant_tag_.clear();
  result_tag_.clear();
  has_result_tag_ = false;
  marker_ = "*";
  pending_comments_.clear();
  text_.clear();
  if (options_.keep_record) record_.clear();
  return Control::Continue;
}

Control ReplayVisitor::tag(std::string_view name, std::string_view value, Location at) {
  if (name == "FEN") {
    fen_tag_ = value;
    fen_location_ = at;
  }
  if (name == "Variant") {
    variant_tag_ = value;
    variant_location_ = at;
  }
  if (name == "Result") {
    result_tag_ = value;
    result_location_ = at;
    has_result_tag_ = true;
  }
  if (options_.keep_record) record_.tags.emplace_back(name, value);
  return Control::Continue;
}

Control ReplayVisitor::begin_movetext() {
  Position start;
  if (!is_supported_variant(variant_tag_)) {
    report(GameProblem::Severity::Error, variant_location_,
           cat("unsupported variant '", excerpt(variant_tag_),
               "' (pgndb reads standard chess and Chess960)"));
    setup_failed_ = true;
  } else if (!fen_tag_.empty()) {
    auto pos = parse_fen(fen_tag_);
    if (pos && pos->is_chess960() && !variant_tag_.empty() && !is_chess960_variant(variant_tag_)) {
      // A game declared standard whose FEN gives Chess960-style castling rights: keep those
      // standard chess allows (as pgn-extract and python-chess do) and say so.
      const std::string fen = to_fen(*pos);
      const std::size_t a = fen.find(' ', fen.find(' ') + 1) + 1, b = fen.find(' ', a);
      const std::string field = standard_castling_field(*pos);
      report(GameProblem::Severity::Warning, fen_location_,
             cat("castling rights '", std::string_view(fen).substr(a, b - a),
                 "' in the FEN tag are impossible in standard chess; read as '", field, "'"));
      pos = parse_fen(fen.substr(0, a) + field + fen.substr(b));
    }
    if (pos) {
      start = *pos;
    } else {
      report(GameProblem::Severity::Error, fen_location_,
             cat("bad FEN tag: ", pos.error().message()));
      setup_failed_ = true;
    }
  }
  if (setup_failed_) {
    replayed_ = false;
    return Control::Skip;
  }
  main_position_ = start;
  ending_tracker_.reset(start);
  if (options_.track_material) material_tracker_.start(start);
  if (options_.keep_record) record_.start = start;
  stack_.push_back({start, start, options_.keep_record ? &record_.moves : nullptr, false, false});
  return Control::Continue;
}

Control ReplayVisitor::move(const MoveToken& token) {
  Frame& f = stack_.back();
  auto m = options_.letters ? parse_san(f.current, token.san, *options_.letters)
                            : parse_san(f.current, token.san);
  // A figurine (`♘f3`) names its piece in any language.
  if (!m && !options_.letters && has_figurine(token.san))
    m = parse_san(f.current, token.san, *piece_letters("en"));
  if (!m) {
    // The first move that does not read: the game may be in another language's letters when
    // the move reads in one of them here (the moves before read alike in it, or the game does
    // not read in it anyway).
    if (!options_.letters && !move_unread_)
      for (const PieceLetters& l : piece_letter_languages())
        if (l.language != "en" && parse_san(f.current, token.san, l)) {
          other_letters_fit_ = true;
          break;
        }
    move_unread_ = true;
    report(GameProblem::Severity::Error, token.location, m.error().message);
    replayed_ = false;
    return Control::Skip;
  }
  f.before = f.current;
  f.current.play_or_pass(*m);
  f.has_move = true;
  f.after_variation = false;
  if (stack_.size() == 1) {
    ++main_plies_;
    ending_tracker_.after_move(f.current);
    if (options_.track_material) material_tracker_.played(f.current);
  }
  if (f.line) {
    played(f.before, *m, f.current);
    MoveNode& node = f.line->emplace_back();
    node.move = *m;
    node.comments_before = std::move(pending_comments_);
    pending_comments_.clear();
    if (token.suffix_nag) node.nags.push_back(std::uint8_t(token.suffix_nag));
  }
  return Control::Continue;
}

void ReplayVisitor::add_nag(int nag) {
  Frame& f = stack_.back();
  if (!f.line) return;
  if (f.line->empty()) {
    report(GameProblem::Severity::Warning, game_location_,
           cat("NAG $", nag, " before any move; dropped"));
    return;
  }
  auto& nags = f.line->back().nags;
  if (std::find(nags.begin(), nags.end(), nag) == nags.end()) nags.push_back(std::uint8_t(nag));
}

Control ReplayVisitor::nag(int nag, Location) {
  add_nag(nag);
  return Control::Continue;
}

Control ReplayVisitor::comment(std::string_view text, Location) {
  if (!options_.keep_record) return Control::Continue;
  Frame& f = stack_.back();
  // After a move (and no variation since), a comment is about that move; otherwise it waits
  // for the next move, or leads the game.
  if (f.has_move && !f.after_variation && pending_comments_.empty() && !f.line->empty())
    f.line->back().comments_after.emplace_back(text);
  else if (stack_.size() == 1 && f.line->empty())
    record_.leading_comments.emplace_back(text);
  else
    pending_comments_.emplace_back(text);
  return Control::Continue;
}

Control ReplayVisitor::begin_variation(Location at) {
  Frame& f = stack_.back();
  if (!f.has_move) {
    report(GameProblem::Severity::Warning, at, "variation before any move; skipped");
    return Control::Skip;
  }
  Line* line = nullptr;
  if (f.line) line = &f.line->back().variations.emplace_back();
  // Comments between a move and its variation stay with the move.
  if (f.line && !pending_comments_.empty()) {
    auto& after = f.line->back().comments_after;
    after.insert(after.end(), pending_comments_.begin(), pending_comments_.end());
    pending_comments_.clear();
  }
  stack_.push_back({f.before, f.before, line, false, false});
  return Control::Continue;
}

Control ReplayVisitor::end_variation(Location) {
  if (stack_.size() <= 1) return Control::Continue;
  Frame& f = stack_.back();
  if (f.line && !pending_comments_.empty()) {
    if (!f.line->empty()) {
      // Comments at the end of this variation, after its last move's own variations.
      auto& last = f.line->back();
      auto& after = f.after_variation ? last.comments_after_variations : last.comments_after;
      after.insert(after.end(), pending_comments_.begin(), pending_comments_.end());
    } else {
      // A variation holding only a comment: keep the comment with the move it hangs from.
      stack_.pop_back();
      auto& after = stack_.back().line->back().comments_after;
      after.insert(after.end(), pending_comments_.begin(), pending_comments_.end());
      stack_.back().line->back().variations.pop_back();
      pending_comments_.clear();
      return Control::Continue;
    }
    pending_comments_.clear();
  }
  if (f.line && f.line->empty()) {
    stack_.pop_back();
    stack_.back().line->back().variations.pop_back();  // an empty variation says nothing
    return Control::Continue;
  }
  stack_.pop_back();
  // A comment right after the variation belongs before the next move, not to the last one.
  stack_.back().after_variation = true;
  return Control::Continue;
}

Control ReplayVisitor::result(std::string_view result, Location at) {
  marker_ = result;
  if (options_.keep_record) record_.result = result;
  if (!has_result_tag_) result_location_ = at;
  if (has_result_tag_ && is_result_text(result_tag_) && result_tag_ != result)
    report(GameProblem::Severity::Warning, at,
           cat("the result ", result, " contradicts the Result tag \"", result_tag_, "\""));
  return Control::Continue;
}

void ReplayVisitor::syntax_problem(const SyntaxProblem& p) {
  syntax_error_ |= p.severity == SyntaxProblem::Severity::Error;
  report(p.severity == SyntaxProblem::Severity::Error ? GameProblem::Severity::Error
                                                      : GameProblem::Severity::Warning,
         p.location, p.message);
}

namespace {

// The languages written with `letters`' piece letters, by name: "Norwegian, Danish, Swedish or
// German".
std::string languages_with(const PieceLetters& letters) {
  std::vector<std::string_view> names;
  for (const PieceLetters& l : piece_letter_languages())
    if (l.letters == letters.letters) names.push_back(l.name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += cat(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ", names[i]);
  return out;
}

}  // namespace

bool ReplayVisitor::read_in_other_letters(std::string_view text) {
  const auto languages = piece_letter_languages();
  std::optional<ReplayVisitor> chosen;
  std::vector<const PieceLetters*> fitting;  // the letters that read every move
  for (std::size_t i = 0; i < languages.size(); ++i) {
    const PieceLetters& l = languages[i];
    // English was read; a language whose letters an earlier one has is read as that one.
    if (l.language == "en" ||
        std::any_of(languages.begin(), languages.begin() + std::ptrdiff_t(i),
                    [&](const PieceLetters& e) { return e.letters == l.letters; }))
      continue;
    ReplayVisitor again(
        {.keep_record = options_.keep_record, .keep_text = options_.keep_text, .letters = l});
    // A buffer the game's size, not a file reader's megabyte: cleared for each language a game
    // is tried in, that was most of reading a file in other letters (under AddressSanitizer,
    // whose fresh pages fault, 70 s of a 150-game test).
    StringSource source(text);
    Reader reader(
        source,
        {.chunk_size = text.size() + 1, .origin = game_location_, .byte_order_mark = false});
    auto read = reader.read_game(again);
    if (!read || !*read || again.has_error()) continue;
    fitting.push_back(&l);
    if (!chosen) chosen.emplace(std::move(again));
  }
  if (!chosen) return false;
  const ReplayOptions options = options_;
  ReplayVisitor::operator=(std::move(*chosen));
  options_ = options;
  stack_.clear();  // its frames point into the other visitor's record
  const PieceLetters& letters = *fitting.front();
  std::string message = cat(
      "the moves are written with the piece letters of ", languages_with(letters), " (",
      std::string_view(letters.letters.data(), letters.letters.size()), " for N B R Q K): read so");
  for (std::size_t i = 1; i < fitting.size(); ++i)
    message += cat(i == 1 ? "; every move reads with those of " : "; and of ",
                   languages_with(*fitting[i]), " too");
  problems_.insert(problems_.begin(), {GameProblem::Severity::Warning, game_location_, message});
  ++warnings_;
  return true;
}

void ReplayVisitor::end_game(std::string_view text) {
  // A move that did not read in English may have been written in another language's letters:
  // the game is read again when that move reads in one. Not for a game the reader found broken
  // (noise), nor for one of over 1 MB (no game of moves is that long): bounded work on hostile
  // input.
  if (move_unread_ && other_letters_fit_ && !syntax_error_ && !options_.letters && !text.empty() &&
      text.size() <= (std::size_t(1) << 20) && read_in_other_letters(text))
    return;
  if (options_.keep_text) text_ = text;
  // A game that ends within its tags (the next game's tags follow, with no movetext between)
  // gets no begin_movetext: set it up here, so that its FEN and Variant tags are checked and
  // its start is the FEN's position, as for any other game.
  if (stack_.empty() && !setup_failed_) (void)begin_movetext();
  // The main line's frame stays at the bottom of the stack, as far as it was replayed.
  main_position_ = stack_.empty() ? Position() : stack_.front().current;
  if (options_.keep_record) {
    // Comments still waiting for a move came after the last one's variations.
    auto& rest = record_.moves.empty() ? record_.leading_comments
                                       : record_.moves.back().comments_after_variations;
    rest.insert(rest.end(), pending_comments_.begin(), pending_comments_.end());
    pending_comments_.clear();
    // The Result tag is the game's result when the movetext has no marker.
    if (record_.result == "*" && has_result_tag_ && is_result_text(result_tag_))
      record_.result = result_tag_;
  }
  if (!replayed_) return;

  // A result that contradicts the board: checkmate or stalemate at the end of the main line.
  const std::string& claimed = has_result_tag_ ? result_tag_ : marker_;
  const Position& end = main_position_;
  if (end.is_checkmate()) {
    const char* expected = end.side_to_move() == White ? "0-1" : "1-0";
    if (claimed != expected)
      report(
          GameProblem::Severity::Warning, result_location_,
          cat("the game ends in checkmate (", expected, ") but its result is \"", claimed, "\""));
  } else if (end.is_stalemate() && claimed != "1/2-1/2") {
    report(GameProblem::Severity::Warning, result_location_,
           cat("the game ends in stalemate but its result is \"", claimed, "\""));
  }
  ending_ = ending_tracker_.finish(end);
  // A decisive result where the board says draw, or for a side that cannot mate.
  if (claimed != "1-0" && claimed != "0-1") return;
  const char* rule =
      ending_.ending == Ending::InsufficientMaterial
          ? "in a dead position: neither side can checkmate (Law 5.2.2)"
      : ending_.ending == Ending::Fivefold ? "by the fivefold repetition of a position (Law 9.6.1)"
      : ending_.ending == Ending::SeventyFive
          ? "after 75 moves by each side without a capture or a pawn move (Law 9.6.2)"
          : nullptr;
  if (rule) {
    report(GameProblem::Severity::Warning, result_location_,
           cat("the game was drawn at ply ", ending_.ply, ", ", rule, ", but its result is \"",
               claimed, "\""));
    return;
  }
  const Color winner = claimed == "1-0" ? White : Black;
  if (!can_mate(end, winner))
    report(GameProblem::Severity::Warning, result_location_,
           cat("the result is \"", claimed, "\" but ", winner == White ? "White" : "Black",
               " cannot checkmate with its material at ply ", main_plies_,
               " (Law 6.9: a win on time is then a draw)"));
}

}  // namespace pgn
