// The archive generator of the scale benchmark (issue 13; bench/README.md explains it): writes a
// synthetic PGN archive of any size to standard output.
//
// Openings are real: the first 8 to 20 plies of a game of the corpus (a sample of its games,
// read once at the start). The rest of each game is random legal moves, captures and checks a
// little more often than quiet moves, up to 40..122 plies in all (81 on average), stopping
// early at checkmate, stalemate or when neither side has mating material. Tags come from generated
// pools: ~20,000 events, ~2,000 sites, ~200,000 players picked with a Zipf-like skew (the most
// frequent have thousands of games). With --lichess the games look like lichess exports instead:
// handles, a game URL, UTC date and time, rating changes, and a `[%eval]` `[%clk]` comment after
// every move.
//
// Game number K is a function of the seed and K alone (each game seeds its own generators from
// both), so `--first-id 1000001 --games 1000` writes the 1,000 games that follow the first
// million of a larger archive, whatever N was.
#include <algorithm>
#include <cassert>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <expected>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "pgn/bitboard.h"
#include "pgn/material.h"
#include "pgn/movegen.h"
#include "pgn/position.h"
#include "pgn/reader.h"
#include "pgn/san.h"

namespace {

constexpr std::string_view usage =
    "usage: scale-archive --corpus DIR --games N [--seed S] [--first-id K] [--lichess]\n"
    "                     [--openings N] [--stats]\n"
    "Writes N synthetic PGN games (numbers K..K+N-1, default K = 1) to standard output.\n"
    "  --corpus DIR    PGN files whose games give the openings\n"
    "  --openings N    how many corpus games to sample openings from (default 50000)\n"
    "  --lichess       lichess-style games: handles, URLs, [%eval] and [%clk] comments\n"
    "  --stats         print games, plies, bytes and speed to standard error at the end\n";

// --- Random numbers ---

// splitmix64's finaliser: a bijection that scatters nearby inputs far apart.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// splitmix64: small state, fast, and good enough for test data.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  // A generator for one purpose (`stream`) of one game: the same for the same seed and game.
  static Rng for_game(std::uint64_t seed, std::uint64_t game, std::uint64_t stream) {
    return Rng(mix64(mix64(seed + stream * 0x9e3779b97f4a7c15ULL) ^ game));
  }

  std::uint64_t next() { return mix64(state_ += 0x9e3779b97f4a7c15ULL); }
  // Uniform in [0, n), n > 0 (multiply-shift; the bias is below 2^-32).
  std::uint32_t below(std::uint32_t n) {
    return std::uint32_t(((next() >> 32) * std::uint64_t(n)) >> 32);
  }
  // Uniform in [lo, hi].
  int between(int lo, int hi) { return lo + int(below(std::uint32_t(hi - lo + 1))); }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return unit() < p; }

 private:
  std::uint64_t state_;
};

// Picks 0..n-1 with probability about proportional to 1 / (i + q) (Zipf with exponent 1,
// flattened at the head by q): with n = 200,000 and q = 50, the first gets 0.24% of the picks
// (24,000 of 10 million), the 1,000th 0.011%, the 100,000th 0.0001%.
class SkewedPick {
 public:
  SkewedPick(std::uint32_t n, double q) : n_(n), q_(q), log_span_(std::log((n + q) / q)) {}
  std::uint32_t operator()(Rng& rng) const {
    const double x = q_ * std::exp(rng.unit() * log_span_) - q_;
    return std::min(std::uint32_t(x), n_ - 1);
  }

 private:
  std::uint32_t n_;
  double q_;
  double log_span_;
};

// --- Text building ---

// A token of movetext (a move with its number, a comment) built in place: no allocation and no
// capacity checks beyond one assertion, as it is built twice per ply.
class Token {
 public:
  static constexpr std::size_t capacity = 96;  // the longest is a comment of about 40 bytes

  void clear() { size_ = 0; }
  Token& operator+=(char c) {
    assert(size_ < capacity);
    text_[size_++] = c;
    return *this;
  }
  Token& operator+=(std::string_view s) { return append(s.data(), s.data() + s.size()); }
  Token& append(const char* begin, const char* end) {
    assert(size_ + std::size_t(end - begin) <= capacity);
    std::memcpy(text_ + size_, begin, std::size_t(end - begin));
    size_ += std::size_t(end - begin);
    return *this;
  }
  std::string_view view() const { return std::string_view(text_, size_); }

 private:
  char text_[capacity];
  std::size_t size_ = 0;
};

// The helpers below write to a std::string or a Token.
template <typename Text>
void append_uint(Text& s, std::uint64_t v) {
  char buffer[24];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  s.append(buffer, r.ptr);
}

template <typename Text>
void append_2digits(Text& s, unsigned v) {
  s += char('0' + v / 10);
  s += char('0' + v % 10);
}

void append_tag(std::string& s, std::string_view name, std::string_view value) {
  s += '[';
  s += name;
  s += " \"";
  s += value;
  s += "\"]\n";
}

void append_uint_tag(std::string& s, std::string_view name, std::uint64_t value) {
  s += '[';
  s += name;
  s += " \"";
  append_uint(s, value);
  s += "\"]\n";
}

// Strings kept end to end in one buffer: a pool of hundreds of thousands of names costs two
// allocations.
class StringPool {
 public:
  std::size_t size() const { return ends_.size(); }
  std::string_view operator[](std::size_t i) const {
    const std::uint32_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(text_).substr(begin, ends_[i] - begin);
  }
  void push_back(std::string_view s) {
    text_ += s;
    ends_.push_back(std::uint32_t(text_.size()));
  }

 private:
  std::string text_;
  std::vector<std::uint32_t> ends_;
};

// --- Generated names ---

constexpr std::string_view onsets[] = {
    "b", "br", "ch", "d", "dr", "f",  "g",  "gr", "h",  "j", "k", "kr", "l", "m",  "n",
    "p", "pl", "r",  "s", "sh", "sl", "st", "t",  "tr", "v", "z", "zh", "w", "kh", "",
};
constexpr std::string_view vowels[] = {"a", "e",  "i",  "o",  "u",  "a", "e",
                                       "o", "ai", "ei", "ia", "ou", "y"};
constexpr std::string_view codas[] = {"",  "",  "",   "",   "n",  "r", "s", "l",
                                      "m", "k", "rt", "nd", "sk", "v", "z"};
constexpr std::string_view surname_endings[] = {
    "",    "",     "",   "",     "ov",  "ev",   "in",  "ski", "son",  "sen",  "ez",    "er",
    "ian", "enko", "ic", "escu", "ani", "berg", "man", "ner", "ides", "ovic", "stein", "elli"};
constexpr std::string_view city_endings[] = {"",      "",    "",     "",    "burg", "grad",
                                             "ville", "ton", "stad", "ovo", "ica",  "heim"};
constexpr std::string_view countries[] = {
    "NED", "GER", "RUS", "USA", "ESP", "FRA", "ENG", "HUN", "SRB", "CRO", "ARM", "IND", "CHN",
    "ARG", "CUB", "SWE", "NOR", "POL", "CZE", "UKR", "ISR", "ITA", "SUI", "AUT", "ROU", "BUL"};
constexpr std::string_view event_kinds[] = {
    "Open",    "Championship",  "International", "Festival",     "Cup",
    "Masters", "Rapid",         "Blitz",         "Invitational", "Team Championship",
    "Zonal",   "Chess Classic", "GM Tournament", "Summer Open",  "Winter Open"};

template <std::size_t N>
std::string_view pick(Rng& rng, const std::string_view (&choices)[N]) {
  return choices[rng.below(N)];
}

// A pronounceable lowercase word of `syllables` syllables.
void append_word(std::string& s, Rng& rng, int syllables) {
  for (int i = 0; i < syllables; ++i) {
    s += pick(rng, onsets);
    s += pick(rng, vowels);
    if (i + 1 == syllables || rng.chance(0.3)) s += pick(rng, codas);
  }
}

void capitalize_from(std::string& s, std::size_t at) {
  if (at < s.size() && s[at] >= 'a' && s[at] <= 'z') s[at] = char(s[at] - 'a' + 'A');
}

// Builds `count` distinct strings, each made by `make` from the generator.
template <typename Make>
StringPool distinct_pool(std::uint64_t seed, std::size_t count, Make make) {
  Rng rng(seed);
  StringPool pool;
  std::unordered_set<std::string> seen;
  seen.reserve(count * 2);
  std::string s;
  while (pool.size() < count) {
    s.clear();
    make(rng, s);
    if (seen.insert(s).second) pool.push_back(s);
  }
  return pool;
}

// "Kovarenko, Mirad" or "Drelson, J.".
StringPool player_names(std::uint64_t seed, std::size_t count) {
  return distinct_pool(seed, count, [](Rng& rng, std::string& s) {
    append_word(s, rng, rng.between(1, 3));
    s += pick(rng, surname_endings);
    capitalize_from(s, 0);
    s += ", ";
    const std::size_t first = s.size();
    if (rng.chance(0.15)) {
      s += char('A' + rng.below(26));
      s += '.';
    } else {
      append_word(s, rng, rng.between(1, 2));
      capitalize_from(s, first);
    }
  });
}

// Lichess-style handles: letters and digits, at most 20 ("Zhorkan77", "tremolaiBest").
StringPool lichess_handles(std::uint64_t seed, std::size_t count) {
  return distinct_pool(seed, count, [](Rng& rng, std::string& s) {
    append_word(s, rng, rng.between(1, 3));
    if (rng.chance(0.5)) capitalize_from(s, 0);
    if (rng.chance(0.4)) {
      const std::size_t second = s.size();
      append_word(s, rng, rng.between(1, 2));
      capitalize_from(s, second);
    }
    if (rng.chance(0.5)) append_uint(s, rng.below(rng.chance(0.5) ? 100 : 10000));
    if (s.size() > 20) s.resize(20);
  });
}

// "Brastadgrad" or "Kelmo NED".
StringPool site_names(std::uint64_t seed, std::size_t count) {
  return distinct_pool(seed, count, [](Rng& rng, std::string& s) {
    append_word(s, rng, rng.between(2, 3));
    s += pick(rng, city_endings);
    capitalize_from(s, 0);
    if (rng.chance(0.5)) {
      s += ' ';
      s += pick(rng, countries);
    }
  });
}

struct Event {
  std::uint32_t site;  // index into the site pool
  int year;
};

// Events, each held at one site in one year; names like "Brastad Open 1987" or "Kovar Memorial".
struct EventPool {
  StringPool names;
  std::vector<Event> events;
};

EventPool event_pool(std::uint64_t seed, std::size_t count, const StringPool& sites) {
  EventPool pool;
  Rng rng(seed);
  std::unordered_set<std::string> seen;
  seen.reserve(count * 2);
  std::string s;
  while (pool.events.size() < count) {
    const Event e{rng.below(std::uint32_t(sites.size())), rng.between(1950, 2025)};
    s.clear();
    if (rng.chance(0.15)) {
      append_word(s, rng, rng.between(2, 3));
      s += pick(rng, surname_endings);
      capitalize_from(s, 0);
      s += " Memorial";
    } else {
      std::string_view city = sites[e.site];
      city = city.substr(0, city.find(' '));  // without the country code
      s += city;
      s += ' ';
      s += pick(rng, event_kinds);
    }
    if (rng.chance(0.6)) {
      s += ' ';
      append_uint(s, std::uint64_t(e.year));
    }
    if (!seen.insert(s).second) continue;
    pool.names.push_back(s);
    pool.events.push_back(e);
  }
  return pool;
}

// --- Openings ---

struct Opening {
  std::uint32_t offset;  // of its first move in OpeningBook::moves
  std::uint8_t plies;
  std::uint16_t white_elo, black_elo;  // 0 when the corpus game has none
  char eco[4];                         // empty when the corpus game has none
};

struct OpeningBook {
  std::vector<pgn::Move> moves;
  std::vector<Opening> openings;
};

constexpr int max_opening_plies = 20;

std::uint16_t parse_elo(std::string_view text) {
  unsigned v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size() || v < 100 || v > 3500) return 0;
  return std::uint16_t(v);
}

// Keeps the first plies of each game read (replayed, so that only legal moves are kept), its
// ratings and ECO code. Games set up from a FEN or of another variant are left out.
class OpeningCollector final : public pgn::Visitor {
 public:
  explicit OpeningCollector(OpeningBook& book) : book_(book) {}

  pgn::Control begin_game(pgn::Location) override {
    position_ = pgn::Position();
    plies_ = 0;
    usable_ = true;
    current_ = Opening{std::uint32_t(book_.moves.size()), 0, 0, 0, {}};
    return pgn::Control::Continue;
  }
  pgn::Control tag(std::string_view name, std::string_view value, pgn::Location) override {
    if (name == "WhiteElo") {
      current_.white_elo = parse_elo(value);
    } else if (name == "BlackElo") {
      current_.black_elo = parse_elo(value);
    } else if (name == "ECO") {
      if (value.size() == 3 && value[0] >= 'A' && value[0] <= 'E' && value[1] >= '0' &&
          value[1] <= '9' && value[2] >= '0' && value[2] <= '9')
        std::memcpy(current_.eco, value.data(), 3);
    } else if (name == "FEN" || name == "SetUp" || name == "Variant") {
      usable_ = false;
    }
    return pgn::Control::Continue;
  }
  pgn::Control move(const pgn::MoveToken& token) override {
    if (!usable_) return pgn::Control::Skip;
    const auto m = pgn::parse_san(position_, token.san);
    if (!m || m->is_null()) return pgn::Control::Skip;  // keep the plies before it
    position_.play(*m);
    book_.moves.push_back(*m);
    return ++plies_ == max_opening_plies ? pgn::Control::Skip : pgn::Control::Continue;
  }
  void end_game(std::string_view) override {
    if (!usable_ || plies_ == 0) {
      book_.moves.resize(current_.offset);
      return;
    }
    current_.plies = std::uint8_t(plies_);
    book_.openings.push_back(current_);
  }

 private:
  OpeningBook& book_;
  pgn::Position position_;
  Opening current_{};
  int plies_ = 0;
  bool usable_ = true;
};

// Reads openings from the .pgn files of `dir` (in name order): `limit` games in all, about the
// same number from the start of each file, so that every file contributes.
std::expected<OpeningBook, std::string> read_openings(const std::string& dir, std::size_t limit) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  if (ec) return std::unexpected("cannot read the corpus directory " + dir + ": " + ec.message());
  for (; it != end; it.increment(ec))
    if (it->path().extension() == ".pgn") files.push_back(it->path());
  if (ec) return std::unexpected("cannot read the corpus directory " + dir + ": " + ec.message());
  if (files.empty()) return std::unexpected("no .pgn files in " + dir);
  std::sort(files.begin(), files.end());

  OpeningBook book;
  const std::size_t expected = std::min<std::size_t>(limit, 1 << 20);  // limit may be huge
  book.moves.reserve(expected * max_opening_plies);
  book.openings.reserve(expected);
  OpeningCollector collector(book);
  for (std::size_t i = 0; i < files.size(); ++i) {
    // What is left shared among the files left, so that a short file leaves its share to them.
    const std::size_t left = limit - book.openings.size(), files_left = files.size() - i;
    const std::size_t share = (left + files_left - 1) / files_left;
    const std::string path = files[i].string();
    auto source = pgn::FileSource::open(path);
    if (!source) return std::unexpected(source.error());
    pgn::Reader reader(**source);
    for (std::size_t games = 0; games < share && book.openings.size() < limit; ++games) {
      const auto read = reader.read_game(collector);
      if (!read) return std::unexpected(path + ": " + read.error());
      if (!*read) break;
    }
  }
  if (book.openings.empty()) return std::unexpected("no games with moves in " + dir);
  return book;
}

// --- Games ---

struct Options {
  std::string corpus;
  std::uint64_t games = 0;
  std::uint64_t seed = 1;
  std::uint64_t first_id = 1;
  std::size_t openings = 50000;
  bool lichess = false;
  bool stats = false;
};

enum class Result { WhiteWins, BlackWins, Draw };

std::string_view result_text(Result r) {
  switch (r) {
    case Result::WhiteWins: return "1-0";
    case Result::BlackWins: return "0-1";
    case Result::Draw: return "1/2-1/2";
  }
  return "*";
}

// Movetext wrapped at 80 columns: tokens separated by a space, a line break instead of the
// space where the next token would pass the limit.
class Movetext {
 public:
  static constexpr std::size_t columns = 80;

  void clear() {
    text_.clear();
    column_ = 0;
  }
  void token(std::string_view t) {
    if (column_ > 0) {
      if (column_ + 1 + t.size() > columns) {
        text_ += '\n';
        column_ = 0;
      } else {
        text_ += ' ';
        ++column_;
      }
    }
    text_ += t;
    column_ += t.size();
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::size_t column_ = 0;
};

// A random legal move: captures, promotions and checks weigh three times a quiet move, so that
// material comes off and some games end in mate. Drawn by rejection (a quiet move drawn is kept
// one time in three), which gives those weights without looking at every move.
class MovePicker {
 public:
  explicit MovePicker(const pgn::Position& pos) : pos_(pos) {
    // The squares from which each piece would attack the enemy king (direct checks; a
    // discovered check or a line the moving piece itself opens is not seen: this only weights
    // the choice).
    const pgn::Color us = pos.side_to_move();
    const pgn::Square king = pos.king_square(~us);
    const pgn::Bitboard occupied = pos.occupied();
    checks_[pgn::Pawn] = pgn::pawn_attacks(~us, king);
    checks_[pgn::Knight] = pgn::knight_attacks(king);
    checks_[pgn::Bishop] = pgn::bishop_attacks(king, occupied);
    checks_[pgn::Rook] = pgn::rook_attacks(king, occupied);
    checks_[pgn::Queen] = checks_[pgn::Bishop] | checks_[pgn::Rook];
    checks_[pgn::King] = 0;
  }

  pgn::Move operator()(const pgn::MoveList& moves, Rng& rng) const {
    for (;;) {
      const pgn::Move m = moves[rng.below(std::uint32_t(moves.size()))];
      if (is_forcing(m) || rng.below(3) == 0) return m;
    }
  }

 private:
  bool is_forcing(pgn::Move m) const {
    switch (m.kind()) {
      case pgn::Move::Promotion:
      case pgn::Move::EnPassant: return true;
      case pgn::Move::Castling: return false;
      case pgn::Move::Normal: break;
    }
    return pos_.piece_on(m.to()) != pgn::NoPiece ||
           (checks_[pos_.moved_piece_type(m)] & pgn::square_bb(m.to()));
  }

  const pgn::Position& pos_;
  pgn::Bitboard checks_[7] = {};
};

// Lichess's engine evaluation, from White's side: a random walk in centipawns pulled towards a
// target that grows with the game for the side meant to win (0 for a draw), with a blunder now
// and then, and sometimes a forced mate announced (`#3`, `#-2`) that counts down.
class Evaluation {
 public:
  explicit Evaluation(Result intended)
      : winner_(intended == Result::WhiteWins   ? 1
                : intended == Result::BlackWins ? -1
                                                : 0) {}

  // After a move by `mover`, the game's `ply`-th (from 0).
  void step(Rng& rng, pgn::Color mover, int ply) {
    if (mate_ != 0) {
      const int sign = mate_ > 0 ? 1 : -1;
      if (rng.chance(0.1)) {  // the mate was missed
        centipawns_ = sign * rng.between(300, 900);
        mate_ = 0;
      } else if ((sign > 0) == (mover == pgn::White)) {
        mate_ -= sign;
        if (mate_ == 0) centipawns_ = sign * 900;
      }
      return;
    }
    const int target = winner_ * ply * 8;
    const double noise = (rng.unit() + rng.unit() + rng.unit() - 1.5) * 50;
    int step = int(noise) + (target - centipawns_) / 25;
    if (rng.chance(0.02)) step += (rng.chance(0.5) ? 1 : -1) * rng.between(100, 400);
    centipawns_ = std::clamp(centipawns_ + step, -2500, 2500);
    if (std::abs(centipawns_) > 600 && rng.chance(0.05))
      mate_ = (centipawns_ > 0 ? 1 : -1) * rng.between(1, 9);
  }

  // "0.25", "-1.3", "#-3".
  template <typename Text>
  void append(Text& s) const {
    if (mate_ != 0) {
      s += mate_ > 0 ? "#" : "#-";
      append_uint(s, std::uint64_t(std::abs(mate_)));
      return;
    }
    if (centipawns_ < 0) s += '-';
    const unsigned cp = unsigned(std::abs(centipawns_));
    append_uint(s, cp / 100);
    s += '.';
    s += char('0' + cp / 10 % 10);
    if (cp % 10 != 0) s += char('0' + cp % 10);
  }

 private:
  int winner_;  // 1 White, -1 Black, 0 a draw
  int centipawns_ = 20;
  int mate_ = 0;  // moves to mate, positive for White, 0 when none is announced
};

// "0:02:58".
template <typename Text>
void append_clock(Text& s, int seconds) {
  append_uint(s, std::uint64_t(seconds / 3600));
  s += ':';
  append_2digits(s, unsigned(seconds / 60 % 60));
  s += ':';
  append_2digits(s, unsigned(seconds % 60));
}

struct Pools {
  StringPool players;  // names or lichess handles
  StringPool sites;
  EventPool events;
  SkewedPick player_pick;
  SkewedPick event_pick;
};

struct Totals {
  std::uint64_t games = 0, plies = 0, bytes = 0, mates = 0, stalemates = 0;
};

class Generator {
 public:
  Generator(const Options& options, const OpeningBook& book, const Pools& pools)
      : options_(options), book_(book), pools_(pools) {}

  // Appends game number `id` to `out`.
  void write_game(std::uint64_t id, std::string& out, Totals& totals) {
    const std::size_t start = out.size();
    Rng moves_rng = Rng::for_game(options_.seed, id, 1);
    const Opening& opening = book_.openings[moves_rng.below(std::uint32_t(book_.openings.size()))];
    const int opening_plies = std::min(moves_rng.between(8, max_opening_plies), int(opening.plies));
    const int length = moves_rng.between(40, 122);
    const int r = moves_rng.between(0, 9);
    Result result = r < 4 ? Result::WhiteWins : r < 7 ? Result::BlackWins : Result::Draw;

    Evaluation eval(result);
    int clock[2] = {180, 180};
    movetext_.clear();
    pgn::Position pos;
    int ply = 0;
    for (;; ++ply) {
      pgn::generate_legal_moves(pos, moves_);
      if (moves_.empty()) {
        if (pos.in_check()) {
          result = pos.side_to_move() == pgn::White ? Result::BlackWins : Result::WhiteWins;
          ++totals.mates;
        } else {
          result = Result::Draw;
          ++totals.stalemates;
        }
        break;
      }
      if (ply == length) break;
      if (pgn::insufficient_material(pos)) {
        result = Result::Draw;
        break;
      }
      const pgn::Move m = ply < opening_plies ? book_.moves[opening.offset + ply]
                                              : MovePicker(pos)(moves_, moves_rng);
      const pgn::Color mover = pos.side_to_move();
      token_.clear();
      if (mover == pgn::White || options_.lichess) {  // lichess: "1. e4 { ... } 1... e5"
        append_uint(token_, std::uint64_t(ply / 2 + 1));
        token_ += mover == pgn::White ? ". " : "... ";
      }
      token_ += pgn::to_san(pos, m);
      movetext_.token(token_.view());
      pos.play(m);
      if (options_.lichess) {
        // Seconds spent: little in the first moves, then a share of what is left.
        int& left = clock[mover];
        if (ply >= 2) left -= moves_rng.between(0, std::min(12, left / 10));
        token_.clear();
        token_ += "{ ";
        eval.step(moves_rng, mover, ply);
        if (!pos.in_check() || pgn::has_legal_move(pos)) {  // lichess gives no eval after mate
          token_ += "[%eval ";
          eval.append(token_);
          token_ += "] ";
        }
        token_ += "[%clk ";
        append_clock(token_, left);
        token_ += "] }";
        movetext_.token(token_.view());
      }
    }
    movetext_.token(result_text(result));

    Rng tags_rng = Rng::for_game(options_.seed, id, 2);
    if (options_.lichess)
      lichess_tags(tags_rng, opening, result, out);
    else
      tags(tags_rng, opening, result, out);
    out += '\n';
    out += movetext_.text();
    out += "\n\n";

    ++totals.games;
    totals.plies += std::uint64_t(ply);
    totals.bytes += out.size() - start;
  }

 private:
  // Two different players, skewed towards the head of the pool.
  std::pair<std::uint32_t, std::uint32_t> players(Rng& rng) const {
    const std::uint32_t white = pools_.player_pick(rng);
    std::uint32_t black = pools_.player_pick(rng);
    while (black == white) black = pools_.player_pick(rng);
    return {white, black};
  }

  // A player's rating in a game: their own level, give or take 40.
  int rating(std::uint32_t player, Rng& rng) const {
    const int level = 1200 + int(mix64(options_.seed ^ (0xe10ULL << 40) ^ player) % 1651);
    return std::clamp(level + rng.between(-40, 40), 1200, 2850);
  }

  void tags(Rng& rng, const Opening& opening, Result result, std::string& out) const {
    const std::uint32_t event = pools_.event_pick(rng);
    const Event& e = pools_.events.events[event];
    const auto [white, black] = players(rng);
    append_tag(out, "Event", pools_.events.names[event]);
    append_tag(out, "Site", pools_.sites[e.site]);
    out += "[Date \"";
    append_uint(out, std::uint64_t(e.year));
    const double date_kind = rng.unit();
    if (date_kind < 0.08) {
      out += ".??.??";
    } else {
      const unsigned month = unsigned(rng.between(1, 12));
      out += '.';
      append_2digits(out, month);
      if (date_kind < 0.14) {
        out += ".??";
      } else {
        constexpr unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        out += '.';
        append_2digits(out, 1 + rng.below(days[month - 1]));
      }
    }
    out += "\"]\n";
    append_uint_tag(out, "Round", std::uint64_t(rng.between(1, 11)));
    append_tag(out, "White", pools_.players[white]);
    append_tag(out, "Black", pools_.players[black]);
    append_tag(out, "Result", result_text(result));
    const int white_elo = opening.white_elo ? opening.white_elo : rating(white, rng);
    const int black_elo = opening.black_elo ? opening.black_elo : rating(black, rng);
    append_uint_tag(out, "WhiteElo", std::uint64_t(white_elo));
    append_uint_tag(out, "BlackElo", std::uint64_t(black_elo));
    if (opening.eco[0]) append_tag(out, "ECO", std::string_view(opening.eco, 3));
  }

  void lichess_tags(Rng& rng, const Opening& opening, Result result, std::string& out) const {
    using namespace std::chrono;
    constexpr int first_day = 15706;  // 2013-01-01, in days since 1970-01-01
    constexpr int last_day = 20453;   // 2025-12-31
    const year_month_day day{sys_days{days{rng.between(first_day, last_day)}}};
    std::string date;
    append_uint(date, std::uint64_t(int(day.year())));
    date += '.';
    append_2digits(date, unsigned(day.month()));
    date += '.';
    append_2digits(date, unsigned(day.day()));

    const auto [white, black] = players(rng);
    append_tag(out, "Event", "Rated Blitz game");
    out += "[Site \"https://lichess.org/";
    constexpr std::string_view alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    for (int i = 0; i < 8; ++i) out += alphabet[rng.below(std::uint32_t(alphabet.size()))];
    out += "\"]\n";
    append_tag(out, "Date", date);
    append_tag(out, "Round", "-");
    append_tag(out, "White", pools_.players[white]);
    append_tag(out, "Black", pools_.players[black]);
    append_tag(out, "Result", result_text(result));
    append_tag(out, "UTCDate", date);
    out += "[UTCTime \"";
    append_2digits(out, rng.below(24));
    out += ':';
    append_2digits(out, rng.below(60));
    out += ':';
    append_2digits(out, rng.below(60));
    out += "\"]\n";
    const int white_elo = rating(white, rng), black_elo = rating(black, rng);
    append_uint_tag(out, "WhiteElo", std::uint64_t(white_elo));
    append_uint_tag(out, "BlackElo", std::uint64_t(black_elo));
    // Glicko-like change: K = 20 times (score - expected score).
    const double expected = 1 / (1 + std::pow(10.0, (black_elo - white_elo) / 400.0));
    const double score = result == Result::WhiteWins ? 1 : result == Result::BlackWins ? 0 : 0.5;
    const int diff = int(std::lround(20 * (score - expected)));
    auto append_diff = [&](std::string_view name, int d) {
      out += '[';
      out += name;
      out += " \"";
      out += d > 0 ? "+" : d < 0 ? "-" : "";
      append_uint(out, std::uint64_t(std::abs(d)));
      out += "\"]\n";
    };
    append_diff("WhiteRatingDiff", diff);
    append_diff("BlackRatingDiff", -diff);
    if (opening.eco[0]) append_tag(out, "ECO", std::string_view(opening.eco, 3));
    append_tag(out, "TimeControl", "180+0");
    append_tag(out, "Termination", "Normal");
  }

  const Options& options_;
  const OpeningBook& book_;
  const Pools& pools_;
  pgn::MoveList moves_;
  Movetext movetext_;
  Token token_;
};

std::expected<std::uint64_t, std::string> parse_number(std::string_view option,
                                                       std::string_view text) {
  std::uint64_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
    return std::unexpected(std::string(option) + " needs a number, not \"" + std::string(text) +
                           "\"");
  return v;
}

std::expected<Options, std::string> parse_options(int argc, char** argv) {
  Options o;
  bool has_games = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--lichess") {
      o.lichess = true;
      continue;
    }
    if (a == "--stats") {
      o.stats = true;
      continue;
    }
    if (a != "--corpus" && a != "--games" && a != "--seed" && a != "--first-id" &&
        a != "--openings")
      return std::unexpected("unknown option " + std::string(a));
    if (i + 1 >= argc) return std::unexpected(std::string(a) + " needs a value");
    const std::string_view value = argv[++i];
    if (a == "--corpus") {
      o.corpus = value;
      continue;
    }
    const auto n = parse_number(a, value);
    if (!n) return std::unexpected(n.error());
    if (a == "--games") {
      o.games = *n;
      has_games = true;
    } else if (a == "--seed") {
      o.seed = *n;
    } else if (a == "--first-id") {
      o.first_id = *n;
    } else {
      o.openings = *n;
    }
  }
  if (o.corpus.empty()) return std::unexpected("--corpus DIR is required");
  if (!has_games) return std::unexpected("--games N is required");
  if (o.first_id == 0) return std::unexpected("--first-id counts from 1");
  if (o.openings == 0) return std::unexpected("--openings must be at least 1");
  return o;
}

int fail(std::string_view message) {
  std::fprintf(stderr, "scale-archive: %.*s\n", int(message.size()), message.data());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--help" || std::string_view(argv[i]) == "-h") {
      std::fwrite(usage.data(), 1, usage.size(), stdout);
      return 0;
    }
  }
  const auto options = parse_options(argc, argv);
  if (!options) return fail(options.error() + " (--help for usage)");
  const auto started = std::chrono::steady_clock::now();

  const auto book = read_openings(options->corpus, options->openings);
  if (!book) return fail(book.error());
  // Pool seeds depend on the run's seed only, never on the games asked for.
  const std::uint64_t seed = options->seed;
  constexpr std::uint32_t player_count = 200000, site_count = 2000, event_count = 20000;
  Pools pools{
      options->lichess ? lichess_handles(mix64(seed ^ 0x11), player_count)
                       : player_names(mix64(seed ^ 0x12), player_count),
      options->lichess ? StringPool() : site_names(mix64(seed ^ 0x13), site_count),
      {},
      SkewedPick(player_count, 50),
      SkewedPick(event_count, 200),
  };
  if (!options->lichess) pools.events = event_pool(mix64(seed ^ 0x14), event_count, pools.sites);
  const auto ready = std::chrono::steady_clock::now();

  Generator generator(*options, *book, pools);
  Totals totals;
  std::string out;
  constexpr std::size_t flush_at = std::size_t(1) << 20;
  out.reserve(flush_at + (std::size_t(64) << 10));
  for (std::uint64_t i = 0; i < options->games; ++i) {
    generator.write_game(options->first_id + i, out, totals);
    if (out.size() >= flush_at || i + 1 == options->games) {
      if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size())
        return fail("cannot write to standard output");
      out.clear();
    }
  }
  if (std::fflush(stdout) != 0) return fail("cannot write to standard output");

  if (options->stats) {
    const auto done = std::chrono::steady_clock::now();
    const double setup = std::chrono::duration<double>(ready - started).count();
    const double seconds = std::chrono::duration<double>(done - ready).count();
    const double games = double(std::max<std::uint64_t>(totals.games, 1));
    std::fprintf(stderr,
                 "scale-archive: %zu openings read and pools built in %.2f s; %llu games in "
                 "%.2f s (%.0f games/s), %.1f plies and %.0f bytes per game, %.2f%% mates, "
                 "%.2f%% stalemates\n",
                 book->openings.size(), setup, static_cast<unsigned long long>(totals.games),
                 seconds, double(totals.games) / std::max(seconds, 1e-9),
                 double(totals.plies) / games, double(totals.bytes) / games,
                 100.0 * double(totals.mates) / games, 100.0 * double(totals.stalemates) / games);
  }
  return 0;
}
