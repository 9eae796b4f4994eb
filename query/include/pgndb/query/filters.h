// What `find` (and later `tree` and `export`) select games by: the filters as the user writes
// them, and checked and turned into what the search needs. Every filter narrows the result
// (they combine with AND). docs/query.md explains each to users.
#pragma once

#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/fen_pattern.h"
#include "pgn/game_result.h"
#include "pgn/material_spec.h"
#include "pgn/position.h"
#include "pgndb/index/position_statistics.h"

namespace re2 {
class RE2;
}

namespace pgndb::query {

// The filters as written on the command line; an empty string or 0 is "not given".
struct FilterText {
  std::string fen, moves;                     // a position, or moves from the start
  bool in_variations = false;                 // the position in variations too
  std::string player, white, black;           // name searches
  std::string player_re, white_re, black_re;  // regular expressions (re2) over names
  std::string winner, loser;                  // a player's wins, losses (name searches)
  std::string result;                         // 1-0, 0-1, 1/2-1/2, *
  std::string eco;                            // B90 or B90-B99: the opening's, by position
  std::string eco_tag;                        // B90 or B90-B99: the ECO tag's, as written
  std::string opening, opening_re;            // the opening's name: a text, an re2 pattern
  std::string event, site;                    // text searches
  std::string date;                           // 1985, 1985..1995, 1985.03.01..1985.12.31
  unsigned min_elo = 0, max_elo = 0;          // both players
  unsigned min_plies = 0, max_plies = 0;      // main-line plies
  bool annotated = false;                     // only games with comments or variations
  std::string speed;                          // blitz,rapid: lichess's speeds, a list
  std::string rating_groups;                  // 1600,1800: lichess's rating groups, a list
  std::string ending;                         // checkmate,stalemate: how games ended, a list
  bool repetition = false;                    // a threefold repetition at some ply
  bool fifty_moves = false;                   // 50 moves without capture or pawn move
  // Material (pgn/material_spec.h): an ending's name or pgn-extract's syntax; the balance held
  // in the main line, or the final one.
  std::string material, final_material;
  bool either_colour = false;  // the material specs with the colours swapped too (-z)
  std::string stable;          // plies a --material balance lasts beyond (default 2)
  // A board of the main line (pgn/fen_pattern.h); --pattern-either tries it inverted too.
  std::string pattern, pattern_either;
  std::string to_move;  // white or black: the side to move where the pattern matches
};

// One filter as users name it: the CLI's option `--NAME` and the server's parameter `NAME`
// (docs/query.md, docs/serve.md), with where its value goes in FilterText. Exactly one of the
// three members is set, by its kind.
struct FilterField {
  enum Kind { Text, Number, Switch };
  std::string_view name, help;
  Kind kind;
  std::string FilterText::*text = nullptr;
  unsigned FilterText::*number = nullptr;
  bool FilterText::*flag = nullptr;
};
// Every filter, in the order `--help` lists them.
[[nodiscard]] std::span<const FilterField> filter_fields();

// An inclusive range of numbers: dates as year << 16 | month << 8 | day (0 for an unknown part,
// as index::GameSummary::date_number() gives them), main-line plies.
struct NumberRange {
  std::uint32_t low = 0, high = 0;
};
// An inclusive range of ECO codes (three characters each, A00..E99).
struct EcoRange {
  std::string from, to;
};

struct Filters {
  std::optional<pgn::Position> position;
  bool in_variations = false;  // the position may stand in a variation instead of the main line
  // Names (players, event, site) are compared as "search keys": normalised (index/names.h),
  // then only letters and digits kept, so that "Kasparov, Garry", "Kasparov,G" and
  // "Kasparov G." all contain "kasparovg".
  std::string player, white, black, event, site, winner, loser;
  // Regular expressions matched (anywhere, case-insensitively) against normalised names.
  std::shared_ptr<const re2::RE2> player_re, white_re, black_re;
  std::optional<pgn::GameResult> result;
  std::optional<EcoRange> eco_tag;  // the ECO tag's codes (the postings answer)
  // The openings (pgn/openings.h) --eco, --opening and --opening-re leave, as
  // index::FactsFilter::openings: bit i of word i / 64 for opening i; null for no filter.
  std::shared_ptr<const std::vector<std::uint64_t>> openings;
  std::optional<NumberRange> date, plies;
  unsigned min_elo = 0, max_elo = 0;
  bool annotated = false;
  // As index::FactsFilter's: bit pgn::Speed s, bit index::rating_group g; 0 for no filter.
  std::uint8_t speeds = 0;
  std::uint16_t rating_groups = 0;
  // As index::FactsFilter's: bit pgn::Ending e; 0 for no filter.
  std::uint8_t endings = 0;
  bool repetition = false, fifty_moves = false;
  // Material: the main line holds a balance `material` accepts for more than `stable` plies
  // (pgn::first_material_match), or ends with one `final_material` accepts; with
  // `either_colour` the specs are tried with the colours swapped too.
  std::shared_ptr<const pgn::MaterialSpec> material, final_material;
  bool either_colour = false;
  unsigned stable = 2;
  // A main-line board `pattern` (or, with `pattern_either`, its inversion) matches, with
  // `to_move` to move when given.
  std::shared_ptr<const pgn::FenPattern> pattern;
  bool pattern_either = false;
  std::optional<pgn::Color> to_move;

  // True when a filter beside the position (or the variations) selects games: the index's
  // statistics of a position count all its games, so only a tree without one can use them.
  // Every field above but `position` must be named here.
  [[nodiscard]] bool narrows_beyond_position() const;
  // The slice of a position's statistics these filters select (index::StatisticsSlice): every
  // game when nothing narrows beyond the position, the rating floor and years when only ratings
  // and dates do and the statistics' slices hold them; nothing otherwise (the games are read).
  [[nodiscard]] std::optional<index::StatisticsSlice> statistics_slice() const;
};

// Checks and converts; a message naming the option and what is wrong otherwise (a malformed FEN,
// an illegal move, an inverted range...).
[[nodiscard]] std::expected<Filters, std::string> parse_filters(const FilterText& text);

// The search key of a name (see Filters).
[[nodiscard]] std::string search_key(std::string_view name);

}  // namespace pgndb::query
