#include "pgndb/query/search.h"

#include <algorithm>

#include "pgndb/index/metadata_keys.h"
#include "pgndb/query/game_facts.h"

namespace pgndb::query {

namespace {

using index::Status;
using Ids = std::vector<std::uint32_t>;

Ids intersect(const Ids& a, const Ids& b) {
  Ids out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// The games in which a value of a name dimension (`dimension`, then `suffix` after the name's
// 0: a colour byte for players, nothing otherwise) contains `key` (a search key).
std::expected<Ids, Status> games_named(const index::Store& store, char dimension,
                                       std::string_view key, std::string_view suffix) {
  auto values = store.metadata_values(std::string(1, dimension));
  if (!values) return std::unexpected(values.error());
  Ids ids;  // every matching value's games, sorted and made unique once at the end
  for (const std::string& value : *values) {
    // value = dimension, name, 0, [colour]
    const std::size_t end = value.find('\0', 1);
    if (end == std::string::npos) continue;
    if (!suffix.empty() && std::string_view(value).substr(end + 1) != suffix) continue;
    if (search_key(std::string_view(value).substr(1, end - 1)).find(key) == std::string::npos)
      continue;
    auto games = store.games_with_keys(value, index::metadata::past_value(value));
    if (!games) return std::unexpected(games.error());
    ids.insert(ids.end(), games->begin(), games->end());
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace

std::expected<Search, Status> Search::start(const index::Store& store, const Filters& filters) {
  Search search(store, filters);
  // Each index-backed filter gives its games; the smallest set is intersected first.
  std::vector<Ids> sets;
  if (filters.position) {
    auto ids = store.games_at(*filters.position);
    if (!ids) return std::unexpected(ids.error());
    sets.push_back(std::move(*ids));
  }
  using index::metadata::Dimension;
  const std::pair<const std::string*, std::pair<Dimension, std::string_view>> names[] = {
      {&filters.player, {index::metadata::Player, ""}},
      {&filters.white, {index::metadata::Player, std::string_view("\0", 1)}},
      {&filters.black, {index::metadata::Player, "\1"}},
      {&filters.event, {index::metadata::Event, ""}},
      {&filters.site, {index::metadata::Site, ""}},
  };
  for (const auto& [key, where] : names) {
    if (key->empty()) continue;
    auto ids = games_named(store, where.first, *key, where.second);
    if (!ids) return std::unexpected(ids.error());
    sets.push_back(std::move(*ids));
  }
  for (const auto* range : {&filters.result, &filters.eco, &filters.date, &filters.plies}) {
    if (!*range) continue;
    auto ids = store.games_with_keys((*range)->from, (*range)->to);
    if (!ids) return std::unexpected(ids.error());
    sets.push_back(std::move(*ids));
  }
  if (!sets.empty()) {
    std::sort(sets.begin(), sets.end(),
              [](const Ids& a, const Ids& b) { return a.size() < b.size(); });
    Ids result = std::move(sets.front());
    for (std::size_t i = 1; i < sets.size() && !result.empty(); ++i)
      result = intersect(result, sets[i]);
    search.candidates_ = std::move(result);
  }
  search.check_header_ = filters.min_elo || filters.max_elo;
  return search;
}

std::expected<bool, Status> Search::passes_header(std::uint32_t id) const {
  auto game = store_->game_header(id);
  if (!game) return std::unexpected(game.error());
  for (std::string_view tag : {"WhiteElo", "BlackElo"}) {
    const auto rating = number_tag(*game, tag);
    if (!rating) return false;  // a rating filter asks for known ratings
    if (filters_.min_elo && *rating < filters_.min_elo) return false;
    if (filters_.max_elo && *rating > filters_.max_elo) return false;
  }
  return true;
}

std::expected<std::optional<std::uint32_t>, Status> Search::next() {
  for (;;) {
    std::uint32_t id;
    if (candidates_) {
      if (at_ >= candidates_->size()) return std::nullopt;
      id = (*candidates_)[at_++];
    } else {
      if (at_ >= store_->game_count()) return std::nullopt;
      id = std::uint32_t(++at_);
    }
    if (!check_header_) return id;
    auto passes = passes_header(id);
    if (!passes) return std::unexpected(passes.error());
    if (*passes) return id;
  }
}

std::expected<std::uint64_t, Status> Search::count() {
  if (!check_header_) {
    const std::uint64_t total = candidates_ ? candidates_->size() : store_->game_count();
    const std::uint64_t left = total - std::min<std::uint64_t>(at_, total);
    at_ = std::size_t(total);
    return left;
  }
  std::uint64_t n = 0;
  for (;;) {
    auto id = next();
    if (!id) return std::unexpected(id.error());
    if (!*id) return n;
    ++n;
  }
}

}  // namespace pgndb::query
