#include "filter_options.h"

#include <iostream>

namespace pgndb::cli {

void declare_filters(po::options_description& options) {
  options.add_options()("fen", po::value<std::string>(), "games that reach this position")(
      "moves", po::value<std::string>(), "games that reach the position after these moves")(
      "in-variations", po::bool_switch(), "the position in variations too")(
      "player", po::value<std::string>(), "a player's name, either colour")(
      "white", po::value<std::string>(), "White's name")(
      "black", po::value<std::string>(), "Black's name")("player-re", po::value<std::string>(),
                                                         "regular expression over players' names")(
      "white-re", po::value<std::string>(), "regular expression over White's name")(
      "black-re", po::value<std::string>(), "regular expression over Black's name")(
      "winner", po::value<std::string>(), "games this player won")(
      "loser", po::value<std::string>(), "games this player lost")(
      "result", po::value<std::string>(), "1-0, 0-1, 1/2-1/2 or *")(
      "eco", po::value<std::string>(), "ECO code or range: B90, B90-B99")(
      "event", po::value<std::string>(), "text in the event")("site", po::value<std::string>(),
                                                              "text in the site")(
      "date", po::value<std::string>(), "date or range: 1985, 1985..1995, 1985.03.01..")(
      "min-elo", po::value<unsigned>(), "both players rated at least N")(
      "max-elo", po::value<unsigned>(), "both players rated at most N")(
      "min-plies", po::value<unsigned>(), "main line of at least N plies")(
      "max-plies", po::value<unsigned>(), "main line of at most N plies")(
      "annotated", po::bool_switch(), "games with comments or variations");
}

query::FilterText filter_text(const po::variables_map& vm) {
  query::FilterText t;
  auto text = [&](const char* name, std::string& out) {
    if (vm.count(name)) out = vm[name].as<std::string>();
  };
  auto number = [&](const char* name, unsigned& out) {
    if (vm.count(name)) out = vm[name].as<unsigned>();
  };
  text("fen", t.fen);
  text("moves", t.moves);
  text("player", t.player);
  text("white", t.white);
  text("black", t.black);
  text("player-re", t.player_re);
  text("white-re", t.white_re);
  text("black-re", t.black_re);
  text("winner", t.winner);
  text("loser", t.loser);
  text("result", t.result);
  text("eco", t.eco);
  text("event", t.event);
  text("site", t.site);
  text("date", t.date);
  number("min-elo", t.min_elo);
  number("max-elo", t.max_elo);
  number("min-plies", t.min_plies);
  number("max-plies", t.max_plies);
  t.annotated = vm.count("annotated") && vm["annotated"].as<bool>();
  t.in_variations = vm.count("in-variations") && vm["in-variations"].as<bool>();
  return t;
}

std::optional<Selection> open_selection(const po::variables_map& vm, const query::FilterText& text,
                                        std::string_view command) {
  auto filters = query::parse_filters(text);
  if (!filters) {
    std::cerr << "pgndb " << command << ": " << filters.error() << '\n';
    return std::nullopt;
  }
  auto store =
      index::Store::open(vm["db"].as<std::string>(),
                         {.create_if_missing = false, .read_only = true, .import_records = false});
  if (!store) {
    std::cerr << "pgndb " << command << ": " << store.error().message() << '\n';
    return std::nullopt;
  }
  return Selection{std::move(*filters), std::move(*store)};
}

}  // namespace pgndb::cli
