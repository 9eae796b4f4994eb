#include "pgndb/index/game_summary.h"

#include "bytes.h"
#include "move_index.h"
#include "pgn/movegen.h"
#include "pgn/openings.h"

namespace pgndb::index {

namespace {

// The first byte: the result in bits 0-1, then flags, then the speed in bits 4-6 (0, unknown,
// in every summary written before schema 19).
// Bit 7 says that the ending's byte follows the plies: schema 20 writes it in every summary, and
// a summary written before has neither (its ending None until the upgrade rewrites it), so that
// either reads alone, whatever point an upgrade stopped at.
enum : std::uint8_t {
  Annotated = 1 << 2,
  SetUpStart = 1 << 3,
  SpeedShift = 4,
  HasEnding = 1 << 7,
};
// The fixed part: the first byte, year, month, day, the ratings, the plies, then the ending's
// byte, SearchFacts::ending_code (bits 0-4), whose bit 7 says that the game's opening follows
// (pgn::OpeningId, 2 bytes big-endian; schema 21 writes it in every summary).
constexpr std::size_t fixed_size_before_endings = 11;
constexpr std::uint8_t ending_bits = 0x1F, HasOpening = 1 << 7;

}  // namespace

void encode_summary(const GameSummary& summary, std::string& out) {
  out += char((summary.result & 3) | (summary.annotated ? Annotated : 0) |
              (summary.standard_start ? 0 : SetUpStart) |
              std::uint8_t(summary.speed) << SpeedShift | HasEnding);
  bytes::put_big_endian16(out, summary.year);
  out += char(summary.month);
  out += char(summary.day);
  bytes::put_big_endian16(out, summary.white_elo);
  bytes::put_big_endian16(out, summary.black_elo);
  bytes::put_big_endian16(out, summary.plies);
  out += char(summary.facts().ending_code() | HasOpening);
  bytes::put_big_endian16(out, summary.opening_id);
  out.append(reinterpret_cast<const char*>(summary.opening.data()), summary.opening_length);
}

std::expected<GameSummary, Status> decode_summary(std::string_view bytes) {
  const bool with_ending = !bytes.empty() && (std::uint8_t(bytes[0]) & HasEnding);
  const bool with_opening = with_ending && bytes.size() > fixed_size_before_endings &&
                            (std::uint8_t(bytes[fixed_size_before_endings]) & HasOpening);
  const std::size_t fixed =
      fixed_size_before_endings + (with_ending ? 1 : 0) + (with_opening ? 2 : 0);
  if (bytes.size() < fixed || bytes.size() > fixed + GameSummary::opening_plies)
    return std::unexpected(Status::error(Status::Code::Corruption, "game summary damaged"));
  GameSummary summary;
  const auto first = std::uint8_t(bytes[0]);
  summary.result = first & 3;
  summary.annotated = first & Annotated;
  summary.standard_start = !(first & SetUpStart);
  const unsigned speed = (first & ~HasEnding) >> SpeedShift;
  if (speed >= pgn::speed_count)
    return std::unexpected(Status::error(Status::Code::Corruption, "game summary damaged"));
  summary.speed = pgn::Speed(speed);
  summary.year = bytes::read_big_endian16(bytes.substr(1));
  summary.month = std::uint8_t(bytes[3]);
  summary.day = std::uint8_t(bytes[4]);
  summary.white_elo = bytes::read_big_endian16(bytes.substr(5));
  summary.black_elo = bytes::read_big_endian16(bytes.substr(7));
  summary.plies = bytes::read_big_endian16(bytes.substr(9));
  if (with_ending) {
    const auto code = std::uint8_t(bytes[11] & ~HasOpening);
    static_assert(pgn::ending_count == 8, "every value of bits 0-2 is an ending");
    if (code & ~ending_bits)
      return std::unexpected(Status::error(Status::Code::Corruption, "game summary damaged"));
    SearchFacts facts;
    facts.set_ending_code(code);
    summary.ending = facts.ending;
    summary.repetition = facts.repetition;
    summary.fifty_moves = facts.fifty_moves;
  }
  if (with_opening) {
    summary.opening_id = bytes::read_big_endian16(bytes.substr(12));
    if (summary.opening_id >= pgn::openings().size())
      return std::unexpected(Status::error(Status::Code::Corruption, "game summary damaged"));
  }
  summary.opening_length = std::uint8_t(bytes.size() - fixed);
  if (summary.opening_length > summary.plies)
    return std::unexpected(Status::error(Status::Code::Corruption, "game summary damaged"));
  for (std::size_t i = 0; i < summary.opening_length; ++i)
    summary.opening[i] = std::uint8_t(bytes[fixed + i]);
  return summary;
}

std::optional<pgn::Move> opening_move(const pgn::Position& pos, std::uint8_t code) {
  const pgn::Move move = pseudo_legal_move_at(pos, code);
  if (move.is_none()) return std::nullopt;
  // A pseudo-legal move may leave the king attacked: only a legal one is played.
  const pgn::MoveList legal = pgn::legal_moves(pos);
  if (!legal.contains(move)) return std::nullopt;
  return move;
}

}  // namespace pgndb::index
