// pgndb show: one game as PGN, and the board at one of its plies as a diagram (and as an SVG
// drawing on request).
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "command.h"
#include "pgn/fen.h"
#include "pgn/game.h"
#include "pgn/game_ending.h"
#include "pgn/material.h"
#include "pgn/openings.h"
#include "pgn/san.h"
#include "pgn/text.h"
#include "pgn/writer.h"
#include "pgndb/index/store.h"
#include "pgndb/serve/board_diagram.h"

namespace pgndb::cli {

void declare_show(po::options_description& options,
                  po::positional_options_description& positional) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory")(
      "id", po::value<std::uint32_t>()->required(), "the game's id (as find prints it)")(
      "ply", po::value<unsigned>(), "the board after N plies (0: the start; default: the end)")(
      "svg", po::value<std::string>(), "also write the board as an SVG drawing to FILE")(
      "flip", po::bool_switch(), "Black at the bottom");
  declare_writing_language(options);
  positional.add("id", 1);
}

// show's options, checked.
struct ShowOptions {
  std::string db;
  std::uint32_t id = 0;
  std::optional<std::size_t> ply;  // none: the end
  std::optional<std::string> svg;
  bool flip = false;
  pgn::WriterOptions writing;
};

Parsed<ShowOptions> parse_show(const po::variables_map& vm) {
  ShowOptions o;
  o.db = vm["db"].as<std::string>();
  o.id = vm["id"].as<std::uint32_t>();
  if (o.id == 0) return std::unexpected("no game 0: games are numbered from 1");
  if (vm.count("ply")) o.ply = vm["ply"].as<unsigned>();
  if (vm.count("svg")) o.svg = vm["svg"].as<std::string>();
  o.flip = vm["flip"].as<bool>();
  auto writing = writer_options(vm);
  if (!writing) return std::unexpected(writing.error());
  o.writing = *writing;
  return o;
}

namespace {

// How the main line ended, by the laws (pgn::GameEnding), on one line.
std::string ending_text(const pgn::GameRecord& game) {
  std::vector<pgn::Move> main_line;
  for (const pgn::MoveNode& node : game.moves) main_line.push_back(node.move);
  const pgn::GameEnding e = pgn::game_ending(game.start, main_line);
  using enum pgn::Ending;
  const std::string_view how =
      e.ending == Checkmate   ? "checkmate (Law 5.1.1)"
      : e.ending == Stalemate ? "stalemate (Law 5.2.1)"
      : e.ending == InsufficientMaterial
          ? "a dead position: neither side can checkmate (Laws 5.2.2, 6.9)"
      : e.ending == Fivefold    ? "drawn by the fivefold repetition of a position (Law 9.6.1)"
      : e.ending == SeventyFive ? "drawn by 75 moves without a capture or a pawn move (Law 9.6.2)"
      : e.ending == Threefold ? "the position stood a third time: a draw could be claimed (Law 9.2)"
      : e.ending == Fifty
          ? "50 moves without a capture or a pawn move: a draw could be claimed (Law 9.3)"
          : "not on the board";
  std::string line = pgn::cat("Ended: ", how);
  if (e.ending != None) line += pgn::cat(", at ply ", e.ply);
  if (e.repetition || e.fifty_moves)
    line += pgn::cat(" (on the way: ",
                     e.repetition && e.fifty_moves ? "a threefold repetition and 50 moves"
                     : e.repetition                ? "a threefold repetition"
                                                   : "50 moves without a capture or a pawn move",
                     ")");
  return line;
}

// The game's opening by position (pgn/openings.h), on one line.
std::string opening_text(const pgn::GameRecord& game) {
  const pgn::OpeningId id = pgn::opening_of(game);
  if (id == 0)
    return game.start == pgn::Position() ? "Opening: none named in the first 40 plies"
                                         : "Opening: none (set up from a position)";
  const pgn::Opening& o = pgn::openings()[id];
  return pgn::cat("Opening: ", o.eco, " ", o.name);
}

}  // namespace

int run_show(const ShowOptions& o) {
  auto fail = [](const std::string& message) {
    std::cerr << "pgndb show: " << message << '\n';
    return Usage;
  };
  auto store = index::Store::open(
      o.db, {.create_if_missing = false, .read_only = true, .import_records = false});
  if (!store) return fail(store.error().message());
  const std::uint32_t id = o.id;
  if (id > store->game_count())
    return fail(
        pgn::cat("no game ", id, " (the database holds games 1 to ", store->game_count(), ")"));
  auto game = store->game(id);
  if (!game) return fail(game.error().message());
  const std::size_t plies = game->moves.size();
  const std::size_t ply = o.ply.value_or(plies);
  if (ply > plies) return fail(pgn::cat("--ply ", ply, ": game ", id, " has ", plies, " plies"));

  // The board after `ply` plies, and the move that led to it.
  pgn::Position pos = game->start, before = pos;
  for (std::size_t i = 0; i < ply; ++i) {
    before = pos;
    const pgn::Move m = game->moves[i].move;
    pos.play_or_pass(m);
  }
  serve::DiagramOptions options;
  options.black_at_bottom = o.flip;
  std::string caption = pgn::cat("Ply ", ply);
  if (ply > 0) {
    const pgn::Move m = game->moves[ply - 1].move;
    options.last_move = m;
    const bool white_moved = before.side_to_move() == pgn::White;
    caption += pgn::cat(", after ", before.fullmove_number(), white_moved ? ". " : "... ",
                        pgn::written_san(pgn::to_san(before, m), o.writing));
  }
  caption += pos.side_to_move() == pgn::White ? ", White to move" : ", Black to move";

  std::string text;
  pgn::write_game(*game, text, o.writing);
  std::cout << text << caption << ":\n\n"
            << serve::unicode_board(pos, options) << "\nFEN: " << pgn::to_fen(pos) << '\n'
            << "Material: White " << pgn::material_value(pos, pgn::White) << ", Black "
            << pgn::material_value(pos, pgn::Black)
            << " (pawn 1, knight 3, bishop 3, rook 5, queen 9)\n"
            << ending_text(*game) << '\n'
            << opening_text(*game) << '\n';
  if (o.svg) {
    const std::string& file = *o.svg;
    std::ofstream out(file, std::ios::binary);
    out << serve::svg_board(pos, options);
    out.close();
    if (!out) return fail("cannot write " + file);
  }
  std::cout.flush();
  return std::cout ? Success : Usage;
}

extern const Command show_command{
    "show", "one game as PGN, and its board at a ply as a diagram (--svg: a drawing)",
    "pgndb show --db DIR ID [--ply N] [--svg FILE] [--flip] [--lang CODE | --figurine]",
    declare_show,
    [](const po::variables_map& vm) { return parse_then_run("show", vm, parse_show, run_show); }};

}  // namespace pgndb::cli
