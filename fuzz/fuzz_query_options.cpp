// The filter options of `pgndb find` (and tree, export) on any command line, parsed as the
// command parses them (Boost.Program_options, then query::parse_filters), without a database.
//
// Input: argv tokens separated by NUL or newline bytes.
// Checks: a rejected command line says why; accepted filters have ranges that are not inverted
// (low <= high; ECO codes of three characters), search keys where names were given, and compiled
// regular expressions where patterns were given.
#include <boost/program_options.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "check.h"
#include "filter_options.h"
#include "option_error.h"

namespace po = boost::program_options;

namespace {

std::vector<std::string> tokens(std::string_view input) {
  std::vector<std::string> args;
  std::string token;
  for (char c : input) {
    if (c == '\0' || c == '\n') {
      args.push_back(std::move(token));
      token.clear();
    } else {
      token += c;
    }
  }
  if (!token.empty()) args.push_back(std::move(token));
  return args;
}

void check_range(const std::optional<pgndb::query::NumberRange>& range) {
  if (!range) return;
  FUZZ_CHECK(range->low <= range->high);
}

void check_eco(const std::optional<pgndb::query::EcoRange>& range) {
  if (!range) return;
  FUZZ_CHECK(range->from.size() == 3 && range->to.size() == 3 && range->from <= range->to);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto args = tokens(std::string_view(reinterpret_cast<const char*>(data), size));
  // The options `pgndb find` declares besides the filters (cli/command_find.cpp).
  po::options_description options("options");
  options.add_options()("db", po::value<std::string>()->required(), "")(
      "format", po::value<std::string>()->default_value("table"), "")(
      "limit", po::value<std::uint64_t>()->default_value(0), "")(
      "offset", po::value<std::uint64_t>()->default_value(0), "")(
      "sort", po::value<std::string>()->default_value("id"), "")("help,h", "");
  pgndb::cli::declare_filters(options);
  po::positional_options_description positional;
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    FUZZ_CHECK(!pgndb::cli::option_error_message(e, args).empty());
    return 0;
  }
  const pgndb::query::FilterText text = pgndb::cli::filter_text(vm);
  auto filters = pgndb::query::parse_filters(text);
  if (!filters) {
    FUZZ_CHECK(!filters.error().empty());
    return 0;
  }
  check_eco(filters->eco_tag);
  // --eco, --opening and --opening-re select openings by position: a set, when one is given.
  FUZZ_CHECK(bool(filters->openings) ==
             !(text.eco.empty() && text.opening.empty() && text.opening_re.empty()));
  check_range(filters->date);
  check_range(filters->plies);
  FUZZ_CHECK(text.player.empty() == filters->player.empty());
  FUZZ_CHECK(text.winner.empty() == filters->winner.empty());
  FUZZ_CHECK(text.player_re.empty() == !filters->player_re);
  FUZZ_CHECK(filters->position.has_value() == !(text.fen.empty() && text.moves.empty()));
  return 0;
}
