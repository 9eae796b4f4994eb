#include "material_record.h"

#include <algorithm>
#include <array>
#include <bit>

#include "bytes.h"
#include "metadata_keys.h"

namespace pgndb::index::material {

std::uint64_t packed(const pgn::MaterialBalance& b) {
  const auto pair = [](unsigned high, unsigned low) {
    return std::uint64_t(high << 4 | (low & 15));
  };
  using pgn::Black;
  using pgn::White;
  const auto& w = b.count[White];
  const auto& k = b.count[Black];
  // Counts by piece - Pawn: 0 P, 1 N, 2 B, 3 R, 4 Q.
  return pair(w[4], w[3]) << 32 | pair(w[2], w[1]) << 24 | pair(k[4], k[3]) << 16 |
         pair(k[2], k[1]) << 8 | pair(w[0], k[0]);
}

namespace {

void put_packed(std::string& out, std::uint64_t number) {
  for (std::size_t byte = balance_size; byte-- > 0;) out += char(number >> (8 * byte));
}

}  // namespace

void put_balance(std::string& out, const pgn::MaterialBalance& b) { put_packed(out, packed(b)); }

std::string value_of_packed(std::uint64_t number) {
  std::string value(1, char(metadata::Material));
  put_packed(value, number);
  return value;
}

std::optional<pgn::MaterialBalance> balance_of(std::string_view bytes) {
  if (bytes.size() != balance_size) return std::nullopt;
  const auto high = [&](int i) { return std::uint8_t(std::uint8_t(bytes[i]) >> 4); };
  const auto low = [&](int i) { return std::uint8_t(std::uint8_t(bytes[i]) & 15); };
  pgn::MaterialBalance b;
  b.count[pgn::White] = {high(4), low(1), high(1), low(0), high(0)};
  b.count[pgn::Black] = {low(4), low(3), high(3), low(2), high(2)};
  return b;
}

std::optional<std::uint32_t> next_possible_pieces(std::uint32_t from,
                                                  const PossibleCounts& possible) {
  // The counts' places in the number, highest first (material_record.h): Q R B N by colour.
  std::array<std::uint16_t, 8> sets;
  for (int colour = 0; colour < 2; ++colour)
    for (int kind = 0; kind < 4; ++kind) sets[4 * colour + kind] = possible[colour][4 - kind];
  if (std::find(sets.begin(), sets.end(), 0) != sets.end()) return std::nullopt;
  std::array<unsigned, 8> count;
  for (int i = 0; i < 8; ++i) count[i] = from >> (28 - 4 * i) & 15;
  int bad = 0;  // the first count not possible
  while (bad < 8 && (sets[bad] >> count[bad] & 1)) ++bad;
  if (bad == 8) return from;
  // Keep the counts above place i, raise the count at i to the next possible one (past the
  // count there: at `bad` it is not possible, above it keeping it led to `bad`), and put the
  // lowest possible counts below.
  for (int i = bad; i >= 0; --i) {
    const unsigned higher = sets[i] & (0xFFFFu << (count[i] + 1)) & 0xFFFFu;
    if (!higher) continue;
    auto next = std::uint32_t(std::uint64_t(from) >> (32 - 4 * i) << (32 - 4 * i));
    next |= std::uint32_t(std::countr_zero(higher)) << (28 - 4 * i);
    for (int j = i + 1; j < 8; ++j)
      next |= std::uint32_t(std::countr_zero(sets[j])) << (28 - 4 * j);
    return next;
  }
  return std::nullopt;
}

namespace {

constexpr std::uint8_t escape = 0xFF;
constexpr std::uint8_t standard_start = 1, black_first = 2, pawn_squares = 4, home_ranks_full = 8,
                       rook_ranks = 16;
constexpr pgn::Bitboard rank_1 = 0xFF, rank_8 = rank_1 << 56;
constexpr unsigned promotions = 5;  // the first promotion's code

// The side that played ply `ply` (1-based) of a game whose first mover is `first`.
pgn::Color mover(unsigned ply, pgn::Color first) { return ply % 2 ? first : ~first; }

// A side's five counts as one number, a kind a byte (Pawn lowest). Counts are at most 15, so
// the difference of two such numbers tells each kind's difference: written as a sum of
// c * 256^kind with every |c| <= 15, an integer has one way only.
std::int64_t counts_of(const std::array<std::uint8_t, 5>& c) {
  return std::int64_t(c[0]) | std::int64_t(c[1]) << 8 | std::int64_t(c[2]) << 16 |
         std::int64_t(c[3]) << 24 | std::int64_t(c[4]) << 32;
}

// The kind k when `d` is 256^k, k < 5; -1 otherwise.
int kind_of_power(std::int64_t d) {
  if (d <= 0 || (d & (d - 1))) return -1;
  const int bit = std::countr_zero(std::uint64_t(d));
  return bit % 8 == 0 && bit / 8 < 5 ? bit / 8 : -1;
}

// The code of the change from `before` to `after` made by `side`, or nothing when no move makes
// it: the opponent has one piece fewer or none, and `side` has the same pieces or one pawn fewer
// and one piece more (a promotion, which takes no pawn). Computed on each side's counts as one
// number (an import encodes a run at each capture).
std::optional<unsigned> change_code(const pgn::MaterialBalance& before,
                                    const pgn::MaterialBalance& after, pgn::Color side) {
  const std::int64_t lost = counts_of(before.count[~side]) - counts_of(after.count[~side]);
  const std::int64_t gained = counts_of(after.count[side]) - counts_of(before.count[side]);
  const int taken = lost ? kind_of_power(lost) : -1;
  if (lost && taken < 0) return std::nullopt;
  if (gained == 0) return taken < 0 ? std::nullopt : std::optional<unsigned>(unsigned(taken));
  const int promoted = kind_of_power(gained + 1);  // 256^promoted - 1: a pawn fewer, one more
  if (promoted < 1 || taken == 0) return std::nullopt;
  return promotions + 5 * unsigned(promoted - 1) + unsigned(taken < 0 ? 0 : taken);
}

// Each side's counts as counts_of gives them: what a decode changes, run after run. Kept in
// registers and written out whole: changing a byte of a MaterialBalance in memory and copying
// the balance into the next run made the copy wait for the byte's store, most of a broad
// material search's decoding.
using Counts = std::array<std::int64_t, 2>;

void store_counts(const Counts& counts, pgn::MaterialBalance& balance) {
  for (int c = 0; c < 2; ++c)
    for (int kind = 0; kind < 5; ++kind)
      balance.count[c][kind] = std::uint8_t(counts[c] >> (8 * kind));
}

// `counts` changed by code `code` played by `side`; false when the counts do not allow it. A
// count is at most 15 in its byte, so taking one from a count above 0 or adding one to a count
// below 15 leaves the other bytes as they were. The sides are chosen by value (conditional
// moves), not by index: an indexed side went through memory, a wait at every run.
bool apply_code(Counts& counts, unsigned code, pgn::Color side) {
  const bool white = side == pgn::White;
  std::int64_t mine = white ? counts[0] : counts[1], theirs = white ? counts[1] : counts[0];
  const auto count = [](std::int64_t of, unsigned kind) { return of >> (8 * kind) & 0xFF; };
  bool ok;
  if (code < promotions) {
    ok = count(theirs, code) != 0;
    theirs -= std::int64_t(ok) << (8 * code);
  } else {
    code -= promotions;
    const unsigned promoted = 1 + code / 5, taken = code % 5;
    ok = promoted <= 4 && count(mine, 0) != 0 && count(mine, promoted) != 15 &&
         (!taken || count(theirs, taken) != 0);
    if (!ok) return false;
    if (taken) theirs -= std::int64_t(1) << (8 * taken);
    mine += (std::int64_t(1) << (8 * promoted)) - 1;
  }
  counts[0] = white ? mine : theirs;
  counts[1] = white ? theirs : mine;
  return ok;
}

}  // namespace

void encode_history(const pgn::MaterialHistory& history, std::string& out) {
  const pgn::MaterialBalance& start = history.runs.front().balance;
  // Who moved first is told by the history only through its runs' changes: a capture's code is
  // the taken piece, of the side that did not move. Without any run it does not matter.
  pgn::Color first = pgn::White;
  if (history.runs.size() > 1) {
    const auto& r = history.runs[1];
    if (!change_code(start, r.balance, mover(r.ply, pgn::White)) &&
        change_code(start, r.balance, mover(r.ply, pgn::Black)))
      first = pgn::Black;
  }
  const bool standard = start == pgn::MaterialBalance::start();
  bytes::put_varint(out, history.plies);
  // The pawns' squares are known unless a square of rank 1 or 8 is among them (the history's
  // "every square").
  const auto& squares = history.pawn_squares;
  std::uint8_t flags =
      std::uint8_t((standard ? standard_start : 0) | (first == pgn::Black ? black_first : 0));
  if (!((squares[pgn::White] | squares[pgn::Black]) & (rank_1 | rank_8))) {
    flags |= pawn_squares;
    if ((~squares[pgn::White] & rank_1 << 8) == 0 && (~squares[pgn::Black] & rank_8 >> 8) == 0)
      flags |= home_ranks_full;
  }
  // The rooks' ranks, unless not known ("every square").
  if ((history.rook_squares[pgn::White] & history.rook_squares[pgn::Black]) != ~pgn::Bitboard(0))
    flags |= rook_ranks;
  out += char(flags);
  if (!standard) put_balance(out, start);
  bytes::put_varint(out, history.runs.size() - 1);
  for (std::size_t i = 1; i < history.runs.size(); ++i) {
    const auto& before = history.runs[i - 1];
    const auto& run = history.runs[i];
    const unsigned delta = run.ply - before.ply;
    const auto code = change_code(before.balance, run.balance, mover(run.ply, first));
    if (!code) {
      out += char(escape);
      bytes::put_varint(out, delta);
      put_balance(out, run.balance);
    } else if (delta < 8) {
      out += char(delta << 5 | *code);
    } else {
      out += char(*code);
      bytes::put_varint(out, delta);
    }
  }
  if (flags & pawn_squares) {
    // A rank a byte, from the side's home rank out: White's ranks 2 (unless full) to 7, then
    // Black's 7 (unless full) to 2.
    const int from = flags & home_ranks_full ? 1 : 0;
    for (int r = 1 + from; r <= 6; ++r) out += char(history.pawn_squares[pgn::White] >> (8 * r));
    for (int r = 6 - from; r >= 1; --r) out += char(history.pawn_squares[pgn::Black] >> (8 * r));
  }
  if (flags & rook_ranks) {
    // Each side's from its home rank out: bit 0 rank 1 for White, rank 8 for Black.
    out += char(pgn::ranks_of(history.rook_squares[pgn::White]));
    out += char(pgn::ranks_of(std::byteswap(history.rook_squares[pgn::Black])));
  }
}

std::optional<pgn::MaterialHistory> decode_history(std::string_view bytes) {
  pgn::MaterialHistory h;
  if (!decode_history(bytes, h)) return std::nullopt;
  return h;
}

bool decode_history(std::string_view bytes, pgn::MaterialHistory& h) {
  bytes::Reader in(bytes);
  h.runs.clear();
  std::uint64_t plies = 0, runs = 0;
  std::uint8_t flags = 0;
  if (!in.varint(plies) || plies > 65535 || !in.byte(flags) || flags > 31 ||
      ((flags & home_ranks_full) && !(flags & pawn_squares)))
    return false;
  h.plies = std::uint16_t(plies);
  const pgn::Color first = flags & black_first ? pgn::Black : pgn::White;
  pgn::MaterialBalance balance = pgn::MaterialBalance::start();
  std::string_view raw;
  if (!(flags & standard_start)) {
    if (!in.bytes_of(balance_size, raw)) return false;
    balance = *balance_of(raw);
  }
  if (!in.varint(runs) || runs > plies) return false;
  h.runs.resize(runs + 1);
  pgn::MaterialHistory::Run* run = h.runs.data();
  *run = {0, balance};
  Counts counts{counts_of(balance.count[pgn::White]), counts_of(balance.count[pgn::Black])};
  unsigned ply = 0;
  for (std::uint64_t i = 0; i < runs; ++i) {
    std::uint8_t byte = 0;
    std::uint64_t delta = 0;
    if (!in.byte(byte)) return false;
    if (byte == escape) {
      if (!in.varint(delta)) return false;
    } else {
      delta = byte >> 5;
      if (!delta && !in.varint(delta)) return false;
    }
    // The plies since the run before: at least one, and within the game (compared without an
    // addition, which a damaged varint near 2^64 would wrap).
    if (delta == 0 || delta > plies - ply) return false;
    ply += unsigned(delta);
    if (byte == escape) {
      // Only an escaped balance can repeat the one before: a code always changes a count.
      if (!in.bytes_of(balance_size, raw)) return false;
      const pgn::MaterialBalance next = *balance_of(raw);
      const Counts before = counts;
      counts = {counts_of(next.count[pgn::White]), counts_of(next.count[pgn::Black])};
      if (counts == before) return false;
    } else if (!apply_code(counts, byte & 31, mover(ply, first))) {
      return false;
    }
    ++run;
    run->ply = std::uint16_t(ply);
    store_counts(counts, run->balance);
  }
  h.pawn_squares = {~pgn::Bitboard(0), ~pgn::Bitboard(0)};
  if (flags & pawn_squares) {
    const bool full = flags & home_ranks_full;
    const std::size_t size = full ? 10 : 12;
    if (!in.bytes_of(size, raw)) return false;
    const auto rank = [&](std::size_t i) { return pgn::Bitboard(std::uint8_t(raw[i])); };
    pgn::Bitboard white = full ? rank_1 << 8 : 0, black = full ? rank_8 >> 8 : 0;
    const int from = full ? 1 : 0;
    std::size_t i = 0;
    for (int r = 1 + from; r <= 6; ++r) white |= rank(i++) << (8 * r);
    for (int r = 6 - from; r >= 1; --r) black |= rank(i++) << (8 * r);
    h.pawn_squares = {white, black};
  }
  h.rook_squares = {~pgn::Bitboard(0), ~pgn::Bitboard(0)};
  if (flags & rook_ranks) {
    if (!in.bytes_of(2, raw)) return false;
    h.rook_squares = {pgn::ranks_bb(std::uint8_t(raw[0])),
                      std::byteswap(pgn::ranks_bb(std::uint8_t(raw[1])))};
  }
  return in.empty();
}

}  // namespace pgndb::index::material
