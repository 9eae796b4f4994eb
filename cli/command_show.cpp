// pgndb show: one game as PGN, and the board at one of its plies as a diagram (and as an SVG
// drawing on request).
#include <fstream>
#include <iostream>
#include <string>

#include "command.h"
#include "pgn/fen.h"
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
  positional.add("id", 1);
}

int run_show(const po::variables_map& vm) {
  auto fail = [](const std::string& message) {
    std::cerr << "pgndb show: " << message << '\n';
    return Usage;
  };
  auto store =
      index::Store::open(vm["db"].as<std::string>(),
                         {.create_if_missing = false, .read_only = true, .import_records = false});
  if (!store) return fail(store.error().message());
  const std::uint32_t id = vm["id"].as<std::uint32_t>();
  if (id == 0 || id > store->game_count())
    return fail(
        pgn::cat("no game ", id, " (the database holds games 1 to ", store->game_count(), ")"));
  auto game = store->game(id);
  if (!game) return fail(game.error().message());
  const std::size_t plies = game->moves.size();
  const std::size_t ply = vm.count("ply") ? vm["ply"].as<unsigned>() : plies;
  if (ply > plies) return fail(pgn::cat("--ply ", ply, ": game ", id, " has ", plies, " plies"));

  // The board after `ply` plies, and the move that led to it.
  pgn::Position pos = game->start, before = pos;
  for (std::size_t i = 0; i < ply; ++i) {
    before = pos;
    const pgn::Move m = game->moves[i].move;
    pos.play_or_pass(m);
  }
  serve::DiagramOptions options;
  options.black_at_bottom = vm["flip"].as<bool>();
  std::string caption = pgn::cat("Ply ", ply);
  if (ply > 0) {
    const pgn::Move m = game->moves[ply - 1].move;
    options.last_move = m;
    const bool white_moved = before.side_to_move() == pgn::White;
    caption += pgn::cat(", after ", before.fullmove_number(), white_moved ? ". " : "... ",
                        pgn::to_san(before, m));
  }
  caption += pos.side_to_move() == pgn::White ? ", White to move" : ", Black to move";

  std::string text;
  pgn::write_game(*game, text);
  std::cout << text << caption << ":\n\n"
            << serve::unicode_board(pos, options) << "\nFEN: " << pgn::to_fen(pos) << '\n';
  if (vm.count("svg")) {
    const std::string file = vm["svg"].as<std::string>();
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
    "pgndb show --db DIR ID [--ply N] [--svg FILE] [--flip]", declare_show, run_show};

}  // namespace pgndb::cli
