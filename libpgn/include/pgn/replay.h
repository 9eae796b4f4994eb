// The replay visitor: plays every move the reader reports (main line and variations) through
// the rules engine, turns suffix annotations into NAGs, and reports what does not fit: illegal
// or ambiguous moves, a bad FEN tag, an unsupported variant, a result that contradicts the board.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pgn/game_ending.h"
#include "pgn/game_record.h"
#include "pgn/material_balance.h"
#include "pgn/piece_letters.h"
#include "pgn/position.h"
#include "pgn/reader.h"

namespace pgn {

struct GameProblem {
  enum class Severity { Warning, Error };
  Severity severity;
  Location location;
  std::string message;
};

struct ReplayOptions {
  // Build the GameRecord (tags, move tree, comments) for the writer or the indexer. Off, the
  // visitor only checks, and costs no allocation per move.
  bool keep_record = false;
  // Keep a copy of each game's original text, for games that cannot be replayed.
  bool keep_text = false;
  // The piece letters the moves are written in (piece_letters.h). None: English (and figurines),
  // and a game a move of which does not read is read again in the letters of each other
  // language; when every move of the game reads in one, the game is taken as read there, with
  // a warning that names the language (and any other language whose letters read it too).
  std::optional<PieceLetters> letters = std::nullopt;
  // Follow the main line's material (material_balance.h) for material(): the indexer keeps it.
  bool track_material = false;
};

class ReplayVisitor : public Visitor {
 public:
  explicit ReplayVisitor(ReplayOptions options = {}) : options_(options) {}

  // --- The last game read ---
  // Problems in the order found, from the reader and from the replay.
  const std::vector<GameProblem>& problems() const { return problems_; }
  bool has_error() const { return errors_ > 0; }
  bool has_warning() const { return warnings_ > 0; }
  // False when a move could not be played (or the game could not be set up). The rest of the
  // line it stood in is left out: the rest of the game for a main-line move, the rest of the
  // variation for a move inside one (the main line then goes on).
  bool replayed() const { return replayed_; }
  const GameRecord& record() const { return record_; }
  // The position at the end of the main line (as far as it was replayed).
  const Position& final_position() const { return main_position_; }
  int main_line_plies() const { return main_plies_; }
  // How the main line ended (game_ending.h), when the game was replayed.
  const GameEnding& ending() const { return ending_; }
  // The main line's material, with ReplayOptions::track_material (as far as it was replayed;
  // no runs when the game had no movetext to set up).
  const MaterialHistory& material() const { return material_tracker_.history(); }
  // The language (ISO 639-1) whose piece letters the game was read with: "en" unless it was
  // read again in another's (ReplayOptions::letters).
  std::string_view language() const { return language_; }
  // The game's original text (with keep_text).
  const std::string& original_text() const { return text_; }

  // --- Visitor ---
  Control begin_game(Location) override;
  Control tag(std::string_view name, std::string_view value, Location) override;
  Control begin_movetext() override;
  Control move(const MoveToken& token) override;
  Control nag(int nag, Location) override;
  Control comment(std::string_view text, Location) override;
  Control begin_variation(Location) override;
  Control end_variation(Location) override;
  Control result(std::string_view result, Location) override;
  void syntax_problem(const SyntaxProblem& p) override;
  void end_game(std::string_view text) override;

 protected:
  // Called for each move played into the record (with keep_record), in the main line and in
  // variations, in the order of the text: the position before the move, the move, the position
  // after it. A subclass that needs what the replay computes (the indexer: each move's code and
  // each position's key) takes it here rather than playing the game again.
  virtual void played(const Position& /*before*/, Move /*move*/, const Position& /*after*/) {}

 private:
  struct Frame {
    Position before;   // the position before the last move of this line
    Position current;  // the position after it
    Line* line;        // where moves of this line go (with keep_record)
    bool has_move;
    bool after_variation;  // a variation closed since the last move
  };
  void report(GameProblem::Severity severity, Location at, std::string message);
  // Reads the game of `text` again in each other language's letters; true when every move read
  // in one of them, and this visitor then holds that reading.
  bool read_in_other_letters(std::string_view text);
  void add_nag(int nag);

  ReplayOptions options_;
  GameRecord record_;
  std::vector<GameProblem> problems_;
  int errors_ = 0, warnings_ = 0;
  bool replayed_ = true;
  bool setup_failed_ = false;
  std::vector<Frame> stack_;
  Position main_position_;
  int main_plies_ = 0;
  EndingTracker ending_tracker_;
  GameEnding ending_;
  MaterialTracker material_tracker_;
  bool move_unread_ = false;        // a move of the game did not read
  bool syntax_error_ = false;       // the reader reported an error in the game's text
  bool other_letters_fit_ = false;  // the first unread move reads in another language's letters
  std::string_view language_ = "en";
  std::string fen_tag_, variant_tag_, result_tag_;
  std::string marker_;  // the game termination marker, "*" when there is none
  bool has_result_tag_ = false;
  // Where problems of the whole game are reported: the game's start, or the tag concerned.
  Location game_location_, fen_location_, variant_location_, result_location_;
  std::string text_;
  std::vector<std::string> pending_comments_;  // comments waiting for the next move
};

}  // namespace pgn
