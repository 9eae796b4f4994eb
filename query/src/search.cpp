#include "pgndb/query/search.h"
#include "pgn/game_result.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <span>
#include <thread>
#include <utility>

#include "pgn/bitboard.h"
#include "pgn/text.h"
#include "pgndb/index/names.h"

namespace pgndb::query {

namespace {

using index::Status;
using Ids = std::vector<std::uint32_t>;

Ids intersect(const Ids& a, const Ids& b) {
  Ids out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

Ids unite(const Ids& a, const Ids& b) {
  Ids out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

bool contains(const Ids& sorted, std::uint32_t id) {
  return std::binary_search(sorted.begin(), sorted.end(), id);
}

using Names = index::Store::NameDimension;
// The literal pieces (RE2's "atoms", lower case) that every name a pattern matches holds at
// least one of, as search keys of 3 bytes or more; nothing when some matching name may hold
// none (`^k.*v$`, a piece shorter than 3 letters and digits, or one in another script than
// Latin's): then every name is read.
std::optional<std::vector<std::string>> required_pieces(const re2::RE2& pattern) {
  re2::FilteredRE2 filter(3);
  int id = 0;
  if (filter.Add(pattern.pattern(), pattern.options(), &id) != re2::RE2::NoError) return {};
  std::vector<std::string> atoms;
  filter.Compile(&atoms);
  // A pattern that passes the filter with no piece found is "unfiltered": it needs none.
  std::vector<int> passing;
  filter.AllPotentials({}, &passing);
  if (atoms.empty() || !passing.empty()) return std::nullopt;
  std::vector<std::string> keys;
  for (const std::string& atom : atoms) {
    std::string key = index::name_search_key(atom);
    // Names keep other scripts' letters as written, and the index compares bytes: a pattern
    // matched without regard to case finds "Дубов" with "дубов", which the index would not.
    const bool ascii = std::all_of(key.begin(), key.end(), [](char c) { return c > 0; });
    if (key.size() < 3 || !ascii) return std::nullopt;
    keys.push_back(std::move(key));
  }
  return keys;
}

std::expected<std::vector<std::string>, Status> names_matching(const index::Store& store,
                                                               Names dimension,
                                                               const re2::RE2& pattern) {
  std::vector<std::string> out;
  auto keep_matching = [&](auto&& names) {
    for (const auto& name : names)
      if (re2::RE2::PartialMatch(name, pattern)) out.emplace_back(name);
  };
  // A name holding a piece holds its search key too: the names containing each piece's key
  // are the candidates (the name index answers those), and the pattern decides.
  if (auto pieces = required_pieces(pattern)) {
    std::vector<std::string> candidates;
    for (const std::string& key : *pieces) {
      auto names = store.names_containing(dimension, key);
      if (!names) return std::unexpected(names.error());
      candidates.insert(candidates.end(), names->begin(), names->end());
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    keep_matching(candidates);
    return out;
  }
  auto values = store.name_values(dimension);
  if (!values) return std::unexpected(values.error());
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < (*values)->size(); ++i) names.push_back((**values)[i]);
  keep_matching(names);
  return out;
}

// The games of the names `names` of a dimension: for players, `colour` 0 or 1 keeps one
// colour's (-1 both).
std::expected<Ids, Status> games_named(const index::Store& store, Names dimension, int colour,
                                       const std::vector<std::string>& names) {
  return store.games_named(dimension, names, colour);
}

enum Colour { Any = -1, White = 0, Black = 1 };

// The key a game sorts by (smaller first), with unknown values last.
std::uint64_t sort_key(Order order, const index::SearchFacts& s) {
  // Values are below 2^32: reversed within that range, they stay below `unknown`.
  constexpr std::uint64_t unknown = ~std::uint64_t(0);
  auto descending = [](std::uint64_t v) { return 0xFFFFFFFFULL - v; };
  switch (order) {
    case Order::Date: return s.year ? s.date_number() : unknown;
    case Order::DateDescending: return s.year ? descending(s.date_number()) : unknown;
    case Order::Elo:
    case Order::EloDescending: {
      const unsigned known = (s.white_elo != 0) + (s.black_elo != 0);
      if (!known) return unknown;
      const std::uint64_t average = (s.white_elo + s.black_elo) / known;
      return order == Order::Elo ? average : descending(average);
    }
    case Order::Id: break;
  }
  return 0;
}

}  // namespace

std::optional<Order> parse_order(std::string_view name) {
  static constexpr std::pair<std::string_view, Order> orders[] = {{"id", Order::Id},
                                                                  {"date", Order::Date},
                                                                  {"-date", Order::DateDescending},
                                                                  {"elo", Order::Elo},
                                                                  {"-elo", Order::EloDescending}};
  for (const auto& [written, order] : orders)
    if (written == name) return order;
  return std::nullopt;
}

std::expected<Search, Status> Search::start(const index::Store& store, const Filters& filters,
                                            Order order) {
  Search search(store, filters);
  // Each index-backed filter gives its games; the smallest set is intersected first.
  std::vector<Ids> sets;
  std::vector<std::string> names;  // what gave each set, for the plan
  // A position with no other index to intersect it with: its games are read as needed.
  const bool other_sets =
      !filters.player.empty() || !filters.white.empty() || !filters.black.empty() ||
      !filters.event.empty() || !filters.site.empty() || filters.player_re || filters.white_re ||
      filters.black_re || !filters.winner.empty() || !filters.loser.empty() || filters.eco_tag;
  if (filters.position && !filters.in_variations && !other_sets && order == Order::Id) {
    auto games = store.position_games(*filters.position);
    if (!games) return std::unexpected(games.error());
    search.position_games_ = std::move(*games);
    const std::uint64_t generations = store.position_generations();
    search.plan_.steps.push_back(
        {pgn::cat("positions (", generations, generations == 1 ? " generation)" : " generations)"),
         0});
    search.plan_.read_as_needed = true;
  } else if (filters.position) {
    auto ids = store.games_at(*filters.position);
    if (!ids) return std::unexpected(ids.error());
    if (filters.in_variations) {
      auto in_variations = store.games_at(*filters.position, true);
      if (!in_variations) return std::unexpected(in_variations.error());
      *ids = unite(*ids, *in_variations);
    }
    sets.push_back(std::move(*ids));
    const std::uint64_t generations = store.position_generations();
    names.push_back(
        pgn::cat(filters.in_variations ? "positions, main line and variations" : "positions", " (",
                 generations, generations == 1 ? " generation)" : " generations)"));
  }
  auto add_named = [&](Names dimension, int colour,
                       const std::expected<std::vector<std::string>, Status>& matched,
                       std::string_view what) -> Status {
    if (!matched) return matched.error();
    auto ids = games_named(store, dimension, colour, *matched);
    if (!ids) return ids.error();
    sets.push_back(std::move(*ids));
    names.emplace_back(what);
    return Status::ok();
  };
  constexpr Names Player = Names::Player;
  struct Named {
    const std::string& key;
    Names dimension;
    int colour;
    std::string_view what;
  };
  for (const Named& n : {Named{filters.player, Player, Any, "names: player"},
                         Named{filters.white, Player, White, "names: White"},
                         Named{filters.black, Player, Black, "names: Black"},
                         Named{filters.event, Names::Event, Any, "names: event"},
                         Named{filters.site, Names::Site, Any, "names: site"}})
    if (!n.key.empty())
      if (Status s =
              add_named(n.dimension, n.colour, store.names_containing(n.dimension, n.key), n.what);
          !s.is_ok())
        return std::unexpected(s);
  struct Pattern {
    const std::shared_ptr<const re2::RE2>& pattern;
    int colour;
    std::string_view what;
  };
  for (const Pattern& p : {Pattern{filters.player_re, Any, "names: player pattern"},
                           Pattern{filters.white_re, White, "names: White pattern"},
                           Pattern{filters.black_re, Black, "names: Black pattern"}})
    if (p.pattern)
      if (Status s = add_named(Player, p.colour, names_matching(store, Player, *p.pattern), p.what);
          !s.is_ok())
        return std::unexpected(s);
  // A winner or a loser: the games of the name in either colour, and the summary tells which
  // colour won.
  struct Outcome {
    const std::string& key;
    Ids &as_white, &as_black;
  };
  for (const Outcome& o : {Outcome{filters.winner, search.winner_white_, search.winner_black_},
                           Outcome{filters.loser, search.loser_white_, search.loser_black_}}) {
    if (o.key.empty()) continue;
    auto matched = store.names_containing(Player, o.key);
    if (!matched) return std::unexpected(matched.error());
    for (auto [colour, ids] : {std::pair{White, &o.as_white}, std::pair{Black, &o.as_black}}) {
      auto named = games_named(store, Player, colour, *matched);
      if (!named) return std::unexpected(named.error());
      *ids = std::move(*named);
    }
    sets.push_back(unite(o.as_white, o.as_black));
    names.emplace_back(&o.key == &filters.winner ? "names: winner" : "names: loser");
    search.check_facts_ = true;
    search.plan_.checked.emplace_back(&o.key == &filters.winner ? "winner's colour"
                                                                : "loser's colour");
  }
  // Material: the lists of the balances the spec accepts (any of them held while a move was
  // played); whether one lasted long enough is confirmed on each candidate's history. The final
  // balance's lists answer exactly. The lists are read an epoch at a time, as the search needs
  // its games (read_epoch): a broad spec's lists name most games, and at 5M games gathering them
  // all took 285 ms before the first game was confirmed. A position's games read as needed are
  // confirmed without them (take_candidates reads those alone).
  using pgn::MaterialBalance;
  const bool either = filters.either_colour;
  const auto read_by_epoch = [&](EpochLists lists, std::string what) {
    if (search.position_games_) return;
    search.by_epoch_.push_back(std::move(lists));
    search.by_epoch_names_.push_back(std::move(what));
  };
  if (filters.material || filters.final_material) {
    for (const auto& [spec, final] :
         {std::pair{filters.material, false}, std::pair{filters.final_material, true}}) {
      if (!spec) continue;
      index::Store::PossibleCounts possible{};
      for (pgn::Color c : {pgn::White, pgn::Black})
        for (int t = pgn::Pawn; t <= pgn::Queen; ++t) {
          const auto type = pgn::PieceType(t);
          possible.counts[c][t - pgn::Pawn] =
              spec->possible_counts(c, type, pgn::White) |
              (either ? spec->possible_counts(c, type, pgn::Black) : 0);
        }
      read_by_epoch(
          [store = &store, spec, either, possible](std::uint32_t epoch) {
            return store->games_with_material(
                [&](const MaterialBalance& b) {
                  return spec->pieces_can_match(b, pgn::White) ||
                         (either && spec->pieces_can_match(b, pgn::Black));
                },
                [&](const MaterialBalance& b) {
                  return spec->matches(b, pgn::White) || (either && spec->matches(b, pgn::Black));
                },
                possible, epoch);
          },
          final ? "postings: final material" : "postings: material");
    }
    search.confirm_ = true;
    if (filters.material)
      search.plan_.checked.emplace_back(
          pgn::cat("material held for more than ", filters.stable, " plies"));
    if (filters.final_material) search.plan_.checked.emplace_back("final material");
  }
  // A pattern: the games that held the pieces it names at some ply (the lists of the balances
  // with as many), then each candidate's history (pieces and home pawns), then its boards.
  if (filters.pattern) {
    search.confirm_ = true;
    for (const auto& p : {filters.pattern,
                          filters.pattern_either
                              ? std::make_shared<const pgn::FenPattern>(filters.pattern->inverted())
                              : nullptr})
      if (p) search.needs_.push_back(PatternNeeds::of(p));
    const auto holds = [](const std::vector<PatternNeeds>& needs, const MaterialBalance& b,
                          bool pawns) {
      return std::ranges::any_of(needs, [&](const PatternNeeds& n) { return n.held_by(b, pawns); });
    };
    bool names_pieces = false;
    for (const PatternNeeds& n : search.needs_)
      for (const auto& side : n.pieces)
        names_pieces |= std::ranges::any_of(side, [](unsigned count) { return count > 0; });
    // A pattern naming no piece (but kings), or no more than the initial position holds, can
    // match nearly any game: the lists would name them all.
    if (names_pieces && !holds(search.needs_, MaterialBalance::start(), true)) {
      // At least the pieces either pattern names: counts from the lower of its two minimums.
      index::Store::PossibleCounts possible{};
      for (pgn::Color c : {pgn::White, pgn::Black})
        for (int t = 0; t < 5; ++t) {
          unsigned least = ~0u;
          for (const PatternNeeds& n : search.needs_) least = std::min(least, n.pieces[c][t]);
          possible.counts[c][t] = std::uint16_t(0xFFFFu << std::min(least, 15u));
        }
      read_by_epoch(
          [store = &store, needs = search.needs_, holds, possible](std::uint32_t epoch) {
            return store->games_with_material(
                [&](const MaterialBalance& b) { return holds(needs, b, false); },
                [&](const MaterialBalance& b) { return holds(needs, b, true); }, possible, epoch);
          },
          "postings: material the pattern needs");
    }
    search.plan_.checked.emplace_back(filters.pattern_either ? "pattern either way, on the boards"
                                                             : "pattern, on the boards");
  }
  // Result, date and plies are in each game's facts. Results and plies have no index: a result
  // is a third of the database, and a range of plies rarely less, so checking every game's
  // facts (a few bytes each, uncompressed) costs less than reading ids. A date has an index,
  // read when nothing more selective (a position, a name, an ECO code) answers; otherwise the
  // date is checked on the candidates' facts too: a decade of dates is a third of the
  // database, and reading its index range cost more than the rest of the search.
  const bool selective =
      !sets.empty() || !search.by_epoch_.empty() || filters.eco_tag || search.position_games_;
  if (filters.eco_tag) {
    auto ids = store.games_with_eco(filters.eco_tag->from, filters.eco_tag->to);
    if (!ids) return std::unexpected(ids.error());
    sets.push_back(std::move(*ids));
    names.emplace_back("postings: ECO tag");
  }
  using Range = std::optional<index::FactsFilter::Range>;
  struct Ranged {
    std::optional<NumberRange> range;
    Range index::FactsFilter::*field;
    bool indexed;
    std::string_view what;
  };
  const std::optional<NumberRange> result =
      filters.result
          ? std::optional(NumberRange{pgn::code_of(*filters.result), pgn::code_of(*filters.result)})
          : std::nullopt;
  using index::FactsFilter;
  for (const Ranged& r : {Ranged{result, &FactsFilter::result, false, "result"},
                          Ranged{filters.date, &FactsFilter::date, true, "date"},
                          Ranged{filters.plies, &FactsFilter::plies, false, "plies"}}) {
    if (!r.range) continue;
    if (selective || !r.indexed) {
      search.facts_filter_.*r.field = FactsFilter::Range{r.range->low, r.range->high};
      search.check_facts_ = true;
      search.plan_.checked.emplace_back(r.what);
      continue;
    }
    auto ids = store.games_dated(r.range->low, r.range->high);
    if (!ids) return std::unexpected(ids.error());
    sets.push_back(std::move(*ids));
    names.push_back(pgn::cat("postings: ", r.what));
  }
  if (!sets.empty()) {
    std::vector<std::size_t> by_size(sets.size());
    for (std::size_t i = 0; i < sets.size(); ++i) by_size[i] = i;
    std::stable_sort(by_size.begin(), by_size.end(),
                     [&](std::size_t a, std::size_t b) { return sets[a].size() < sets[b].size(); });
    Ids result = std::move(sets[by_size.front()]);
    search.plan_.steps.push_back({names[by_size.front()], result.size()});
    for (std::size_t i = 1; i < by_size.size(); ++i) {
      search.plan_.steps.push_back({names[by_size[i]], sets[by_size[i]].size()});
      if (!result.empty()) result = intersect(result, sets[by_size[i]]);
    }
    search.candidates_ = std::move(result);
  }
  if (!search.by_epoch_.empty()) {
    // The other indexes' games, when any, restrict each epoch's (read_epoch); the candidates are
    // read as the search goes on.
    search.fixed_ = std::move(search.candidates_);
    search.candidates_ = Ids{};
    search.epochs_ = store.epochs();
    search.by_epoch_steps_ = search.plan_.steps.size();
    for (const std::string& what : search.by_epoch_names_) search.plan_.steps.push_back({what, 0});
    search.plan_.read_as_needed = true;
  }
  search.plan_.every_game = !search.candidates_ && !search.position_games_;
  if (!search.position_games_ && search.by_epoch_.empty())
    search.plan_.candidates = search.candidates_ ? search.candidates_->size() : store.game_count();
  if (filters.min_elo || filters.max_elo) search.plan_.checked.emplace_back("ratings");
  if (filters.annotated) search.plan_.checked.emplace_back("annotated");
  if (filters.speeds) search.plan_.checked.emplace_back("speed");
  if (filters.rating_groups) search.plan_.checked.emplace_back("rating groups");
  if (filters.endings) search.plan_.checked.emplace_back("ending");
  if (filters.repetition) search.plan_.checked.emplace_back("repetition");
  if (filters.fifty_moves) search.plan_.checked.emplace_back("fifty moves");
  if (filters.openings) search.plan_.checked.emplace_back("opening");
  search.check_facts_ |= filters.min_elo || filters.max_elo || filters.annotated ||
                         filters.speeds || filters.rating_groups || filters.endings ||
                         filters.repetition || filters.fifty_moves || filters.openings;
  search.facts_filter_.min_elo = filters.min_elo;
  search.facts_filter_.max_elo = filters.max_elo;
  search.facts_filter_.annotated = filters.annotated;
  search.facts_filter_.speeds = filters.speeds;
  search.facts_filter_.rating_groups = filters.rating_groups;
  search.facts_filter_.endings = filters.endings;
  search.facts_filter_.repetition = filters.repetition;
  search.facts_filter_.fifty_moves = filters.fifty_moves;
  search.facts_filter_.openings = filters.openings;
  if (order != Order::Id) {
    search.plan_.order = order == Order::Date             ? "date"
                         : order == Order::DateDescending ? "date, latest first"
                         : order == Order::Elo            ? "rating"
                                                          : "rating, highest first";
    if (Status s = search.sort(order); !s.is_ok()) return std::unexpected(s);
  }
  return search;
}

bool Search::passes(std::uint32_t id, const index::SearchFacts& s) const {
  if (!facts_filter_.passes(s)) return false;
  constexpr std::uint8_t white_won = pgn::code_of(pgn::GameResult::WhiteWins),
                         black_won = pgn::code_of(pgn::GameResult::BlackWins);
  if (!filters_.winner.empty() && !(s.result == white_won && contains(winner_white_, id)) &&
      !(s.result == black_won && contains(winner_black_, id)))
    return false;
  if (!filters_.loser.empty() && !(s.result == black_won && contains(loser_white_, id)) &&
      !(s.result == white_won && contains(loser_black_, id)))
    return false;
  return true;
}

Status Search::confirm(Ids& ids, std::vector<unsigned>& plies) {
  // For each pattern (the one given, and its inversion for --pattern-either), the last position
  // of the last run holding as many pieces as it names (the final position, with no move played
  // from it, for the last run), when the game's pawns reached the squares it needs pawns on;
  // -1 when it can match nowhere in the game. Nothing when no pattern can.
  using Hope = std::array<std::int32_t, 2>;
  const auto hope_of = [&](const pgn::MaterialHistory& h) -> std::optional<Hope> {
    Hope hope{-1, -1};
    for (std::size_t p = 0; p < needs_.size(); ++p) {
      const PatternNeeds& n = needs_[p];
      if (!n.squares_reached(h)) continue;
      for (std::size_t i = h.runs.size(); i-- > 0;)
        if (n.held_by(h.runs[i].balance, true)) {
          hope[p] = std::int32_t(i + 1 < h.runs.size() ? h.runs[i + 1].ply - 1u : h.plies);
          break;
        }
    }
    return hope[0] < 0 && hope[1] < 0 ? std::nullopt : std::optional(hope);
  };
  // The games of a part of `ids` whose histories pass, each with its match's ply and, for a
  // pattern, the last ply with the pieces it names (its replay stops there).
  struct Part {
    Ids kept;
    std::vector<unsigned> plies;
    std::vector<Hope> hope_until;
    Status status = Status::ok();
  };
  const auto confirm_part = [&](Part& part, std::span<const std::uint32_t> some) {
    part.status =
        store_->for_each_material(some, [&](std::uint32_t id, const pgn::MaterialHistory& h) {
          std::optional<unsigned> ply = 0;
          if (filters_.material)
            ply = pgn::first_material_match(h, *filters_.material, filters_.stable,
                                            filters_.either_colour);
          if (ply && filters_.final_material) {
            const auto& spec = *filters_.final_material;
            const pgn::MaterialBalance& end = h.final_balance();
            if (!spec.matches(end, pgn::White) &&
                !(filters_.either_colour && spec.matches(end, pgn::Black)))
              ply.reset();
            else if (!filters_.material)
              ply = h.runs.back().ply;
          }
          if (!ply) return true;
          if (filters_.pattern) {
            const std::optional<Hope> until = hope_of(h);
            if (!until) return true;
            part.hope_until.push_back(*until);
          }
          part.kept.push_back(id);
          part.plies.push_back(*ply);
          return true;
        });
  };
  // A large chunk's histories on two threads, a half each: a broad spec's count decodes and
  // matches millions of them (q?r*b*n*p* q#r*b*n*p* either colour: 2.9 M at 5M games). A
  // thread costs some tens of microseconds, 1,024 histories about half a millisecond; the
  // corpus slice of tests/test_pgn_extract.cpp reaches chunks this large.
  Part parts[2];
  const std::span<const std::uint32_t> all(ids);
  if (all.size() >= 1024) {
    std::jthread other(confirm_part, std::ref(parts[1]), all.subspan(all.size() / 2));
    confirm_part(parts[0], all.first(all.size() / 2));
    other.join();
  } else {
    confirm_part(parts[0], all);
  }
  for (const Part& part : parts)
    if (!part.status.is_ok()) return part.status;
  Ids kept = std::move(parts[0].kept);
  kept.insert(kept.end(), parts[1].kept.begin(), parts[1].kept.end());
  plies = std::move(parts[0].plies);
  plies.insert(plies.end(), parts[1].plies.begin(), parts[1].plies.end());
  std::vector<Hope> hope_until = std::move(parts[0].hope_until);
  hope_until.insert(hope_until.end(), parts[1].hope_until.begin(), parts[1].hope_until.end());
  if (filters_.pattern) {
    plan_.replayed += kept.size();
    const auto to_move = filters_.to_move;
    // A pattern's hope at each position: the pawns it needs at home still there (they never
    // come back), and as many pawns as it names (their number only falls).
    // Found at the first position a pattern matches; given up once every pattern is hopeless:
    // the pieces it names are gone for good (the game's material history says from which ply),
    // or a pawn it needs has left home or fallen.
    // A pattern is tried only up to its own last ply of hope: the side of --pattern-either whose
    // pawns never stood where it needs them, or whose pieces are gone, is not tested again.
    const auto visit = [&](std::size_t game, const pgn::Position& pos, unsigned ply) {
      bool hope = false;
      for (std::size_t p = 0; p < needs_.size(); ++p) {
        if (std::int32_t(ply) > hope_until[game][p]) continue;
        const PatternNeeds& n = needs_[p];
        bool hopeless = false;
        for (pgn::Color c : {pgn::White, pgn::Black}) {
          const pgn::Bitboard pawns = pos.pieces(c, pgn::Pawn);
          hopeless |= (n.home_pawns[c] & ~pawns) || unsigned(pgn::popcount(pawns)) < n.pieces[c][0];
        }
        if (hopeless) continue;
        hope = true;
        if ((!to_move || pos.side_to_move() == *to_move) && n.pattern->matches(pos))
          return index::MainLineVisit::Found;
      }
      return hope ? index::MainLineVisit::Next : index::MainLineVisit::GiveUp;
    };
    // Two threads replay the candidates' main lines: the replay is most of a pattern search.
    std::vector<std::optional<unsigned>> found(kept.size());
    Status failed[2] = {Status::ok(), Status::ok()};
    // Each thread reads a half of the candidates, in id order.
    auto work = [&](unsigned part) {
      const std::size_t half = kept.size() / 2, from = part ? half : 0,
                        to = part ? kept.size() : half;
      failed[part] = store_->for_each_main_line(
          std::span(kept).subspan(from, to - from),
          [&](std::size_t i, const pgn::Position& pos, unsigned ply) {
            return visit(from + i, pos, ply);
          },
          [&](std::size_t i, const std::optional<index::PlyMove>& at) {
            if (at) found[from + i] = unsigned(at->ply);
          });
    };
    if (kept.size() > 64) {
      std::jthread other(work, 1);
      work(0);
      other.join();
    } else {
      work(0);
      work(1);
    }
    for (const Status& f : failed)
      if (!f.is_ok()) return f;
    std::size_t n = 0;
    for (std::size_t i = 0; i < kept.size(); ++i) {
      if (!found[i]) continue;
      kept[n] = kept[i];
      plies[n++] = *found[i];
    }
    kept.resize(n);
    plies.resize(n);
  }
  ids = std::move(kept);
  return Status::ok();
}

Status Search::take_candidates(std::size_t n, Ids& ids) {
  ids.clear();
  if (position_games_) {
    if (Status s = position_games_->next(n, ids); !s.is_ok()) return s;
    plan_.candidates = plan_.steps.front().games = position_games_->given();
  } else if (candidates_) {
    for (;;) {
      const std::size_t end = at_ + std::min(n - ids.size(), candidates_->size() - at_);
      ids.insert(ids.end(), candidates_->begin() + std::ptrdiff_t(at_),
                 candidates_->begin() + std::ptrdiff_t(end));
      at_ = end;
      if (ids.size() == n || next_epoch_ >= epochs_) break;
      if (Status s = read_epoch(); !s.is_ok()) return s;
    }
  } else {
    const std::size_t end = std::min<std::size_t>(store_->game_count(), at_ + n);
    for (; at_ < end; ++at_) ids.push_back(std::uint32_t(at_ + 1));
  }
  return Status::ok();
}

Status Search::read_epoch() {
  const std::uint32_t epoch = next_epoch_++;
  plan_.epochs_read = next_epoch_;
  std::optional<Ids> games;
  if (fixed_) {
    // The other indexes' games of this epoch: when there are none, its lists are not read.
    const auto [first, last] = index::Store::ids_of_epoch(epoch);
    games.emplace(std::lower_bound(fixed_->begin(), fixed_->end(), first),
                  std::upper_bound(fixed_->begin(), fixed_->end(), last));
  }
  for (std::size_t i = 0; i < by_epoch_.size() && !(games && games->empty()); ++i) {
    auto ids = by_epoch_[i](epoch);
    if (!ids) return ids.error();
    plan_.steps[by_epoch_steps_ + i].games += ids->size();
    games = games ? intersect(*games, *ids) : std::move(*ids);
  }
  candidates_ = games ? std::move(*games) : Ids{};
  at_ = 0;
  plan_.candidates += candidates_->size();
  return Status::ok();
}

Search::PatternNeeds Search::PatternNeeds::of(std::shared_ptr<const pgn::FenPattern> pattern) {
  PatternNeeds n{std::move(pattern), {}, {}, {}, 0, {}};
  for (pgn::Color c : {pgn::White, pgn::Black}) {
    for (int t = 0; t < 5; ++t)
      n.pieces[c][t] = n.pattern->min_pieces(c, pgn::PieceType(pgn::Pawn + t));
    n.rook_ranks[c] = n.pattern->required_ranks(c, pgn::Rook);
    n.pawns[c] = n.pattern->required(c, pgn::Pawn);
    n.home_pawns[c] = n.pawns[c] & pgn::rank_bb(c == pgn::White ? 1 : 6);
  }
  n.any_pawns = n.pattern->required_pawns();
  return n;
}

bool Search::PatternNeeds::squares_reached(const pgn::MaterialHistory& history) const {
  const auto& reached = history.pawn_squares;
  return !(pawns[pgn::White] & ~reached[pgn::White]) &&
         !(pawns[pgn::Black] & ~reached[pgn::Black]) &&
         !(any_pawns & ~(reached[pgn::White] | reached[pgn::Black])) &&
         !(rook_ranks[pgn::White] & ~pgn::ranks_of(history.rook_squares[pgn::White])) &&
         !(rook_ranks[pgn::Black] & ~pgn::ranks_of(history.rook_squares[pgn::Black]));
}

bool Search::PatternNeeds::held_by(const pgn::MaterialBalance& balance, bool pawns) const {
  for (pgn::Color c : {pgn::White, pgn::Black})
    for (int t = pawns ? 0 : 1; t < 5; ++t)
      if (balance.count[c][t] < pieces[c][t]) return false;
  return true;
}

Status Search::sort(Order order) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;
  Ids ids;
  if (Status s = take_candidates(~std::size_t(0), ids); !s.is_ok()) return s;
  Status s = store_->for_each_facts(ids, [&](std::uint32_t id, const index::SearchFacts& facts) {
    if (!check_facts_ || passes(id, facts)) keyed.emplace_back(sort_key(order, facts), id);
  });
  if (!s.is_ok()) return s;
  plan_.examined += ids.size();
  // A search that confirms its games (material, pattern) counts them as passed once confirmed,
  // in next(); the sorted candidates are not examined twice.
  if (!confirm_) plan_.passed += keyed.size();
  std::sort(keyed.begin(), keyed.end());
  Ids sorted;
  sorted.reserve(keyed.size());
  for (const auto& [key, id] : keyed) sorted.push_back(id);
  candidates_ = std::move(sorted);
  at_ = 0;
  check_facts_ = false;  // the sorted candidates passed already
  return Status::ok();
}

std::expected<std::optional<std::uint32_t>, Status> Search::next() {
  while (ready_at_ == ready_.size()) {
    Ids chunk;
    if (Status s = take_candidates(chunk_, chunk); !s.is_ok()) return std::unexpected(s);
    if (chunk.empty()) return std::nullopt;
    chunk_ = std::min<std::size_t>(chunk_ * 2, 16384);
    ready_at_ = 0;
    ready_plies_.clear();
    if (!check_facts_ && !confirm_) {
      if (plan_.order.empty()) plan_.examined += chunk.size(), plan_.passed += chunk.size();
      ready_ = std::move(chunk);
      continue;
    }
    if (plan_.order.empty()) plan_.examined += chunk.size();  // sort() examined them
    ready_.clear();
    if (check_facts_) {
      // A winner's or a loser's colour needs the result and the game; the rest the facts alone.
      Status s =
          filters_.winner.empty() && filters_.loser.empty()
              ? store_->select_facts(chunk, facts_filter_, ready_)
              : store_->for_each_facts(chunk, [&](std::uint32_t id, const index::SearchFacts& f) {
                  if (passes(id, f)) ready_.push_back(id);
                });
      if (!s.is_ok()) return std::unexpected(s);
    } else {
      ready_ = std::move(chunk);
    }
    if (confirm_)
      if (Status s = confirm(ready_, ready_plies_); !s.is_ok()) return std::unexpected(s);
    plan_.passed += ready_.size();
  }
  last_ply_ = ready_plies_.empty() ? std::nullopt : std::optional(ready_plies_[ready_at_]);
  return ready_[ready_at_++];
}

std::expected<std::uint64_t, Status> Search::count() {
  std::uint64_t n = ready_.size() - ready_at_;
  ready_at_ = ready_.size();
  if (!check_facts_ && !confirm_ && position_games_) {
    for (Ids chunk;;) {
      if (Status s = take_candidates(1 << 16, chunk); !s.is_ok()) return std::unexpected(s);
      if (chunk.empty()) return n;
      n += chunk.size();
      plan_.examined += chunk.size(), plan_.passed += chunk.size();
    }
  }
  if (!check_facts_ && !confirm_) {
    const std::uint64_t total = candidates_ ? candidates_->size() : store_->game_count();
    if (plan_.order.empty()) {
      plan_.examined += total - std::min<std::uint64_t>(at_, total);
      plan_.passed += total - std::min<std::uint64_t>(at_, total);
    }
    n += total - std::min<std::uint64_t>(at_, total);
    at_ = std::size_t(total);
    return n;
  }
  for (;;) {
    auto id = next();
    if (!id) return std::unexpected(id.error());
    if (!*id) return n;
    ++n;
  }
}

std::expected<std::uint64_t, Status> count_games(const index::Store& store, const Filters& filters,
                                                 Plan& plan) {
  const auto slice = filters.position ? filters.statistics_slice() : std::nullopt;
  if (!slice) {
    auto search = Search::start(store, filters);
    if (!search) return std::unexpected(search.error());
    auto n = search->count();
    plan = search->plan();
    return n;
  }
  auto statistics = store.position_statistics(*filters.position, *slice);
  if (!statistics) return std::unexpected(statistics.error());
  std::uint64_t kept = 0;
  for (const index::MoveTally& t : statistics->moves) kept += t.games;
  const std::uint64_t others = statistics->other_games.size();
  std::uint64_t passing = others;
  plan = Plan{};
  if (!slice->everything()) {
    // The other generations' games checked on their facts, as a search checks them.
    std::vector<std::uint32_t> passed;
    if (index::Status s = store.select_facts(statistics->other_games, slice->filter(), passed);
        !s.is_ok())
      return std::unexpected(s);
    passing = passed.size();
    plan.checked = {"ratings and dates of the other generations' games"};
  }
  // One step: the two parts are added, not intersected.
  plan.steps = {{pgn::cat("position statistics", slice->everything() ? "" : ", sliced", " (", kept,
                          " games) and the other generations' runs (", others, " games)"),
                 kept + others}};
  plan.candidates = plan.examined = kept + others;
  plan.passed = kept + passing;
  return kept + passing;
}

}  // namespace pgndb::query
