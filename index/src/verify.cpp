// The database checked against its games (docs/storage.md names the families and layouts).
//
// Every stored game is decoded and replayed (game_facts.h), and what each family should hold is
// compared with what it holds, both ways:
// - games: ids 1..game count, each decodes, and encodes back to the same bytes;
// - summaries, facts, duplicates: read in id order beside the games (all are keyed by game id),
//   each summary and each game's facts compared field by field with the game; a duplicate mark must
//   name an earlier game with the same fingerprint, itself no duplicate, and a game whose
//   fingerprint names an earlier game must be marked;
// - positions (both halves), variation_positions, the postings of every metadata value (each id
//   of a list as the metadata key it stands for; the metadata family must be empty since schema
//   15), fingerprints: too large to hold
//   and ordered otherwise than the games (by position key, by value), so each is compared through
//   digests (entry_digest.h): one pass over the games and one over the family; only where the
//   digests of a group differ are the entries listed, in a second pass of both over that group
//   alone, and compared one by one;
// - statistics of popular positions (in the position families): each recounted from the stored
//   summaries of its generation's games at the position, after the games pass found every
//   summary equal to its game (when one is not, that is reported, and the recount skipped);
// - names: read beside the postings family (both in key order), each name must be that of some
//   list of games, and each name of a list must be there; the name index is rebuilt
//   from the names and their numbers and compared through digests, and the counts of names and
//   players with the names;
// - rejects: ids 1..reject count, each readable; sources: each readable; the default family
//   holds the schema version and the two counters only.
//
// Cost: one decode, replay and re-encoding per game (on `threads` threads; about the CPU time of
// the import's replay), one read of every family, and a second pass only over what differs.
// Memory: a chunk of games at a time, 1 MiB per digest (4 families, twice, plus 4 per
// thread), the ids of the games that do not decode, and in the second pass the entries of at
// most max_detailed_groups groups per family (a few hundred entries each on the corpus).
#include "pgndb/index/verify.h"
#include "pgn/game_result.h"

#include <rocksdb/db.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <queue>
#include <set>
#include <thread>
#include <unordered_map>

#include "bytes.h"
#include "column_families.h"
#include "entry_digest.h"
#include "fact_group.h"
#include "game_facts.h"
#include "material_record.h"
#include "metadata_keys.h"
#include "name_index.h"
#include "pgn/text.h"
#include "pgndb/index/game_summary.h"
#include "position_generations.h"
#include "position_runs.h"
#include "position_stats.h"
#include "store_access.h"
#include "value_postings.h"

namespace pgndb::index {

namespace {

// The families compared through digests.
enum Digested { PositionEntries, VariationEntries, MetadataEntries, FingerprintEntries, Kinds };
constexpr std::string_view kind_family[Kinds] = {family_name(Positions),
                                                 family_name(VariationPositions),
                                                 family_name(Metadata), family_name(Fingerprints)};
// The second pass lists the entries of at most this many differing groups per family.
constexpr std::size_t max_detailed_groups = 1024;
constexpr std::size_t games_per_chunk = 2048;

std::string hex(std::uint64_t v, int digits) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return text;
}

std::string hex_bytes(std::string_view bytes) {
  std::string out = "0x";
  for (char c : bytes) out += hex(std::uint8_t(c), 2).substr(2);
  return bytes.empty() ? "(empty)" : out;
}

// A tag value or name in quotes, control characters escaped: one inconsistency, one line.
std::string quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (std::uint8_t(c) < 0x20 || c == '\'' || c == '\\')
      out += "\\" + hex(std::uint8_t(c), 2).substr(1);
    else
      out += c;
  }
  return out + "'";
}

// A position entry as a digest sees it: the kept 40 bits of the key (5 bytes, big-endian), then
// the game id. Byte order is the index's order.
std::string position_entry(std::uint64_t key40, std::uint32_t game) {
  std::string entry;
  entry += char(key40 >> 32);
  entry += char(key40 >> 24);
  entry += char(key40 >> 16);
  entry += char(key40 >> 8);
  entry += char(key40);
  bytes::put_big_endian32(entry, game);
  return entry;
}

std::string fingerprint_key(std::uint64_t fingerprint) {
  return bytes::big_endian32(std::uint32_t(fingerprint >> 32)) +
         bytes::big_endian32(std::uint32_t(fingerprint));
}
std::uint64_t read_fingerprint(std::string_view key) {
  return std::uint64_t(bytes::read_big_endian32(key)) << 32 |
         bytes::read_big_endian32(key.substr(4));
}

// The game id that ends an entry of any digested family (the last 4 bytes).
std::uint32_t entry_game(std::string_view entry) {
  return entry.size() < 4 ? 0 : bytes::read_big_endian32(entry.substr(entry.size() - 4));
}

// A metadata key without its game id, as words: `player 'carlsen, magnus' as White`.
std::string describe_value(std::string_view value) {
  using namespace metadata;
  if (value.empty()) return "an empty key";
  const std::string_view rest = value.substr(1);
  switch (value[0]) {
    case Player:
      if (rest.size() >= 2 && rest[rest.size() - 2] == '\0' && std::uint8_t(rest.back()) <= 1)
        return "player " + quoted(rest.substr(0, rest.size() - 2)) +
               (rest.back() ? " as Black" : " as White");
      break;
    case Event:
    case Site:
      if (!rest.empty() && rest.back() == '\0')
        return (value[0] == Event ? "event " : "site ") + quoted(rest.substr(0, rest.size() - 1));
      break;
    case Date:
      if (rest.size() == 4) return "date " + date_text(value);
      break;
    case Eco:
      if (rest.size() == 3) return "ECO " + quoted(rest);
      break;
  }
  return "key " + hex_bytes(value);
}

// A name of the names family: the metadata key's dimension and name, without colour or id.
std::string describe_name(std::string_view name) {
  using namespace metadata;
  if (name.size() >= 2 && name.back() == '\0') {
    const std::string_view text = name.substr(1, name.size() - 2);
    if (name[0] == Player) return "player " + quoted(text);
    if (name[0] == Event) return "event " + quoted(text);
    if (name[0] == Site) return "site " + quoted(text);
  }
  return "key " + hex_bytes(name);
}

// The entries of `expected` that `stored` lacks, and those it has beyond them (both sorted
// here; repeated entries count as many times as they stand).
std::pair<std::vector<std::string>, std::vector<std::string>> differences(
    std::vector<std::string>& expected, std::vector<std::string>& stored) {
  std::sort(expected.begin(), expected.end());
  std::sort(stored.begin(), stored.end());
  std::vector<std::string> missing, extra;
  std::set_difference(expected.begin(), expected.end(), stored.begin(), stored.end(),
                      std::back_inserter(missing));
  std::set_difference(stored.begin(), stored.end(), expected.begin(), expected.end(),
                      std::back_inserter(extra));
  return {std::move(missing), std::move(extra)};
}

// An entry of the name index as verify compares them: a number's key and its name, or a
// fragment's key and a number of its list.
std::string describe_index_entry(std::string_view entry) {
  if (entry.size() > 5 && entry[0] == name_index::number_tag)
    return pgn::cat("name number ", bytes::read_big_endian32(entry.substr(1)), " (",
                    describe_name(entry.substr(5)), ")");
  const std::size_t fragment_key = 2 + name_index::fragment_length;
  if (entry.size() == fragment_key + 4 && entry[0] == name_index::fragment_tag)
    return pgn::cat("fragment ", quoted(entry.substr(2, name_index::fragment_length)),
                    " of name number ", bytes::read_big_endian32(entry.substr(fragment_key)));
  return "entry " + hex_bytes(entry);
}

// Where the entries of one kind go: a digest in the first pass; in the second, a list of those
// in the groups that differed.
struct Sink {
  std::vector<EntryDigest> digests;                    // first pass: one per kind
  const std::array<std::vector<bool>, Kinds>* wanted;  // second pass: groups to list
  std::array<std::vector<std::string>, Kinds> entries;

  explicit Sink(const std::array<std::vector<bool>, Kinds>* wanted_groups)
      : digests(wanted_groups ? 0 : Kinds), wanted(wanted_groups) {}
  void add(Digested kind, std::string_view entry) {
    if (!wanted)
      digests[kind].add(entry);
    else if (!(*wanted)[kind].empty() && (*wanted)[kind][EntryDigest::group_of(entry)])
      entries[kind].emplace_back(entry);
  }
  void merge(Sink& other) {
    for (int k = 0; k < Kinds; ++k) {
      if (!wanted) digests[k].merge(other.digests[k]);
      for (auto& e : other.entries[k]) entries[k].push_back(std::move(e));
      other.entries[k].clear();
    }
  }
};

Status read_error(const rocksdb::Status& s, std::string_view what) {
  return Status::error(s.IsCorruption() ? Status::Code::Corruption : Status::Code::IoError,
                       pgn::cat("reading ", what, ": ", s.ToString()));
}

class Verifier {
 public:
  Verifier(const Store& store, const VerifyOptions& options)
      : store_(store),
        db_(StoreAccess::db(store)),
        options_(options),
        threads_(options.threads ? options.threads
                                 : std::max(1u, std::thread::hardware_concurrency())),
        games_(store.game_count()) {}

  std::expected<VerifyReport, Status> run() {
    for (auto s : {check_default(), check_rejects(), check_sources(), check_name_index()})
      if (!s.is_ok()) return std::unexpected(s);
    // First pass: digests of what the games say and of what the families hold, side by side
    // (the families are read on a thread of their own while the games are replayed).
    Sink expected(nullptr), stored(nullptr);
    Status scanned;
    std::thread scanner([&] { scanned = scan_digested(stored, true); });
    Status replayed = games_pass(expected);
    scanner.join();
    for (const Status& s : {replayed, scanned})
      if (!s.is_ok()) return std::unexpected(s);
    if (report_.duplicates != duplicate_count_)
      report(family_name(Default),
             pgn::cat("meta:duplicate_count is ", duplicate_count_,
                      ", but the duplicates family marks ", report_.duplicates, " games"));
    if (Status s = check_statistics(); !s.is_ok()) return std::unexpected(s);
    // The entries of games that do not decode are not compared: the families are read again
    // without them (the games pass found which they are; usually none).
    skip_undecodable_ = true;
    if (!undecodable_.empty()) {
      quiet_ = true;
      Sink again(nullptr);
      if (auto s = scan_digested(again, false); !s.is_ok()) return std::unexpected(s);
      quiet_ = false;
      stored = std::move(again);
    }
    // Second pass, over the groups that differ only.
    std::array<std::vector<bool>, Kinds> wanted;
    bool any = false;
    for (int k = 0; k < Kinds; ++k) {
      auto groups = expected.digests[k].differing(stored.digests[k]);
      if (groups.empty()) continue;
      any = true;
      wanted[k].assign(EntryDigest::group_count, false);
      for (std::size_t i = 0; i < groups.size() && i < max_detailed_groups; ++i)
        wanted[k][groups[i]] = true;
      if (groups.size() > max_detailed_groups)
        report(kind_family[k], pgn::cat(groups.size() - max_detailed_groups,
                                        " more groups of entries differ from the games; the "
                                        "entries of the first ",
                                        max_detailed_groups, " are listed"));
    }
    if (any) {
      // The problems the first pass found are not repeated, nor its counts.
      quiet_ = true;
      const VerifyReport first_pass = report_;
      Sink expected_entries(&wanted), stored_entries(&wanted);
      if (auto s = games_pass(expected_entries); !s.is_ok()) return std::unexpected(s);
      if (auto s = scan_digested(stored_entries, false); !s.is_ok()) return std::unexpected(s);
      quiet_ = false;
      report_ = first_pass;
      for (int k = 0; k < Kinds; ++k)
        compare_entries(Digested(k), expected_entries.entries[k], stored_entries.entries[k]);
    }
    return std::move(report_);
  }

 private:
  void report(std::string_view family, std::string text) {
    if (family == family_name(Summaries)) summaries_sound_ = false;
    if (quiet_) return;
    std::lock_guard lock(report_mutex_);  // the games pass and the families' scan both report
    if (report_.listed.size() < options_.keep)
      report_.listed.push_back({std::string(family), std::move(text)});
    ++report_.inconsistencies;
  }
  rocksdb::ColumnFamilyHandle* family(std::string_view name) const {
    return StoreAccess::family(store_, name);
  }
  std::unique_ptr<rocksdb::Iterator> iterator(std::string_view name) const {
    rocksdb::ReadOptions read;
    read.fill_cache = false;  // every block is read once
    read.readahead_size = 1 << 20;
    return std::unique_ptr<rocksdb::Iterator>(db_.NewIterator(read, family(name)));
  }
  // The value of `key` in family `name`: nothing when absent.
  std::expected<std::optional<std::string>, Status> get(std::string_view name,
                                                        std::string_view key) const {
    std::string value;
    rocksdb::Status s = db_.Get(rocksdb::ReadOptions(), family(name), key, &value);
    if (s.IsNotFound()) return std::nullopt;
    if (!s.ok()) return std::unexpected(read_error(s, name));
    return value;
  }
  bool undecodable(std::uint32_t id) const {
    return skip_undecodable_ && undecodable_.contains(id);
  }

  // --- Small families ---

  Status check_default() {
    auto it = iterator(family_name(Default));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view key = it->key().ToStringView();
      if (key == "meta:schema_version" || key == "meta:game_count" || key == "meta:reject_count" ||
          key == "meta:player_count" || key == "meta:name_count" || key == "meta:duplicate_count") {
        if (it->value().size() != 4)
          report(family_name(Default), pgn::cat(key, ": ", it->value().size(), " bytes, not 4"));
        else if (key == "meta:player_count")
          player_count_ = bytes::read_big_endian32(it->value().ToStringView());
        else if (key == "meta:name_count")
          name_count_ = bytes::read_big_endian32(it->value().ToStringView());
        else if (key == "meta:duplicate_count")
          duplicate_count_ = bytes::read_big_endian32(it->value().ToStringView());
      } else if (key == "meta:position_generations" || key == "meta:variation_generations") {
        // Decoded when the store was opened (a damaged list makes the database unreadable).
      } else {
        report(family_name(Default), pgn::cat("unknown key ", quoted(key)));
      }
    }
    return it->status().ok() ? Status::ok() : read_error(it->status(), "the counters");
  }

  // The name index (name_index.h), rebuilt from the names family and the names' numbers, and
  // compared through digests of its entries (a number's key with its name; a fragment with
  // each number of its list), then entry by entry where a group of the digests differs (a
  // million names hold about twelve million fragments); the counts of names and players.
  Status check_name_index() {
    auto number_entry = [](std::uint32_t number, std::string_view name) {
      return name_index::number_key(number) + std::string(name);
    };
    auto fragment_entry = [](std::string_view key, std::uint32_t number) {
      return std::string(key) + bytes::big_endian32(number);
    };
    // Calls `each` with the entries the names family says there should be.
    std::uint64_t player_names = 0;
    auto rebuild = [&](bool first, auto&& each) -> Status {
      auto names = iterator(family_name(Names));
      for (names->SeekToFirst(); names->Valid(); names->Next()) {
        const std::string_view name = names->key().ToStringView();
        const std::string_view value = names->value().ToStringView();
        if (value.size() != 4) {
          if (first)
            report(family_name(Names),
                   pgn::cat(describe_name(name), ": ", value.size(), " bytes of number, not 4"));
          continue;
        }
        const std::uint32_t number = bytes::read_big_endian32(value);
        if (first) {
          player_names += name.starts_with(char(metadata::Player));
          if (number == 0 || number > name_count_)
            report(family_name(Names),
                   pgn::cat(describe_name(name), ": number ", number,
                            " is not in 1..meta:name_count (", name_count_, ")"));
        }
        each(number_entry(number, name));
        for (const std::string& key : name_index::fragment_keys(name))
          each(fragment_entry(key, number));
      }
      return names->status().ok() ? Status::ok() : read_error(names->status(), family_name(Names));
    };
    // Calls `each` with the entries the name index holds.
    auto scan = [&](bool first, auto&& each) -> Status {
      auto it = iterator(family_name(NameIndex));
      std::vector<std::uint32_t> numbers;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const std::string_view key = it->key().ToStringView();
        if (first) ++report_.name_index;
        if (auto number = name_index::number_of_key(key)) {
          each(number_entry(*number, it->value().ToStringView()));
          continue;
        }
        numbers.clear();
        if (key.size() != 2 + name_index::fragment_length || key[0] != name_index::fragment_tag ||
            !name_index::decode_numbers(it->value().ToStringView(), numbers)) {
          if (first)
            report(family_name(NameIndex),
                   pgn::cat("key ", hex_bytes(key),
                            ": not a number's or a fragment's, or its list damaged"));
          continue;
        }
        for (std::uint32_t number : numbers) each(fragment_entry(key, number));
      }
      return it->status().ok() ? Status::ok() : read_error(it->status(), "the name index");
    };
    EntryDigest expected, stored;
    if (Status s = rebuild(true, [&](const std::string& e) { expected.add(e); }); !s.is_ok())
      return s;
    if (Status s = scan(true, [&](const std::string& e) { stored.add(e); }); !s.is_ok()) return s;
    if (player_names != player_count_)
      report(family_name(Default),
             pgn::cat("meta:player_count is ", player_count_, ", but the names family holds ",
                      player_names, " players"));
    const std::vector<std::uint32_t> groups = expected.differing(stored);
    if (groups.empty()) return Status::ok();
    std::vector<bool> wanted(EntryDigest::group_count, false);
    for (std::size_t i = 0; i < groups.size() && i < max_detailed_groups; ++i)
      wanted[groups[i]] = true;
    std::vector<std::string> want, have;
    auto keep = [&](std::vector<std::string>& into) {
      return [&wanted, &into](const std::string& e) {
        if (wanted[EntryDigest::group_of(e)]) into.push_back(e);
      };
    };
    if (Status s = rebuild(false, keep(want)); !s.is_ok()) return s;
    if (Status s = scan(false, keep(have)); !s.is_ok()) return s;
    const auto [missing, extra] = differences(want, have);
    for (const std::string& e : missing)
      report(family_name(NameIndex),
             describe_index_entry(e) + ": missing (the names family has the name)");
    for (const std::string& e : extra)
      report(family_name(NameIndex), describe_index_entry(e) + ": the names family says otherwise");
    return Status::ok();
  }

  // Ids 1..reject count, each readable.
  Status check_rejects() {
    auto it = iterator(family_name(Rejects));
    std::uint32_t next = 1;
    const std::uint32_t count = store_.reject_count();
    auto missing_until = [&](std::uint64_t end) {
      for (; next < end && next <= count; ++next)
        report(family_name(Rejects),
               pgn::cat("reject ", next, " missing (the reject count is ", count, ")"));
    };
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view key = it->key().ToStringView();
      if (key.size() != 4) {
        report(family_name(Rejects), pgn::cat("key ", hex_bytes(key), ": not a reject id"));
        continue;
      }
      const std::uint32_t id = bytes::read_big_endian32(key);
      missing_until(id);
      if (id == 0 || id > count) {
        report(family_name(Rejects), pgn::cat("reject ", id, ": beyond the reject count ", count));
        continue;
      }
      next = id + 1;
      ++report_.rejects;
      if (auto r = store_.reject(id); !r)
        report(family_name(Rejects),
               pgn::cat("reject ", id, " cannot be read: ", r.error().message()));
    }
    missing_until(std::uint64_t(count) + 1);
    return it->status().ok() ? Status::ok() : read_error(it->status(), family_name(Rejects));
  }

  Status check_sources() {
    auto it = iterator(family_name(Sources));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view key = it->key().ToStringView();
      if (key.size() != 8) {
        report(family_name(Sources), pgn::cat("key ", hex_bytes(key), ": not a content hash"));
        continue;
      }
      ++report_.sources;
      auto source = store_.source(read_fingerprint(key));
      if (!source)
        report(family_name(Sources), pgn::cat("source ", hex(read_fingerprint(key), 16),
                                              " cannot be read: ", source.error().message()));
      else if (source->name.empty())
        report(family_name(Sources),
               pgn::cat("source ", hex(read_fingerprint(key), 16), " has no name"));
    }
    return it->status().ok() ? Status::ok() : read_error(it->status(), family_name(Sources));
  }

  // --- The games, with the summaries and duplicates beside them ---

  // Reads a family keyed by game id in key order, one entry at a time.
  class IdCursor {
   public:
    explicit IdCursor(std::unique_ptr<rocksdb::Iterator> it) : it_(std::move(it)) {
      it_->SeekToFirst();
    }
    // The next entry with a 4-byte key (others are handed to `bad_key`); false at the end.
    template <class BadKey>
    bool next(std::uint32_t& id, std::string& value, BadKey&& bad_key) {
      for (; it_->Valid(); it_->Next()) {
        const std::string_view key = it_->key().ToStringView();
        if (key.size() != 4) {
          bad_key(key);
          continue;
        }
        id = bytes::read_big_endian32(key);
        value.assign(it_->value().ToStringView());
        it_->Next();
        return true;
      }
      return false;
    }
    const rocksdb::Status status() const { return it_->status(); }

   private:
    std::unique_ptr<rocksdb::Iterator> it_;
  };

  // The summaries (or the material histories, grouped alike) one game at a time, from their
  // groups (docs/storage.md, "Summaries").
  class GroupedCursor {
   public:
    explicit GroupedCursor(Verifier& v, Family family = Summaries)
        : v_(v), family_(family), groups_(v.iterator(family_name(family))) {
      advance();
    }
    bool valid() const { return at_ < entries_.size(); }
    std::uint32_t id() const { return first_ + std::uint32_t(at_); }
    const std::string& bytes() const { return entries_[at_]; }
    void advance() {
      if (++at_ < entries_.size()) return;
      entries_.clear();
      at_ = 0;
      std::string value;
      while (entries_.empty() && groups_.next(first_, value, [&](std::string_view key) {
        v_.report(family_name(family_), pgn::cat("key ", hex_bytes(key), ": not a game id"));
      })) {
        bytes::Reader in(value);
        std::string entry;
        while (!in.empty()) {
          if (!in.string(entry)) {
            v_.report(family_name(family_), pgn::cat("the group of game ", first_, " is damaged"));
            entries_.clear();
            break;
          }
          entries_.push_back(entry);
        }
        const std::uint32_t group = summary_group;
        for (std::size_t i = 1; i < entries_.size(); ++i)
          if ((first_ + i) % group == 0) {
            v_.report(family_name(family_),
                      pgn::cat("the group of game ", first_, " runs past game ", first_ + i,
                               " (groups end before multiples of ", group, ")"));
            break;
          }
      }
    }
    rocksdb::Status status() const { return groups_.status(); }

   private:
    Verifier& v_;
    Family family_;
    IdCursor groups_;
    std::uint32_t first_ = 0;
    std::vector<std::string> entries_;
    std::size_t at_ = 0;
  };

  // The facts one game at a time, from their groups (fact_group.h).
  class FactsCursor {
   public:
    explicit FactsCursor(Verifier& v) : v_(v), groups_(v.iterator(family_name(Facts))) {
      advance();
    }
    bool valid() const { return at_ < group_.size(); }
    std::uint32_t id() const { return first_ + std::uint32_t(at_); }
    SearchFacts facts() const { return group_.at(at_); }
    void advance() {
      if (++at_ < group_.size()) return;
      group_ = {};
      at_ = 0;
      while (group_.size() == 0 && groups_.next(first_, value_, [&](std::string_view key) {
        v_.report(family_name(Facts), pgn::cat("key ", hex_bytes(key), ": not a game id"));
      })) {
        auto group = facts::GroupView::parse(value_);
        if (!group) {
          v_.report(family_name(Facts), pgn::cat("the group of game ", first_, " is damaged"));
          continue;
        }
        group_ = *group;
        if (const std::size_t capacity = facts::group_capacity(first_); group_.size() > capacity)
          v_.report(family_name(Facts),
                    pgn::cat("the group of game ", first_, " runs past game ", first_ + capacity,
                             " (groups end before multiples of ", facts::group_size, ")"));
      }
    }
    rocksdb::Status status() const { return groups_.status(); }

   private:
    Verifier& v_;
    IdCursor groups_;
    std::uint32_t first_ = 0;
    std::string value_;  // the group's bytes, which group_ reads
    facts::GroupView group_;
    std::size_t at_ = 0;
  };

  // A game's stored material history against the one counted from its replay.
  void compare_material(std::uint32_t id, std::string_view stored,
                        const pgn::MaterialHistory& expected) {
    const auto history = material::decode_history(stored);
    if (!history) {
      report(family_name(Materials), pgn::cat("game ", id, ": the material cannot be decoded"));
      return;
    }
    bool same = history->plies == expected.plies && history->runs.size() == expected.runs.size();
    for (std::size_t i = 0; same && i < expected.runs.size(); ++i)
      same = history->runs[i].ply == expected.runs[i].ply &&
             history->runs[i].balance == expected.runs[i].balance;
    if (!same)
      report(family_name(Materials),
             pgn::cat("game ", id, ": the material differs from the game's moves"));
    // A history of this schema holds them all (the upgrade to 23 writes them).
    else if (history->pawn_squares != expected.pawn_squares)
      report(family_name(Materials),
             pgn::cat("game ", id, ": the squares of its pawns differ from the game's moves"));
    // The rooks' ranks, not their squares, are kept (material_record.h).
    else if (pgn::ranks_of(history->rook_squares[pgn::White]) !=
                 pgn::ranks_of(expected.rook_squares[pgn::White]) ||
             pgn::ranks_of(history->rook_squares[pgn::Black]) !=
                 pgn::ranks_of(expected.rook_squares[pgn::Black]))
      report(family_name(Materials),
             pgn::cat("game ", id, ": the ranks of its rooks differ from the game's moves"));
  }

  // The fields summaries and facts both hold, compared with the game's; `family` and `what`
  // name the stored side (the summaries family, "the summary").
  void compare_facts(std::string_view family, std::string_view what, std::uint32_t id,
                     const SearchFacts& s, const SearchFacts& game) {
    auto field = [&](std::string_view name, auto in_index, auto in_game) {
      if (in_index != in_game)
        report(family, pgn::cat("game ", id, ": ", name, " ", in_index, " in ", what,
                                ", the game says ", in_game));
    };
    field("result", unsigned(s.result), unsigned(game.result));
    field("year", s.year, game.year);
    field("month", unsigned(s.month), unsigned(game.month));
    field("day", unsigned(s.day), unsigned(game.day));
    field("White's Elo", s.white_elo, game.white_elo);
    field("Black's Elo", s.black_elo, game.black_elo);
    field("plies", s.plies, game.plies);
    field("annotated", s.annotated, game.annotated);
    field("speed", pgn::to_text(s.speed), pgn::to_text(game.speed));
    field("ending", pgn::to_text(s.ending), pgn::to_text(game.ending));
    field("repetition", s.repetition, game.repetition);
    field("fifty moves", s.fifty_moves, game.fifty_moves);
    field("opening", s.opening_id, game.opening_id);
  }

  void compare_summary(std::uint32_t id, const std::string& stored, const GameSummary& game) {
    auto decoded = decode_summary(stored);
    if (!decoded) {
      report(family_name(Summaries),
             pgn::cat("game ", id, ": summary damaged (", hex_bytes(stored), ")"));
      return;
    }
    const GameSummary& s = *decoded;
    // Written before schema 20 (its ending None) or 21 (its opening 0), which the upgrade
    // rewrites: bit 7 of the first byte, and of the ending's byte.
    if (stored.size() < 12 || !(std::uint8_t(stored[0]) & 0x80) ||
        !(std::uint8_t(stored[11]) & 0x80))
      report(family_name(Summaries),
             pgn::cat("game ", id, ": summary without its ending or opening (", hex_bytes(stored),
                      ")"));
    compare_facts(family_name(Summaries), "the summary", id, s.facts(), game.facts());
    if (s.standard_start != game.standard_start)
      report(family_name(Summaries),
             pgn::cat("game ", id, ": standard start ", s.standard_start,
                      " in the summary, the game says ", game.standard_start));
    const std::string_view codes(reinterpret_cast<const char*>(s.opening.data()), s.opening_length),
        game_codes(reinterpret_cast<const char*>(game.opening.data()), game.opening_length);
    if (codes != game_codes)
      report(family_name(Summaries),
             pgn::cat("game ", id, ": opening codes ", hex_bytes(codes),
                      ", the game's first moves are ", hex_bytes(game_codes)));
  }

  // The duplicate mark and fingerprint of one game. `marked` is the game it is marked a
  // duplicate of (0: none).
  Status check_duplicate(const GameFacts& facts, std::uint32_t marked, Sink& sink) {
    const std::uint32_t id = facts.id;
    const std::string fp = fingerprint_key(facts.fingerprint);
    auto value = get(family_name(Fingerprints), fp);
    if (!value) return value.error();
    std::uint32_t first = 0;  // the game the fingerprint names
    if (*value && (*value)->size() == 4) first = bytes::read_big_endian32(**value);
    const std::string fp_text = hex(facts.fingerprint, 16);
    if (marked) {
      if (marked >= id) {
        report(family_name(Duplicates), pgn::cat("game ", id, " is marked a duplicate of game ",
                                                 marked, ", not an earlier game"));
      } else if (first != marked) {
        report(
            family_name(Duplicates),
            pgn::cat("game ", id, " is marked a duplicate of game ", marked,
                     first ? pgn::cat(", but its fingerprint ", fp_text, " is game ", first, "'s")
                           : pgn::cat(", but its fingerprint ", fp_text, " names no game")));
      } else {
        auto original = get(family_name(Duplicates), bytes::big_endian32(marked));
        if (!original) return original.error();
        if (*original)
          report(family_name(Duplicates), pgn::cat("game ", id, " is marked a duplicate of game ",
                                                   marked, ", itself marked a duplicate"));
      }
      return Status::ok();
    }
    if (first && first < id) {
      report(family_name(Duplicates),
             pgn::cat("game ", id, " has the fingerprint ", fp_text, " of the earlier game ", first,
                      " but is not marked a duplicate"));
      return Status::ok();
    }
    // An original: the fingerprints family must name it (compared through the digest).
    sink.add(FingerprintEntries, fp + bytes::big_endian32(id));
    return Status::ok();
  }

  // One pass over the games in id order: the games' own checks, summaries and duplicates (first
  // pass), and the entries the digested families should hold, into `sink`.
  Status games_pass(Sink& sink) {
    auto it = iterator(family_name(Games));
    GroupedCursor summaries(*this);
    FactsCursor stored_facts(*this);
    IdCursor duplicates(iterator(family_name(Duplicates)));
    GroupedCursor materials(*this, Materials);
    std::uint32_t dup_id = 0;
    std::string dup_value;
    bool dup_valid = false;
    auto next_duplicate = [&] {
      dup_valid = duplicates.next(dup_id, dup_value, [&](std::string_view key) {
        report(family_name(Duplicates), pgn::cat("key ", hex_bytes(key), ": not a game id"));
      });
    };
    next_duplicate();

    // One worker sink per thread: the digests are sums, added up at the end.
    std::vector<std::unique_ptr<Sink>> sinks;
    for (unsigned t = 0; t < threads_; ++t) sinks.push_back(std::make_unique<Sink>(sink.wanted));
    // Games in id order: id and stored bytes, nothing for a game missing from the family.
    std::vector<std::pair<std::uint32_t, std::optional<std::string>>> chunk;
    std::vector<GameFacts> facts;

    auto process = [&]() -> Status {
      facts.assign(chunk.size(), GameFacts());
      std::vector<std::thread> workers;
      for (unsigned t = 0; t < threads_; ++t)
        workers.emplace_back([&, t] {
          Sink& out = *sinks[t];
          for (std::size_t i = t; i < chunk.size(); i += threads_) {
            if (!chunk[i].second) continue;
            facts[i] = game_facts(chunk[i].first, *chunk[i].second);
            const GameFacts& f = facts[i];
            for (std::uint64_t key : f.positions)
              out.add(PositionEntries, position_entry(key, f.id));
            for (std::uint64_t key : f.variation_positions)
              out.add(VariationEntries, position_entry(key, f.id));
            for (const std::string& key : f.metadata) out.add(MetadataEntries, key);
          }
        });
      for (auto& w : workers) w.join();
      for (std::size_t i = 0; i < chunk.size(); ++i) {
        const std::uint32_t id = chunk[i].first;
        const bool present = chunk[i].second.has_value();
        const GameFacts& f = facts[i];
        const bool decoded = present && f.error.empty();
        if (present) {
          ++report_.games;
          if (!decoded) {
            ++report_.undecodable;
            undecodable_.insert(id);
            report(family_name(Games), pgn::cat("game ", id, " cannot be decoded: ", f.error));
          } else if (!f.canonical) {
            report(family_name(Games),
                   pgn::cat("game ", id, ": encoding the decoded game again gives other bytes"));
          }
        }
        // Its summary.
        for (; summaries.valid() && summaries.id() < id; summaries.advance())
          report(family_name(Summaries), pgn::cat("a second summary of game ", summaries.id()));
        if (summaries.valid() && summaries.id() == id) {
          ++report_.summaries;
          if (decoded) compare_summary(id, summaries.bytes(), f.summary);
          summaries.advance();
        } else if (present) {
          report(family_name(Summaries), pgn::cat("no summary of game ", id));
        }
        // Its facts.
        for (; stored_facts.valid() && stored_facts.id() < id; stored_facts.advance())
          report(family_name(Facts), pgn::cat("second facts of game ", stored_facts.id()));
        if (stored_facts.valid() && stored_facts.id() == id) {
          ++report_.facts;
          if (decoded)
            compare_facts(family_name(Facts), "the facts", id, stored_facts.facts(),
                          f.summary.facts());
          stored_facts.advance();
        } else if (present) {
          report(family_name(Facts), pgn::cat("no facts of game ", id));
        }
        // Its material.
        for (; materials.valid() && materials.id() < id; materials.advance())
          report(family_name(Materials),
                 pgn::cat("a material history of game ", materials.id(), ", which has none"));
        if (materials.valid() && materials.id() == id) {
          ++report_.materials;
          if (decoded) compare_material(id, materials.bytes(), f.material);
          materials.advance();
        } else if (present) {
          report(family_name(Materials), pgn::cat("no material of game ", id));
        }
        // Its duplicate mark.
        std::uint32_t marked = 0;
        for (; dup_valid && dup_id < id; next_duplicate())
          report(family_name(Duplicates), pgn::cat("key ", dup_id, ": no such game"));
        if (dup_valid && dup_id == id) {
          ++report_.duplicates;
          if (dup_value.size() == 4)
            marked = bytes::read_big_endian32(dup_value);
          else
            report(family_name(Duplicates),
                   pgn::cat("game ", id, ": value ", hex_bytes(dup_value), " is not a game id"));
          next_duplicate();
        }
        if (decoded)
          if (auto s = check_duplicate(f, marked, sink); !s.is_ok()) return s;
      }
      chunk.clear();
      return Status::ok();
    };

    std::uint32_t next = 1;  // the id expected next
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view key = it->key().ToStringView();
      if (key.size() != 4) {
        report(family_name(Games), pgn::cat("key ", hex_bytes(key), ": not a game id"));
        continue;
      }
      const std::uint32_t id = bytes::read_big_endian32(key);
      if (id == 0 || id > games_) {
        report(family_name(Games), pgn::cat("game ", id, ": beyond the game count ", games_));
        continue;
      }
      for (; next < id; ++next) {
        report(family_name(Games),
               pgn::cat("game ", next, " missing (the game count is ", games_, ")"));
        chunk.emplace_back(next, std::nullopt);
      }
      chunk.emplace_back(id, std::string(it->value().ToStringView()));
      next = id + 1;
      if (chunk.size() >= games_per_chunk)
        if (auto s = process(); !s.is_ok()) return s;
    }
    if (!it->status().ok()) return read_error(it->status(), family_name(Games));
    for (; next <= games_; ++next) {
      report(family_name(Games),
             pgn::cat("game ", next, " missing (the game count is ", games_, ")"));
      chunk.emplace_back(next, std::nullopt);
    }
    if (auto s = process(); !s.is_ok()) return s;
    for (; summaries.valid(); summaries.advance())
      report(family_name(Summaries),
             pgn::cat("summary of game ", summaries.id(), ": beyond the game count ", games_));
    for (; materials.valid(); materials.advance())
      report(family_name(Materials), pgn::cat("material history of game ", materials.id(),
                                              ": beyond the game count ", games_));
    for (; stored_facts.valid(); stored_facts.advance())
      report(family_name(Facts),
             pgn::cat("facts of game ", stored_facts.id(), ": beyond the game count ", games_));
    while (dup_valid) {  // next_duplicate() moves dup_valid
      report(family_name(Duplicates),
             pgn::cat("game ", dup_id, ": beyond the game count ", games_));
      next_duplicate();
    }
    if (!summaries.status().ok()) return read_error(summaries.status(), family_name(Summaries));
    if (!stored_facts.status().ok()) return read_error(stored_facts.status(), family_name(Facts));
    if (!duplicates.status().ok()) return read_error(duplicates.status(), family_name(Duplicates));
    for (auto& s : sinks) sink.merge(*s);
    return Status::ok();
  }

  // --- The families compared through digests ---

  // Reads the families compared through digests into `sink`; `first` counts their entries and
  // checks the names family beside the metadata.
  Status scan_digested(Sink& sink, bool first) {
    for (std::string_view name :
         {family_name(Positions), family_name(PositionsUpper), family_name(VariationPositions)})
      if (auto s = scan_positions(name, sink, first); !s.is_ok()) return s;
    if (auto s = scan_metadata(sink, first); !s.is_ok()) return s;
    if (auto s = scan_postings(sink, first); !s.is_ok()) return s;
    auto it = iterator(family_name(Fingerprints));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view key = it->key().ToStringView(), value = it->value().ToStringView();
      if (key.size() != 8 || value.size() != 4) {
        report(family_name(Fingerprints),
               pgn::cat("key ", hex_bytes(key), ", value ", hex_bytes(value),
                        ": not a fingerprint and a game id"));
        continue;
      }
      if (first) ++report_.fingerprints;
      if (!undecodable(bytes::read_big_endian32(value)))
        sink.add(FingerprintEntries, std::string(key) + std::string(value));
    }
    return it->status().ok() ? Status::ok() : read_error(it->status(), family_name(Fingerprints));
  }

  Status scan_positions(std::string_view name, Sink& sink, bool first) {
    const bool variations = name == family_name(VariationPositions);
    const Digested kind = variations ? VariationEntries : PositionEntries;
    const positions::Generations listed = StoreAccess::generations(store_, variations);
    auto it = iterator(name);
    std::vector<positions::Entry> run;
    std::uint64_t& entries = variations ? variation_entries_read_ : position_entries_read_;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view key = it->key().ToStringView();
      if (!variations && positions::is_statistics_key(key)) {
        // Checked once the games pass has checked the summaries (check_statistics).
        if (first) statistics_keys_.emplace_back(std::string(name), std::string(key));
        continue;
      }
      const auto parsed = positions::parse_generation_key(key);
      if (!parsed) {
        report(name, pgn::cat("key ", hex_bytes(key), ": not a generation and a bucket"));
        continue;
      }
      // Runs of a generation no list names are what a merge stopped by a crash left before it
      // deleted them: never read, and deleted by the next import.
      if (!listed.lists(parsed->generation)) continue;
      const std::uint32_t bucket = parsed->bucket;
      const std::string where =
          pgn::cat("generation ", parsed->generation, ", bucket ", hex(bucket, 5));
      if (!variations && (bucket < positions::bucket_count / 2) != (name == family_name(Positions)))
        report(name, pgn::cat(where, ": belongs in the other half of the index"));
      run.clear();
      if (!positions::decode_run(it->value().ToStringView(), run)) {
        report(name, pgn::cat(where, ": run damaged"));
        continue;
      }
      if (first) entries += run.size();
      for (const positions::Entry& e : run) {
        if (first) ++(variations ? report_.variation_positions : report_.positions);
        if (!undecodable(e.game))
          sink.add(kind, position_entry(positions::key40(bucket, e.suffix), e.game));
      }
    }
    if (!it->status().ok()) return read_error(it->status(), name);
    if (first && name != family_name(Positions)) {
      // After both halves: the list counts the entries of its generations.
      if (entries != listed.entries())
        report(variations ? family_name(VariationPositions) : family_name(Positions),
               pgn::cat("the list of generations counts ", listed.entries(),
                        " entries, their runs hold ", entries));
    }
    return Status::ok();
  }

  // The statistics keys the first scan met (in key order: a family's generations one after
  // the other), each recounted from the stored summaries of its generation's games at the
  // position (position_stats.h). The keys of a generation are recounted together, a million
  // requests at a time: each game is walked once for all its positions, as a merge does.
  Status check_statistics() {
    // Recounted from the stored summaries, which the games pass compared with the games: when
    // it found any of them wrong, that is reported, and a recount would only repeat it.
    const bool recount = summaries_sound_;
    const positions::Generations listed = StoreAccess::generations(store_, false);
    struct Kept {
      std::string_view family;
      std::string key;
      positions::StatisticsKey parsed;
    };
    std::vector<Kept> pending;  // whose games the collector was asked for
    positions::StatisticsCollector collector;
    std::vector<std::uint32_t> ids;  // the games asked for
    auto check_pending = [&]() -> Status {
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      std::vector<GameSummary> summaries;
      summaries.reserve(ids.size());
      if (Status s = store_.for_each_summary(
              ids, [&](std::uint32_t, const GameSummary& g) { summaries.push_back(g); });
          !s.is_ok())
        return s;
      std::map<std::uint64_t, positions::Statistics> counted;
      if (Status s = collector.resolve(
              [&](std::uint32_t id) -> std::expected<GameSummary, Status> {
                return summaries[std::size_t(std::lower_bound(ids.begin(), ids.end(), id) -
                                             ids.begin())];
              },
              counted);
          !s.is_ok())
        return s;
      std::string value;
      for (const Kept& k : pending) {
        rocksdb::Status got =
            StoreAccess::db(store_).Get(rocksdb::ReadOptions(), family(k.family), k.key, &value);
        if (!got.ok()) return read_error(got, k.family);
        const std::string where = pgn::cat("generation ", k.parsed.generation, ", statistics of ",
                                           hex(k.parsed.key40, 10));
        positions::Statistics stored;
        if (!positions::decode_statistics(value, k.parsed.key40, stored)) {
          report(k.family, pgn::cat(where, ": damaged"));
          continue;
        }
        if (!recount) continue;
        positions::Statistics& expected = counted[k.parsed.key40];
        positions::as_written(expected, positions::batch_statistics_threshold);
        // A batch's generation slices from batch_statistics_threshold games, a merged one from
        // its cells_threshold, and one of schema 13 nothing: which it is costs filtered trees
        // time at most, and is no inconsistency. Slices it keeps must be the recount's.
        // Likewise a generation of schema 17 or before keeps no best-rated games.
        for (std::size_t i = 0; i < expected.keys.size() && i < stored.keys.size(); ++i) {
          if (stored.keys[i].key != expected.keys[i].key) continue;
          if (!stored.keys[i].sliced) {
            expected.keys[i].sliced = false;
            expected.keys[i].cells.clear();
          }
          if (!stored.keys[i].ranked) {
            expected.keys[i].ranked = false;
            expected.keys[i].top.clear();
          }
        }
        if (stored != expected)
          report(k.family,
                 pgn::cat(where, ": count ", stored.games(), " games (", stored.unread.size(),
                          " unread), the generation's games at ", "the position give ",
                          expected.games(), " (", expected.unread.size(),
                          " unread), or other tallies or slices"));
      }
      pending.clear();
      ids.clear();
      return Status::ok();
    };
    std::string run_bytes;
    std::vector<positions::Entry> run;
    for (const auto& [name, key] : statistics_keys_) {
      const auto parsed = positions::parse_statistics_key(key);
      if (!parsed) {
        report(name, pgn::cat("key ", hex_bytes(key), ": not a generation's statistics"));
        continue;
      }
      if (!listed.lists(parsed->generation)) continue;  // garbage of a merge, as runs
      const std::uint32_t bucket = positions::bucket_of40(parsed->key40);
      if ((bucket < positions::bucket_count / 2) != (name == family_name(Positions)))
        report(name, pgn::cat("generation ", parsed->generation, ", statistics of ",
                              hex(parsed->key40, 10), ": belongs in the other half of the index"));
      ++report_.position_statistics;
      // Another generation (or family): its positions are counted apart.
      if (!pending.empty() &&
          (pending.back().family != name || pending.back().parsed.generation != parsed->generation))
        if (Status s = check_pending(); !s.is_ok()) return s;
      // The generation's games at the position, from its run of the bucket.
      rocksdb::Status got = StoreAccess::db(store_).Get(
          rocksdb::ReadOptions(), family(name),
          positions::generation_key(parsed->generation, bucket), &run_bytes);
      if (!got.ok() && !got.IsNotFound()) return read_error(got, name);
      run.clear();
      if (got.ok() && !positions::decode_run(run_bytes, run)) run.clear();  // reported
      const std::uint32_t suffix = positions::suffix_of40(parsed->key40);
      if (recount)
        for (const positions::Entry& e : run)
          if (e.suffix == suffix && !undecodable(e.game)) {
            collector.request(e.game, parsed->key40);
            ids.push_back(e.game);
          }
      pending.push_back({name, key, *parsed});
      if (collector.requests() >= (std::size_t(1) << 20))
        if (Status s = check_pending(); !s.is_ok()) return s;
    }
    return check_pending();
  }

  // The metadata family: empty since schema 15 (every value's games are lists of the postings
  // family). A key found there is reported; one of an unknown dimension is compared as the key of
  // its game, and so reported as extra.
  Status scan_metadata(Sink& sink, bool first) {
    auto it = iterator(family_name(Metadata));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view key = it->key().ToStringView();
      if (key.size() < 6) {
        report(family_name(Metadata),
               pgn::cat("key ", hex_bytes(key), ": too short for a value and an id"));
        continue;
      }
      // Its game is in a list of the postings family, where searches look (left by an upgrade
      // stopped part-way, or written by another program).
      if (postings::holds(key[0])) {
        if (first)
          report(family_name(Metadata),
                 pgn::cat(describe_value(key.substr(0, key.size() - 4)), ", game ", entry_game(key),
                          ": belongs in the postings family"));
        continue;
      }
      if (first) ++report_.metadata;
      if (!undecodable(entry_game(key))) sink.add(MetadataEntries, key);
    }
    return it->status().ok() ? Status::ok() : read_error(it->status(), family_name(Metadata));
  }

  // The lists of each value's games (value_postings.h), each id as the metadata key the game
  // should have (dimension, value, id): the games give those. Beside them the names family (both
  // in key order): each name of a list must be there, and each name there that of some list.
  // The lists are keyed by epoch first (value_postings.h): one iterator per epoch, merged, gives
  // them by value, as the names are.
  Status scan_postings(Sink& sink, bool first) {
    const std::uint32_t epochs = postings::epochs_of(games_);
    struct Cursor {
      std::unique_ptr<rocksdb::Iterator> it;
      std::string prefix;
      bool valid() const { return it->Valid() && it->key().starts_with(prefix); }
      std::string_view rest() const {
        return it->key().ToStringView().substr(postings::epoch_key_size);
      }
    };
    std::vector<Cursor> cursors(epochs);
    auto later = [](const Cursor* a, const Cursor* b) { return a->rest() > b->rest(); };
    std::priority_queue<Cursor*, std::vector<Cursor*>, decltype(later)> next(later);
    for (std::uint32_t e = 0; e < epochs; ++e) {
      cursors[e] = {iterator(family_name(Postings)), postings::epoch_prefix(e)};
      cursors[e].it->Seek(cursors[e].prefix);
      if (cursors[e].valid()) next.push(&cursors[e]);
    }
    auto failed = [&]() -> std::optional<rocksdb::Status> {
      for (const Cursor& c : cursors)
        if (!c.it->status().ok()) return c.it->status();
      return std::nullopt;
    };
    {
      // Keys past every epoch of the database's games (an older layout's among them).
      auto stray = iterator(family_name(Postings));
      for (stray->Seek(postings::epoch_prefix(epochs)); stray->Valid(); stray->Next())
        if (first)
          report(family_name(Postings),
                 pgn::cat("key ", hex_bytes(stray->key().ToStringView()),
                          ": not a list's key (past the epochs of ", games_, " games)"));
      if (!stray->status().ok()) return read_error(stray->status(), family_name(Postings));
    }
    auto names = iterator(family_name(Names));
    names->SeekToFirst();
    std::string previous_name;
    bool have_previous = false;
    auto name_seen = [&](std::string_view name) {  // a name of the lists, ascending
      for (; names->Valid() && names->key().ToStringView() < name; names->Next()) {
        ++report_.names;
        report(family_name(Names),
               describe_name(names->key().ToStringView()) + ": no list of games has this name");
      }
      if (names->Valid() && names->key().ToStringView() == name) {
        ++report_.names;  // its value, the name's number, is checked with the name index
        names->Next();
      } else {
        report(family_name(Names), describe_name(name) + ": missing (lists of games have it)");
      }
    };
    std::vector<std::uint32_t> ids;
    std::string entry;
    std::string key_bytes;
    while (!next.empty()) {
      Cursor& at = *next.top();
      next.pop();
      // The cursor moves on before the list is read: its key and value are copied first.
      key_bytes = at.it->key().ToString();
      const std::string list = at.it->value().ToString();
      at.it->Next();
      if (at.valid()) next.push(&at);
      const std::string_view key = key_bytes;
      const auto parsed = postings::parse_key(key);
      ids.clear();
      if (!parsed) {
        if (first)
          report(family_name(Postings), pgn::cat("key ", hex_bytes(key), ": not a list's key"));
        continue;
      }
      if (first) {
        ++report_.postings;
        if (auto name = metadata::stored_name(parsed->value_key);
            name && (!have_previous || *name != previous_name)) {
          name_seen(*name);
          previous_name = *name;
          have_previous = true;
        }
      }
      const bool decoded = name_index::decode_numbers(list, ids);
      if (first && (!decoded || ids.empty()))
        report(family_name(Postings), describe_value(parsed->value_key) + ", block " +
                                          std::to_string(parsed->block) + ": not a list of games");
      if (!decoded) continue;
      for (const std::uint32_t id : ids) {
        if (postings::block_of(id) != parsed->block) {
          if (first)
            report(family_name(Postings), pgn::cat(describe_value(parsed->value_key), ", game ", id,
                                                   ": in the list of block ", parsed->block));
          continue;
        }
        entry.assign(parsed->value_key);
        bytes::put_big_endian32(entry, id);
        if (!undecodable(id)) sink.add(MetadataEntries, entry);
      }
    }
    if (const auto error = failed()) return read_error(*error, family_name(Postings));
    if (first)
      for (; names->Valid(); names->Next()) {
        ++report_.names;
        report(family_name(Names),
               describe_name(names->key().ToStringView()) + ": no list of games has this name");
      }
    return names->status().ok() ? Status::ok() : read_error(names->status(), family_name(Names));
  }

  // The entries of the groups whose digests differed, one by one.
  void compare_entries(Digested kind, std::vector<std::string>& expected,
                       std::vector<std::string>& stored) {
    const auto [missing, extra] = differences(expected, stored);
    for (const std::string& e : missing) report_entry(kind, e, true);
    for (const std::string& e : extra) report_entry(kind, e, false);
  }

  void report_entry(Digested kind, std::string_view entry, bool missing) {
    const std::uint32_t game = entry_game(entry);
    const std::string game_text = game == 0 || game > games_
                                      ? pgn::cat("game ", game, " (no such game)")
                                      : pgn::cat("game ", game);
    switch (kind) {
      case PositionEntries:
      case VariationEntries: {
        std::uint64_t key40 = 0;
        for (int i = 0; i < 5; ++i) key40 = key40 << 8 | std::uint8_t(entry[std::size_t(i)]);
        const std::uint32_t bucket = positions::bucket_of40(key40);
        const std::string_view family = kind == VariationEntries ? family_name(VariationPositions)
                                        : bucket < positions::bucket_count / 2
                                            ? family_name(Positions)
                                            : family_name(PositionsUpper);
        const std::string where = kind == VariationEntries ? " in a variation" : "";
        const std::string key_text =
            pgn::cat("position key ", hex(key40, 10), " (bucket ", hex(bucket, 5), ")");
        report(family,
               missing
                   ? pgn::cat(game_text, " reaches ", key_text, where, ": missing from the index")
                   : pgn::cat(key_text, " lists ", game_text, ", which does not reach it", where));
        break;
      }
      case MetadataEntries:
        report(family_name(Metadata),
               pgn::cat(describe_value(entry.substr(0, entry.size() - 4)), ", ", game_text,
                        missing ? ": missing from the index" : ": not a key of that game"));
        break;
      case FingerprintEntries:
        report(family_name(Fingerprints),
               pgn::cat("fingerprint ", hex(read_fingerprint(entry), 16), ", ", game_text,
                        missing ? ": missing (the game is no duplicate)"
                                : ": not that game's fingerprint, or the game is a duplicate"));
        break;
      case Kinds: break;
    }
  }

  const Store& store_;
  // No summary was found wrong (the statistics are recounted from the summaries only then).
  std::atomic<bool> summaries_sound_{true};
  // The statistics keys of the position families (family, key), met by the first scan.
  std::vector<std::pair<std::string, std::string>> statistics_keys_;
  rocksdb::DB& db_;
  const VerifyOptions options_;
  const unsigned threads_;
  const std::uint32_t games_;
  VerifyReport report_;
  // Entries of listed generations read by the first pass (both halves; variations).
  std::uint64_t position_entries_read_ = 0, variation_entries_read_ = 0;
  bool quiet_ = false;
  // Counters read by check_default.
  std::uint32_t player_count_ = 0, name_count_ = 0, duplicate_count_ = 0;
  // Games whose bytes do not decode: their index entries are not compared (the game is
  // reported once, as undecodable).
  std::set<std::uint32_t> undecodable_;
  // Whether undecodable_ is complete (the games pass is over): until then the families' scan,
  // which runs beside it, compares every entry.
  bool skip_undecodable_ = false;
  std::mutex report_mutex_;
};

}  // namespace

std::expected<VerifyReport, Status> verify_store(const Store& store, const VerifyOptions& options) {
  return Verifier(store, options).run();
}

}  // namespace pgndb::index
