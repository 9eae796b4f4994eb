#include "pgndb/index/store.h"

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <vector>

#include "bytes.h"
#include "pgn/game.h"
#include "pgn/text.h"
#include "pgndb/index/game_codec.h"
#include "position_runs.h"

namespace pgndb::index {

namespace {

// Keys of the default column family (docs/storage.md). Values are 4 bytes, big-endian.
constexpr std::string_view version_key = "meta:schema_version";
constexpr std::string_view game_count_key = "meta:game_count";
constexpr std::string_view reject_count_key = "meta:reject_count";

// Column families, in the order the handles are kept.
enum Family { Default, Games, Rejects, Positions, Sources, FamilyCount };
constexpr std::string_view family_names[FamilyCount] = {"default", "games", "rejects", "positions",
                                                        "sources"};

std::string hash_key(std::uint64_t hash) {
  return bytes::big_endian32(std::uint32_t(hash >> 32)) + bytes::big_endian32(std::uint32_t(hash));
}

Status from_rocksdb(const rocksdb::Status& s, std::string_view context) {
  using Code = Status::Code;
  Code code = s.IsNotFound()     ? Code::NotFound
              : s.IsCorruption() ? Code::Corruption
              : s.IsIOError()    ? Code::IoError
                                 : Code::InvalidArgument;
  return Status::error(code, pgn::cat(context, ": ", s.ToString()));
}

std::string encode_reject(const Reject& r) {
  std::string out;
  bytes::put_string(out, r.source);
  bytes::put_varint(out, r.location.line);
  bytes::put_varint(out, r.location.column);
  bytes::put_string(out, r.error);
  bytes::put_string(out, r.text);
  return out;
}

}  // namespace

struct Store::Impl {
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> families;
  std::uint32_t version = 0;
  std::uint32_t games = 0, rejects = 0;  // committed counts

  ~Impl() {
    for (auto* f : families)
      if (db) db->DestroyColumnFamilyHandle(f).PermitUncheckedError();
  }

  std::expected<std::uint32_t, Status> read_count(std::string_view key) {
    std::string value;
    rocksdb::Status s = db->Get(rocksdb::ReadOptions(), families[Default], key, &value);
    if (s.IsNotFound()) return 0;
    if (!s.ok()) return std::unexpected(from_rocksdb(s, pgn::cat("reading ", key)));
    return bytes::read_big_endian32(value);
  }
};

struct WriteBatch::Impl {
  Store::Impl* store;
  rocksdb::WriteBatch batch;
  std::uint32_t next_game, next_reject;  // ids the next additions get
  std::size_t games = 0;
  std::string scratch;
  // Position entries of this batch's games, by bucket number; one run per touched bucket.
  std::vector<std::vector<positions::Entry>> buckets =
      std::vector<std::vector<positions::Entry>>(positions::bucket_count);
  std::uint32_t first_game;  // the id of the batch's first game: names its runs
};

WriteBatch::WriteBatch(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WriteBatch::WriteBatch(WriteBatch&&) noexcept = default;
WriteBatch::~WriteBatch() = default;

std::uint32_t WriteBatch::add_game(const pgn::GameRecord& game) {
  const std::uint32_t id = impl_->next_game++;
  impl_->scratch.clear();
  encode_game(game, impl_->scratch);
  impl_->batch.Put(impl_->store->families[Games], bytes::big_endian32(id), impl_->scratch)
      .PermitUncheckedError();
  // Every position of the main line, the start and the end included.
  pgn::Position pos = game.start;
  auto index = [&](const pgn::Position& p) {
    const pgn::Key key = pgn::repetition_key(p);
    impl_->buckets[positions::bucket_of(key)].push_back({positions::suffix_of(key), id});
  };
  index(pos);
  for (const pgn::MoveNode& node : game.moves) {
    if (node.move.is_null())
      pos.play_null();
    else
      pos.play(node.move);
    index(pos);
  }
  ++impl_->games;
  return id;
}

void WriteBatch::add_reject(const Reject& reject) {
  const std::uint32_t id = impl_->next_reject++;
  impl_->batch.Put(impl_->store->families[Rejects], bytes::big_endian32(id), encode_reject(reject))
      .PermitUncheckedError();
}

std::size_t WriteBatch::games() const { return impl_->games; }

void WriteBatch::set_source_progress(std::uint64_t hash, const SourceProgress& progress) {
  std::string value;
  bytes::put_string(value, progress.name);
  bytes::put_varint(value, progress.games);
  value += char(progress.complete ? 1 : 0);
  impl_->batch.Put(impl_->store->families[Sources], hash_key(hash), value).PermitUncheckedError();
}

Status WriteBatch::commit() {
  Store::Impl& store = *impl_->store;
  const std::uint32_t games = impl_->next_game - 1, rejects = impl_->next_reject - 1;
  for (std::uint32_t bucket = 0; bucket < positions::bucket_count; ++bucket) {
    auto& entries = impl_->buckets[bucket];
    if (entries.empty()) continue;
    std::sort(entries.begin(), entries.end());
    entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
    impl_->scratch.clear();
    positions::encode_run(entries, impl_->scratch);
    impl_->batch
        .Put(store.families[Positions], positions::run_key(bucket, impl_->first_game),
             impl_->scratch)
        .PermitUncheckedError();
    entries.clear();
  }
  // The counters go in the same atomic batch as what they count.
  impl_->batch.Put(store.families[Default], game_count_key, bytes::big_endian32(games))
      .PermitUncheckedError();
  impl_->batch.Put(store.families[Default], reject_count_key, bytes::big_endian32(rejects))
      .PermitUncheckedError();
  rocksdb::WriteOptions options;
  options.sync = true;  // a committed batch survives a power loss
  rocksdb::Status s = store.db->Write(options, &impl_->batch);
  if (!s.ok()) return from_rocksdb(s, "writing games");
  store.games = games;
  store.rejects = rejects;
  impl_->first_game = impl_->next_game;  // the next commit's runs get keys of their own
  impl_->batch.Clear();
  impl_->games = 0;
  return Status::ok();
}

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

std::uint32_t Store::version() const { return impl_->version; }
std::uint32_t Store::game_count() const { return impl_->games; }
std::uint32_t Store::reject_count() const { return impl_->rejects; }

WriteBatch Store::begin_batch() {
  auto batch = std::make_unique<WriteBatch::Impl>();
  batch->store = impl_.get();
  batch->next_game = impl_->games + 1;
  batch->first_game = batch->next_game;
  batch->next_reject = impl_->rejects + 1;
  return WriteBatch(std::move(batch));
}

std::expected<pgn::GameRecord, Status> Store::game(std::uint32_t id) const {
  std::string value;
  rocksdb::Status s = impl_->db->Get(rocksdb::ReadOptions(), impl_->families[Games],
                                     bytes::big_endian32(id), &value);
  if (!s.ok()) return std::unexpected(from_rocksdb(s, pgn::cat("reading game ", id)));
  return decode_game(value);
}

std::expected<pgn::GameRecord, Status> Store::game_header(std::uint32_t id) const {
  std::string value;
  rocksdb::Status s = impl_->db->Get(rocksdb::ReadOptions(), impl_->families[Games],
                                     bytes::big_endian32(id), &value);
  if (!s.ok()) return std::unexpected(from_rocksdb(s, pgn::cat("reading game ", id)));
  return decode_game_header(value);
}

std::expected<StoreStats, Status> Store::stats() const {
  StoreStats stats;
  stats.games = impl_->games;
  stats.rejects = impl_->rejects;
  for (int f = 0; f < FamilyCount; ++f) {
    std::uint64_t bytes = 0;
    impl_->db->GetIntProperty(impl_->families[f], "rocksdb.total-sst-files-size", &bytes);
    stats.bytes_by_part.emplace_back(std::string(family_names[f]), bytes);
  }
  auto count = [&](Family family, auto&& each) -> Status {
    std::unique_ptr<rocksdb::Iterator> it(
        impl_->db->NewIterator(rocksdb::ReadOptions(), impl_->families[family]));
    for (it->SeekToFirst(); it->Valid(); it->Next())
      if (!each(it->value().ToStringView()))
        return Status::error(Status::Code::Corruption, "position index damaged");
    return it->status().ok() ? Status::ok() : from_rocksdb(it->status(), "reading");
  };
  if (auto s = count(Sources, [&](std::string_view) { return ++stats.sources, true; }); !s.is_ok())
    return std::unexpected(s);
  std::vector<positions::Entry> run;
  if (auto s = count(Positions,
                     [&](std::string_view value) {
                       run.clear();
                       if (!positions::decode_run(value, run)) return false;
                       stats.positions += run.size();
                       return true;
                     });
      !s.is_ok())
    return std::unexpected(s);
  return stats;
}

std::expected<Reject, Status> Store::reject(std::uint32_t id) const {
  std::string value;
  rocksdb::Status s = impl_->db->Get(rocksdb::ReadOptions(), impl_->families[Rejects],
                                     bytes::big_endian32(id), &value);
  if (!s.ok()) return std::unexpected(from_rocksdb(s, pgn::cat("reading reject ", id)));
  Reject r;
  bytes::Reader in(value);
  std::uint64_t line = 0, column = 0;
  if (!in.string(r.source) || !in.varint(line) || !in.varint(column) || !in.string(r.error) ||
      !in.string(r.text) || !in.empty())
    return std::unexpected(
        Status::error(Status::Code::Corruption, pgn::cat("stored reject ", id, " is damaged")));
  r.location = {line, std::uint32_t(column)};
  return r;
}

std::expected<SourceProgress, Status> Store::source(std::uint64_t hash) const {
  std::string value;
  rocksdb::Status s =
      impl_->db->Get(rocksdb::ReadOptions(), impl_->families[Sources], hash_key(hash), &value);
  if (s.IsNotFound()) return SourceProgress{};
  if (!s.ok()) return std::unexpected(from_rocksdb(s, "reading sources"));
  SourceProgress p;
  bytes::Reader in(value);
  std::uint8_t complete = 0;
  if (!in.string(p.name) || !in.varint(p.games) || !in.byte(complete) || !in.empty())
    return std::unexpected(Status::error(Status::Code::Corruption, "source record damaged"));
  p.complete = complete != 0;
  return p;
}

Status Store::fold_positions() {
  std::unique_ptr<rocksdb::Iterator> it(
      impl_->db->NewIterator(rocksdb::ReadOptions(), impl_->families[Positions]));
  rocksdb::WriteBatch batch;
  std::string first_key, current_bucket, encoded;
  std::vector<std::string> later_keys;
  std::vector<positions::Entry> entries, run;
  // Writes the bucket gathered so far as one run under its first run's key.
  auto finish_bucket = [&]() -> Status {
    if (later_keys.empty()) return Status::ok();
    std::sort(entries.begin(), entries.end());
    entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
    encoded.clear();
    positions::encode_run(entries, encoded);
    batch.Put(impl_->families[Positions], first_key, encoded).PermitUncheckedError();
    for (const auto& key : later_keys)
      batch.Delete(impl_->families[Positions], key).PermitUncheckedError();
    if (batch.Count() > 20000) {
      rocksdb::Status s = impl_->db->Write(rocksdb::WriteOptions(), &batch);
      if (!s.ok()) return from_rocksdb(s, "folding the position index");
      batch.Clear();
    }
    return Status::ok();
  };
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const std::string key = it->key().ToString();
    const std::string bucket = key.substr(0, 2);
    if (bucket != current_bucket) {
      if (auto s = finish_bucket(); !s.is_ok()) return s;
      current_bucket = bucket;
      first_key = key;
      later_keys.clear();
      entries.clear();
    } else {
      later_keys.push_back(key);
    }
    run.clear();
    if (!positions::decode_run(it->value().ToStringView(), run))
      return Status::error(Status::Code::Corruption, "position index damaged");
    entries.insert(entries.end(), run.begin(), run.end());
  }
  if (!it->status().ok()) return from_rocksdb(it->status(), "reading the position index");
  if (auto s = finish_bucket(); !s.is_ok()) return s;
  rocksdb::WriteOptions options;
  options.sync = true;
  rocksdb::Status s = impl_->db->Write(options, &batch);
  return s.ok() ? Status::ok() : from_rocksdb(s, "folding the position index");
}

Status Store::compact() {
  rocksdb::CompactRangeOptions options;
  options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  for (auto* family : impl_->families) {
    rocksdb::Status s = impl_->db->CompactRange(options, family, nullptr, nullptr);
    if (!s.ok()) return from_rocksdb(s, "compacting");
  }
  return Status::ok();
}

std::expected<std::vector<PositionMatch>, Status> Store::find_position(
    const pgn::Position& position) const {
  const pgn::Key key = pgn::repetition_key(position);
  // One run per import batch that touched the bucket; each sorted, the runs in game order.
  std::vector<positions::Entry> entries;
  const std::uint32_t suffix = positions::suffix_of(key);
  const std::string bucket = positions::bucket_key(key);
  std::unique_ptr<rocksdb::Iterator> it(
      impl_->db->NewIterator(rocksdb::ReadOptions(), impl_->families[Positions]));
  for (it->Seek(bucket); it->Valid() && it->key().starts_with(bucket); it->Next()) {
    std::vector<positions::Entry> run;
    if (!positions::decode_run(it->value().ToStringView(), run))
      return std::unexpected(Status::error(Status::Code::Corruption, "position index damaged"));
    auto first = std::lower_bound(run.begin(), run.end(), positions::Entry{suffix, 0});
    for (; first != run.end() && first->suffix == suffix; ++first) entries.push_back(*first);
  }
  if (!it->status().ok())
    return std::unexpected(from_rocksdb(it->status(), "reading the position index"));
  std::vector<PositionMatch> matches;

  // The index narrows to games whose positions share 40 bits of the key; replaying each
  // candidate confirms it and finds the plies and the moves played from there.
  for (const positions::Entry& entry : entries) {
    auto game = this->game(entry.game);
    if (!game) return std::unexpected(game.error());
    pgn::Position pos = game->start;
    for (std::size_t ply = 0;; ++ply) {
      const bool last = ply == game->moves.size();
      if (pgn::repetition_key(pos) == key)
        matches.push_back({entry.game, int(ply), last ? pgn::Move::none() : game->moves[ply].move});
      if (last) break;
      const pgn::Move m = game->moves[ply].move;
      if (m.is_null())
        pos.play_null();
      else
        pos.play(m);
    }
  }
  return matches;
}

std::expected<Store, Status> Store::open(const std::string& path, const StoreOptions& options) {
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = options.create_if_missing;
  db_options.create_missing_column_families = true;
  rocksdb::ColumnFamilyOptions family_options;
  family_options.compression = rocksdb::kZSTD;
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (std::string_view name : family_names)
    descriptors.emplace_back(std::string(name), family_options);

  auto impl = std::make_unique<Impl>();
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, path, descriptors, &impl->families, &raw);
  if (!s.ok()) {
    if (!options.create_if_missing && s.IsInvalidArgument())
      return std::unexpected(Status::error(Status::Code::NotFound, "no database at " + path));
    return std::unexpected(from_rocksdb(s, "opening " + path));
  }
  impl->db.reset(raw);

  std::string value;
  s = impl->db->Get(rocksdb::ReadOptions(), impl->families[Default], version_key, &value);
  if (s.IsNotFound()) {
    s = impl->db->Put(rocksdb::WriteOptions(), impl->families[Default], version_key,
                      bytes::big_endian32(schema_version));
    if (!s.ok()) return std::unexpected(from_rocksdb(s, "writing the schema version"));
  } else if (!s.ok()) {
    return std::unexpected(from_rocksdb(s, "reading the schema version"));
  } else if (value.size() != 4 || bytes::read_big_endian32(value) != schema_version) {
    return std::unexpected(
        Status::error(Status::Code::IncompatibleVersion,
                      pgn::cat(path, " holds schema version ",
                               value.size() == 4 ? bytes::read_big_endian32(value) : 0,
                               ", this pgndb reads version ", schema_version)));
  }
  impl->version = schema_version;

  auto games = impl->read_count(game_count_key);
  if (!games) return std::unexpected(games.error());
  auto rejects = impl->read_count(reject_count_key);
  if (!rejects) return std::unexpected(rejects.error());
  impl->games = *games;
  impl->rejects = *rejects;
  return Store(std::move(impl));
}

}  // namespace pgndb::index
