// The stored form of games: pinned bytes for a small game, and a lossless round trip (decode of
// encode writes the same PGN) over every edge file and a corpus slice; the move numbering.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <string>
#include <tuple>

#include "comment_codec.h"
#include "move_index.h"
#include "pgn/fen.h"
#include "pgn/game.h"
#include "pgn/movegen.h"
#include "pgn/reader.h"
#include "pgn/replay.h"
#include "pgn/san.h"
#include "pgn/writer.h"
#include "pgndb/index/game_codec.h"

namespace fs = std::filesystem;
using pgndb::index::decode_game;
using pgndb::index::encode_game;

namespace {

pgn::GameRecord read_one(std::string_view text) {
  pgn::StringSource source(text);
  pgn::Reader reader(source);
  pgn::ReplayVisitor replay({.keep_record = true});
  auto more = reader.read_game(replay);
  REQUIRE(more);
  REQUIRE(*more);
  REQUIRE_FALSE(replay.has_error());
  return replay.record();
}

std::string hex(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    out += "0123456789abcdef"[c >> 4];
    out += "0123456789abcdef"[c & 15];
    out += ' ';
  }
  if (!out.empty()) out.pop_back();
  return out;
}

// A replay that keeps what it computed of each move (PlayedMoves), as the importer's does.
class RecordingReplay final : public pgn::ReplayVisitor {
 public:
  RecordingReplay() : ReplayVisitor({.keep_record = true}) {}
  pgndb::index::PlayedMoves moves;
  pgn::Control begin_game(pgn::Location at) override {
    moves.clear();
    return ReplayVisitor::begin_game(at);
  }

 private:
  void played(const pgn::Position& before, pgn::Move move, const pgn::Position& after) override {
    moves.add(before, move, after);
  }
};

// Encodes and decodes every replayable game of `path`; returns how many. Each game is encoded
// twice, playing its moves and from what the replay computed of them: the same bytes, the same
// keys of the main line and the variations, the same opening codes.
int round_trip_file(const fs::path& path) {
  auto source = pgn::FileSource::open(path.string());
  REQUIRE(source);
  pgn::Reader reader(**source);
  RecordingReplay replay;
  int games = 0;
  for (;;) {
    auto more = reader.read_game(replay);
    REQUIRE(more);
    if (!*more) break;
    if (replay.has_error()) continue;
    std::string bytes, from_played;
    std::vector<pgn::Key> keys, variation_keys, played_keys, played_variation_keys;
    std::string codes, played_codes;
    encode_game(replay.record(), bytes, &keys, &codes, 16, &variation_keys);
    encode_game(replay.record(), from_played, &played_keys, &played_codes, 16,
                &played_variation_keys, &replay.moves);
    INFO(path.string() << " game " << games + 1);
    REQUIRE(from_played == bytes);
    REQUIRE(played_keys == keys);
    REQUIRE(played_variation_keys == variation_keys);
    REQUIRE(played_codes == codes);
    auto decoded = decode_game(bytes);
    REQUIRE(decoded);
    std::string expected, actual;
    pgn::write_game(replay.record(), expected);
    pgn::write_game(*decoded, actual);
    CHECK(actual == expected);
    CHECK(decoded->tags == replay.record().tags);  // order and all, beyond what the writer shows
    // Decoding the main line only up to a position: the first ply with its key, and the move
    // played there, stepping over the variations before it (every ninth ply, and the end).
    std::vector<std::size_t> plies;
    for (std::size_t p = std::size_t(games) % 9; p < keys.size(); p += 9) plies.push_back(p);
    plies.push_back(keys.size() - 1);
    for (const std::size_t p : plies) {
      const auto first = std::size_t(std::find(keys.begin(), keys.end(), keys[p]) - keys.begin());
      auto at = pgndb::index::decode_main_line_until(bytes, keys[p]);
      REQUIRE(at);
      REQUIRE(*at);
      CHECK((*at)->ply == first);
      CHECK((*at)->move ==
            (first < decoded->moves.size() ? decoded->moves[first].move : pgn::Move::none()));
    }
    auto nowhere = pgndb::index::decode_main_line_until(bytes, 0x0123456789ABCDEFULL);
    REQUIRE(nowhere);
    CHECK_FALSE(*nowhere);
    ++games;
  }
  return games;
}

}  // namespace

TEST_CASE("stored game bytes are pinned (the format must not drift)") {
  std::string bytes;
  encode_game(read_one("[Event \"x\"]\n\n1. e4 e5 *\n"), bytes);
  // version 3, result *, 1 tag: Event (code 1) "x", standard start, no comments, 2 moves.
  // Moves are numbered among the pseudo-legal ones sorted by (from, to): White's start is
  // Nb1 a3 c3 (0, 1), Ke1 castling "takes" a1 h1 (2, 3), Ng1 f3 h3 (4, 5), then two pushes
  // per pawn from a2: e2e3 is 14, e2e4 15. Black: two pushes per pawn from a7, e7e5 is 8.
  CHECK(hex(bytes) == "03 00 01 01 01 78 00 00 02 0f 08");

  bytes.clear();
  encode_game(read_one("[Custom \"y\"]\n\n1. e4! {good} (1. d4) 1-0\n"), bytes);
  // tag by name (code 0); the annotated node: 253, move 15, flags NAGs|after|variations, one
  // NAG $1, one comment "good" (header 8: a text of 4 bytes), one variation of one move (d2d4 =
  // 13).
  CHECK(hex(bytes) ==
        "03 01 01 00 06 43 75 73 74 6f 6d 01 79 00 00 01 fd 0f 0d 01 01 01 08 67 6f 6f 64 01 "
        "01 0d");

  bytes.clear();
  encode_game(read_one("1. e4 { [%eval 0.17] [%clk 0:03:00] } e5 { [%clk 0:02:59] } *\n"), bytes);
  // No tags; two nodes with a comment after: the first an eval and a clock (header 3; eval
  // zigzag(17) * 3 + 2 decimals = 104; 180 seconds), the second a clock alone (header 1; 179).
  CHECK(hex(bytes) == "03 00 00 00 00 02 fd 0f 04 01 03 68 b4 01 fd 08 04 01 01 b3 01");
}

TEST_CASE("clock and eval comments are stored as numbers and decode to their exact text") {
  // Each written as lichess writes it (kept as numbers) or some other way (kept as text).
  const std::vector<std::pair<std::string, bool>> comments = {
      {" [%clk 0:03:00] ", true},
      {" [%eval 0.17] [%clk 0:03:00] ", true},
      {" [%eval -4.0] [%clk 1:00:59] ", true},
      {" [%eval 3.7] [%clk 0:00:00] ", true},
      {" [%eval 12] [%clk 10:10:10] ", true},
      {" [%eval -0.05] [%clk 0:00:09] ", true},
      {" [%eval #-3] [%clk 0:00:41] ", true},
      {" [%eval #12] [%clk 0:01:00] ", true},
      {" [%eval 999999.99] [%clk 999:59:59] ", true},
      {" [%clk 0:3:00] ", false},
      {" [%clk 00:03:00] ", false},
      {" [%clk 0:03:60] ", false},
      {" [%clk 0:03:00]", false},
      {"[%clk 0:03:00] ", false},
      {"  [%clk 0:03:00] ", false},
      {" [%clk 0:03:00.5] ", false},
      {" [%eval -0.0] [%clk 0:03:00] ", false},
      {" [%eval 0.590] [%clk 0:03:00] ", false},
      {" [%eval 03.5] [%clk 0:03:00] ", false},
      {" [%eval +1.5] [%clk 0:03:00] ", false},
      {" [%eval #+3] [%clk 0:03:00] ", false},
      {" [%eval #1.5] [%clk 0:03:00] ", false},
      {" [%eval 1.5,20] [%clk 0:03:00] ", false},
      {" [%eval 1.5]  [%clk 0:03:00] ", false},
      {" [%eval 1.5] [%clk 0:03:00] [%emt 0:00:02] ", false},
      {" [%clk 0:03:00] [%eval 1.5] ", false},
      {" [%eval 1234567890] [%clk 0:03:00] ", false},
      {" [%eval 1.5] ", false},
      {" [%clk ] ", false},
      {"", false},
      {"good move", false},
  };
  pgn::GameRecord game = read_one("1. e4 e5 *\n");
  for (const auto& [text, compact] : comments) {
    INFO('"' << text << '"');
    for (auto* where :
         {&game.leading_comments, &game.moves[0].comments_after, &game.moves[1].comments_before})
      *where = {text, "x"};
    std::string bytes;
    encode_game(game, bytes);
    const auto decoded = decode_game(bytes);
    REQUIRE(decoded);
    CHECK(decoded->leading_comments == game.leading_comments);
    CHECK(decoded->moves[0].comments_after == game.moves[0].comments_after);
    CHECK(decoded->moves[1].comments_before == game.moves[1].comments_before);
    // Kept as text, each of the three costs its bytes; as numbers, a handful.
    CHECK((bytes.size() < 3 * text.size()) == compact);
  }
}

namespace {

// The compact form's definition (docs/storage.md), written here independently of the codec: a
// comment of 16 to 40 bytes shaped as a clock, or an eval and a clock, that printf writes back
// byte for byte from the numbers read loosely from it.
bool compact_by_definition(const std::string& c) {
  if (c.size() < 16 || c.size() > 40) return false;
  static const std::regex clock(R"(^ \[%clk (\d{1,12}):(\d{1,12}):(\d{1,12})\] $)");
  static const std::regex eval(
      R"(^ \[%eval (#?)(-?)(\d{1,12})(?:\.(\d{1,12}))?\] \[%clk (\d{1,12}):(\d{1,12}):(\d{1,12})\] $)");
  std::smatch m;
  char text[96];
  auto clock_of = [&](std::size_t at, unsigned long long& h, unsigned long long& mm,
                      unsigned long long& ss) {
    h = std::stoull(m[at]);
    mm = std::stoull(m[at + 1]);
    ss = std::stoull(m[at + 2]);
    return mm < 60 && ss < 60 && h * 3600 + mm * 60 + ss < 3'600'000'000ull;
  };
  unsigned long long h, mm, ss;
  if (std::regex_match(c, m, clock)) {
    if (!clock_of(1, h, mm, ss)) return false;
    std::snprintf(text, sizeof(text), " [%%clk %llu:%02llu:%02llu] ", h, mm, ss);
    return c == text;
  }
  if (!std::regex_match(c, m, eval) || !clock_of(5, h, mm, ss)) return false;
  const bool mate = m[1].length() > 0, negative = m[2].length() > 0;
  const std::string whole = m[3], fraction = m[4];
  if (mate && !fraction.empty()) return false;
  if (fraction.size() > 2) return false;
  const unsigned long long w = std::stoull(whole), f = fraction.empty() ? 0 : std::stoull(fraction);
  const unsigned long long magnitude = w * (fraction.size() == 2   ? 100
                                            : fraction.size() == 1 ? 10
                                                                   : 1) +
                                       f;
  if (magnitude > (mate ? 9'999ull : 999'999'999ull)) return false;
  const char* sign = negative && magnitude > 0 ? "-" : "";
  if (fraction.empty())
    std::snprintf(text, sizeof(text), " [%%eval %s%s%llu] [%%clk %llu:%02llu:%02llu] ",
                  mate ? "#" : "", sign, w, h, mm, ss);
  else
    std::snprintf(text, sizeof(text), " [%%eval %s%llu.%0*llu] [%%clk %llu:%02llu:%02llu] ", sign,
                  w, int(fraction.size()), f, h, mm, ss);
  return c == text;
}

// A comment as lichess writes one, with random numbers (edges included), then 0 to 3 random
// edits from the bytes such comments are made of.
std::string mutated_command_comment(std::mt19937_64& random) {
  auto pick = [&](std::uint64_t n) { return std::uint64_t(random() % n); };
  auto edge_or = [&](std::initializer_list<std::uint64_t> edges, std::uint64_t n) {
    return pick(4) == 0 ? *(edges.begin() + pick(edges.size())) : pick(n);
  };
  const std::uint64_t seconds = edge_or({0, 59, 60, 3599, 3600, 3'599'999'999ull}, 36'000);
  char clock[40];
  std::snprintf(clock, sizeof(clock), "%llu:%02llu:%02llu] ",
                static_cast<unsigned long long>(seconds / 3600),
                static_cast<unsigned long long>(seconds / 60 % 60),
                static_cast<unsigned long long>(seconds % 60));
  std::string c;
  switch (pick(3)) {
    case 0: c = std::string(" [%clk ") + clock; break;
    case 1: {
      const std::uint64_t v = edge_or({0, 1, 9, 10, 99, 100, 9'999'999, 999'999'999}, 2'000);
      const int decimals = int(pick(3));
      const std::uint64_t scale = decimals == 0 ? 1 : decimals == 1 ? 10 : 100;
      char eval[40];
      if (decimals == 0)
        std::snprintf(eval, sizeof(eval), "%s%llu", pick(2) ? "-" : "",
                      static_cast<unsigned long long>(v));
      else
        std::snprintf(eval, sizeof(eval), "%s%llu.%0*llu", pick(2) ? "-" : "",
                      static_cast<unsigned long long>(v / scale), decimals,
                      static_cast<unsigned long long>(v % scale));
      c = std::string(" [%eval ") + eval + "] [%clk " + clock;
      break;
    }
    default:
      c = " [%eval #" + std::string(pick(2) ? "-" : "") +
          std::to_string(edge_or({0, 1, 9'999, 10'000}, 60)) + "] [%clk " + clock;
  }
  static constexpr std::string_view alphabet = " []%#-.:+0123456789clkevaml";
  for (std::uint64_t edits = pick(4); edits > 0 && !c.empty(); --edits) {
    const std::size_t at = pick(c.size());
    const char byte = alphabet[pick(alphabet.size())];
    switch (pick(3)) {
      case 0: c[at] = byte; break;
      case 1: c.insert(c.begin() + std::ptrdiff_t(at), byte); break;
      default: c.erase(at, 1);
    }
  }
  return c;
}

}  // namespace

TEST_CASE(
    "a comment is stored as numbers exactly when the definition of the compact form says so") {
  std::mt19937_64 random(20261204);
  int compact = 0, text = 0;
  for (int i = 0; i < 200'000; ++i) {
    const std::string comment = mutated_command_comment(random);
    std::string bytes;
    pgndb::index::comments::put(bytes, {comment});
    // A count of 1, then the comment's header: odd for numbers, even for text.
    REQUIRE(bytes.size() >= 2);
    const bool stored_compact = (std::uint8_t(bytes[1]) & 1) != 0;
    INFO('"' << comment << '"');
    REQUIRE(stored_compact == compact_by_definition(comment));
    (stored_compact ? compact : text)++;
    pgndb::index::bytes::Reader in(bytes);
    std::vector<std::string> decoded;
    REQUIRE(pgndb::index::comments::get(in, decoded, true));
    REQUIRE(decoded == std::vector<std::string>{comment});
  }
  // Both sides of the definition were exercised.
  CHECK(compact > 50'000);
  CHECK(text > 50'000);
}

TEST_CASE("games stored in format 2 (comments as strings) still decode") {
  auto first = decode_game(std::string("\x02\x00\x01\x01\x01x\x00\x00\x02\x0f\x08", 11));
  REQUIRE(first);
  REQUIRE(first->moves.size() == 2);
  CHECK(first->moves[1].move == read_one("1. e4 e5 *\n").moves[1].move);
  // A comment after 1. e4 as a format 2 string (count 1, length 4), then as format 3 reads the
  // same bytes (header 4: a text of 2 bytes, then 2 bytes left over): each format its own.
  const std::string with_comment("\x00\x00\x00\x00\x01\xfd\x0f\x04\x01\x04good", 14);
  auto two = decode_game("\x02" + with_comment);
  REQUIRE(two);
  CHECK(two->moves[0].comments_after == std::vector<std::string>{"good"});
  CHECK_FALSE(decode_game("\x03" + with_comment));
  // Kinds beyond the three command forms are damage.
  CHECK_FALSE(decode_game(std::string("\x03\x00\x00\x00\x00\x01\xfd\x0f\x04\x01\x07\x00", 12)));
}

TEST_CASE("decode of encode is lossless over the edge files and a corpus slice") {
  const fs::path data(PGNDB_SHARED_DATA);
  int games = 0;
  for (const auto& entry : fs::recursive_directory_iterator(data / "edge"))
    if (entry.path().extension() == ".pgn") games += round_trip_file(entry.path());
  for (const char* name : {"Kasparov.pgn", "Tal.pgn", "Morphy.pgn"})
    games += round_trip_file(data / "corpus" / name);
  CHECK(games > 10000);
}

TEST_CASE(
    "an encoder given what the replay computed takes its codes from it, or from the game when they "
    "do not fit") {
  const std::string text =
      "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... c5 2. Nf3 -- 3. d4 (3. c3) 3... cxd4 *\n";
  pgn::StringSource source(text);
  pgn::Reader reader(source);
  RecordingReplay replay;
  auto more = reader.read_game(replay);
  REQUIRE(more);
  REQUIRE(*more);
  REQUIRE_FALSE(replay.has_error());
  // Every move played, in the text's order: the main line's and the variations'.
  REQUIRE(replay.moves.codes.size() == 12);
  CHECK(replay.moves.codes[8] == pgndb::index::PlayedMoves::null_code);
  std::string plain, from_played;
  encode_game(replay.record(), plain);
  encode_game(replay.record(), from_played, nullptr, nullptr, 0, nullptr, &replay.moves);
  CHECK(from_played == plain);
  // Other codes of the right count are written as given: they are used, not recomputed.
  pgndb::index::PlayedMoves other = replay.moves;
  other.codes[0] = other.codes[1];
  std::string from_other;
  encode_game(replay.record(), from_other, nullptr, nullptr, 0, nullptr, &other);
  CHECK(from_other != plain);
  // One code too few: not the game's, so the moves are played instead.
  other = replay.moves;
  other.codes.pop_back();
  other.keys_after.pop_back();
  std::string from_short;
  encode_game(replay.record(), from_short, nullptr, nullptr, 0, nullptr, &other);
  CHECK(from_short == plain);
}

TEST_CASE("damaged stored games are Corruption, not a crash") {
  std::string bytes;
  encode_game(read_one("[Event \"x\"]\n\n1. e4 {a} (1. d4 d5) e5 2. Nf3 *\n"), bytes);
  REQUIRE(decode_game(bytes));
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    auto decoded = decode_game(std::string_view(bytes).substr(0, cut));
    CHECK_FALSE(decoded);
    if (!decoded) CHECK(decoded.error().code() == pgndb::index::Status::Code::Corruption);
  }
  // Decoding up to the end position reads every byte that comes before it.
  const auto after =
      pgn::parse_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  REQUIRE(after);
  const pgn::Key end = pgn::repetition_key(*after);
  auto whole = pgndb::index::decode_main_line_until(bytes, end);
  REQUIRE(whole);
  REQUIRE(*whole);
  CHECK((*whole)->ply == 3);
  for (std::size_t cut = 0; cut < bytes.size(); ++cut)
    CHECK_FALSE(pgndb::index::decode_main_line_until(std::string_view(bytes).substr(0, cut), end));
  std::string flipped = bytes;
  flipped[0] = 4;  // unknown version
  CHECK_FALSE(decode_game(flipped));
  CHECK_FALSE(decode_game(bytes + "x"));
}

// The codec numbers moves among the pseudo-legal ones (move_index.h). What it needs: every
// legal move gets an index that names it back, and the indices run in (from, to, promotion)
// order. Checked on every suite position and every position one move later.
TEST_CASE(
    "pseudo-legal move indices name every legal move back, in order, each pseudo-legal move's "
    "index names it back, and is_legal knows which are legal") {
  auto order = [](pgn::Move m) {
    return std::tuple(int(m.from()), int(m.to()),
                      m.kind() == pgn::Move::Promotion ? int(m.promotion()) : 0);
  };
  int positions = 0;
  long pseudo_legal = 0;
  auto check = [&](const pgn::Position& pos) {
    ++positions;
    auto legal = pgn::legal_moves(pos);
    std::vector<pgn::Move> sorted(legal.begin(), legal.end());
    std::sort(sorted.begin(), sorted.end(),
              [&](pgn::Move a, pgn::Move b) { return order(a) < order(b); });
    int previous = -1;
    for (pgn::Move m : sorted) {
      const unsigned index = pgndb::index::pseudo_legal_index(pos, m);
      const pgn::Move back = pgndb::index::pseudo_legal_move_at(pos, index);
      if (back != m || int(index) <= previous)
        FAIL_CHECK(pgn::to_fen(pos) << ": " << pgn::to_uci(pos, m) << " has index " << index);
      previous = int(index);
    }
    // Every pseudo-legal move is legal exactly when the legal move generator lists it.
    for (unsigned index = 0;; ++index) {
      const pgn::Move m = pgndb::index::pseudo_legal_move_at(pos, index);
      if (m.is_none()) break;
      // Both ways agree on every pseudo-legal move, not only the legal ones: the decoder finds
      // a move by counting pawns in bulk, the encoder numbers it the same way independently.
      if (pgndb::index::pseudo_legal_index(pos, m) != index)
        FAIL_CHECK(pgn::to_fen(pos)
                   << ": move " << index << ", " << pgn::to_uci(pos, m) << ", is numbered "
                   << pgndb::index::pseudo_legal_index(pos, m));
      if (pgndb::index::is_legal(pos, m) != legal.contains(m))
        FAIL_CHECK(pgn::to_fen(pos)
                   << ": " << pgn::to_uci(pos, m) << " is legal? " << legal.contains(m));
      ++pseudo_legal;
    }
  };
  const fs::path perft = fs::path(PGNDB_SHARED_DATA) / "perft";
  for (const char* suite :
       {"shakmaty/random.perft", "shakmaty/tricky.perft", "shakmaty/chess960.perft"}) {
    std::ifstream in(perft / suite);
    REQUIRE(in);
    for (std::string line; std::getline(in, line);) {
      if (!line.starts_with("epd ")) continue;
      auto pos = pgn::parse_fen(line.substr(4));
      REQUIRE(pos);
      check(*pos);
      for (pgn::Move m : pgn::legal_moves(*pos)) {
        pgn::Position next = *pos;
        next.play(m);
        check(next);
      }
    }
  }
  CHECK(positions > 100000);
  CHECK(pseudo_legal > 1000000);
}
