// The fixed facts of a game that filters check and searches sort by: result, date, ratings,
// plies, annotated, speed, how the game ended. They are kept for every game in the `facts` column
// family, bit-packed in columns (docs/storage.md, "Facts"), so that checking a million candidates
// reads a few megabytes without decompressing anything.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "pgn/game_ending.h"
#include "pgn/openings.h"
#include "pgn/time_control.h"

namespace pgndb::index {

struct SearchFacts {
  std::uint8_t result = 0;  // 0 `*`, 1 `1-0`, 2 `0-1`, 3 `1/2-1/2` (as the game codec)
  bool annotated = false;   // as GameSummary::annotated
  std::uint16_t year = 0;   // 0 for each unknown part
  std::uint8_t month = 0, day = 0;
  std::uint16_t white_elo = 0, black_elo = 0;  // 0 when unknown
  std::uint16_t plies = 0;                     // main-line plies (at most 65,535)
  pgn::Speed speed = pgn::Speed::Unknown;      // from the TimeControl tag
  // How the main line ended on the board, and whether a threefold repetition or 50 moves
  // without a capture or a pawn move occurred on it (pgn::GameEnding; schema 20).
  pgn::Ending ending = pgn::Ending::None;
  bool repetition = false, fifty_moves = false;
  // The opening its main line reached (pgn/openings.h), 0 when none (schema 21).
  pgn::OpeningId opening_id = 0;

  // The three in one number, as the facts column and the summary keep them: the ending in bits
  // 0-2, the repetition in bit 3, the fifty moves in bit 4.
  std::uint8_t ending_code() const {
    return std::uint8_t(unsigned(ending) | (repetition ? 8 : 0) | (fifty_moves ? 16 : 0));
  }
  void set_ending_code(unsigned code) {
    ending = pgn::Ending(code & 7);
    repetition = code & 8;
    fifty_moves = code & 16;
  }
  // A sortable date: year, month, day in one number, 0 for unknown parts.
  std::uint32_t date_number() const { return std::uint32_t(year) << 16 | month << 8 | day; }
  bool operator==(const SearchFacts&) const = default;
};

// lichess's rating groups, by the players' average rating: a group holds the averages from its
// floor to the next group's floor (the last, 2500, has no ceiling; 0 is below 1000).
inline constexpr std::array<unsigned, 9> rating_group_floors = {0,    1000, 1200, 1400, 1600,
                                                                1800, 2000, 2200, 2500};
// The group (an index into rating_group_floors) of a game rated `white` and `black`, or nothing
// when either rating is unknown (0).
inline std::optional<unsigned> rating_group(unsigned white, unsigned black) {
  if (!white || !black) return std::nullopt;
  const unsigned average = (white + black) / 2;
  unsigned group = 0;
  while (group + 1 < rating_group_floors.size() && average >= rating_group_floors[group + 1])
    ++group;
  return group;
}

// What a search checks on its candidates' facts, every part optional: each range inclusive,
// the date as date_number() (a game of unknown year fails a date range: the date index holds
// known years only), the ratings both known and within, the speed, the rating group and the
// ending among those given, a repetition or fifty moves when asked. Store::select_facts checks
// it reading only the fields it names.
struct FactsFilter {
  struct Range {
    std::uint32_t low, high;
    bool holds(std::uint32_t v) const { return v >= low && v <= high; }
  };
  std::optional<Range> result, date, plies;
  unsigned min_elo = 0, max_elo = 0;  // 0: no bound
  bool annotated = false;             // only annotated games
  // Bit s set: games of speed pgn::Speed(s) pass; 0: no speed filter.
  std::uint8_t speeds = 0;
  // Bit g set: games of rating group g (rating_group) pass, both ratings known; 0: no filter.
  std::uint16_t rating_groups = 0;
  // Bit e set: games that ended as pgn::Ending(e) pass; 0: no ending filter.
  std::uint8_t endings = 0;
  bool repetition = false, fifty_moves = false;  // only games where one occurred
  // Bit i (of word i / 64) set: games whose opening is pgn::OpeningId i pass; null: no filter.
  std::shared_ptr<const std::vector<std::uint64_t>> openings;
  bool opening_holds(unsigned id) const {
    return !openings || (id / 64 < openings->size() && ((*openings)[id / 64] >> (id % 64) & 1));
  }

  bool checks_ratings() const { return min_elo || max_elo; }
  bool rating_holds(unsigned elo) const {
    return elo && (!min_elo || elo >= min_elo) && (!max_elo || elo <= max_elo);
  }
  bool in_rating_groups(unsigned white, unsigned black) const {
    const auto group = rating_group(white, black);
    return group && (rating_groups >> *group & 1);
  }
  bool passes(const SearchFacts& s) const {
    return (!result || result->holds(s.result)) &&
           (!date || (s.year && date->holds(s.date_number()))) &&
           (!plies || plies->holds(s.plies)) &&
           (!checks_ratings() || (rating_holds(s.white_elo) && rating_holds(s.black_elo))) &&
           (!annotated || s.annotated) && (!speeds || (speeds >> unsigned(s.speed) & 1)) &&
           (!rating_groups || in_rating_groups(s.white_elo, s.black_elo)) &&
           ending_holds(s.ending_code()) && opening_holds(s.opening_id);
  }
  bool checks_ending() const { return endings || repetition || fifty_moves; }
  // Whether a game of SearchFacts::ending_code `code` passes the ending, repetition and fifty
  // moves parts.
  bool ending_holds(unsigned code) const {
    return (!endings || (endings >> (code & 7) & 1)) && (!repetition || (code & 8)) &&
           (!fifty_moves || (code & 16));
  }
};

}  // namespace pgndb::index
