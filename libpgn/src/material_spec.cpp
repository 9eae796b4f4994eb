#include "pgn/material_spec.h"

#include <cctype>
#include <utility>

namespace pgn {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

// The piece a letter names (Pawn..Queen), King, or NoPieceType; 'L' is handled by the caller.
PieceType piece_of(char c) {
  switch (std::toupper(static_cast<unsigned char>(c))) {
    case 'P': return Pawn;
    case 'N': return Knight;
    case 'B': return Bishop;
    case 'R': return Rook;
    case 'Q': return Queen;
    case 'K': return King;
    default: return NoPieceType;
  }
}

std::string quoted(char c) { return std::string("'") + c + "'"; }

}  // namespace

bool MaterialSpec::Count::holds(int available, int opponents) const {
  switch (occurs) {
    case Occurs::Exactly: return available == number;
    case Occurs::AtLeast: return available >= number;
    case Occurs::AtMost: return available <= number;
    case Occurs::Same: return available == opponents;
    case Occurs::Different: return available != opponents;
    case Occurs::MoreBy: return available - number >= opponents;
    case Occurs::FewerBy: return available + number <= opponents;
    case Occurs::ExactlyMoreBy: return available - number == opponents;
    case Occurs::ExactlyFewerBy: return available + number == opponents;
  }
  return false;
}

void MaterialSpec::tabulate() {
  static_assert(MaterialBalance::most < 16 && 2 * MaterialBalance::most < 32);
  const int most = MaterialBalance::most;
  // The first side's count `a` against the second's `b`, for each side that judges kind t.
  const auto both_hold = [&](int t, int a, int b) {
    const bool minor_kind = t == Knight - Pawn || t == Bishop - Pawn;
    return (minor_kind && minor_given_[0] ? true : counts_[0][t].holds(a, b)) &&
           (minor_kind && minor_given_[1] ? true : counts_[1][t].holds(b, a));
  };
  for (int t = 0; t < 5; ++t)
    for (int a = 0; a <= most; ++a) {
      by_kind_[t][a] = 0;
      for (int b = 0; b <= most; ++b)
        if (both_hold(t, a, b)) by_kind_[t][a] |= std::uint16_t(1u << b);
    }
  for (int a = 0; a <= 2 * most; ++a) {
    by_minors_[a] = 0;
    for (int b = 0; b <= 2 * most; ++b)
      if ((!minor_given_[0] || counts_[0][minor].holds(a, b)) &&
          (!minor_given_[1] || counts_[1][minor].holds(b, a)))
        by_minors_[a] |= 1u << b;
  }
}

bool MaterialSpec::tables_pass(const MaterialBalance& balance, Color first, bool pawns) const {
  const auto& a = balance.count[first];
  const auto& b = balance.count[~first];
  bool pass = true;
  for (int t = pawns ? 0 : 1; t < 5; ++t) pass &= bool(by_kind_[t][a[t]] >> b[t] & 1);
  const int n = Knight - Pawn, bishop = Bishop - Pawn;
  return pass && (by_minors_[a[n] + a[bishop]] >> (b[n] + b[bishop]) & 1);
}

bool MaterialSpec::matches(const MaterialBalance& balance, Color first) const {
  return tables_pass(balance, first, true);
}

bool MaterialSpec::pieces_can_match(const MaterialBalance& balance, Color first) const {
  return tables_pass(balance, first, false);
}

std::uint16_t MaterialSpec::possible_counts(Color side, PieceType type, Color first) const {
  const auto& table = by_kind_[type - Pawn];
  std::uint16_t possible = 0;
  for (unsigned a = 0; a <= MaterialBalance::most; ++a)
    if (side == first)
      possible |= std::uint16_t(table[a] ? 1u << a : 0u);
    else
      possible |= table[a];
  return possible;
}

// One side's letters from `at`: returns where they end (a space or the end of the text).
std::expected<std::size_t, SpecError> MaterialSpec::parse_side(std::string_view text,
                                                               std::size_t at, MaterialSpec& spec,
                                                               int side) {
  auto& counts = spec.counts_[side];
  std::array<bool, 7> seen{};  // by PieceType; [0] for L
  while (at < text.size() && !is_space(text[at])) {
    const std::size_t letter_at = at;
    const char letter = text[at++];
    const bool is_minor = std::toupper(static_cast<unsigned char>(letter)) == 'L';
    const PieceType piece = piece_of(letter);
    if (!is_minor && piece == NoPieceType)
      return std::unexpected(SpecError{letter_at, "unknown piece letter " + quoted(letter) +
                                                      " (K Q R B N P, or L for a minor piece)"});
    bool& was_seen = seen[is_minor ? 0 : piece];
    if (was_seen)
      return std::unexpected(SpecError{letter_at, quoted(letter) + " is given twice for one side"});
    was_seen = true;

    Count count{Occurs::Exactly, 1};
    bool digit = false;
    if (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
      count.number = std::uint8_t(text[at++] - '0');
      digit = true;
      if (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])))
        return std::unexpected(SpecError{at, "a count is one digit (0 to 9)"});
    }
    if (at < text.size()) {
      const char c = text[at];
      const bool two = at + 1 < text.size() && text[at + 1] == '=';
      switch (c) {
        case '*':
          count = {Occurs::AtLeast, 0};
          ++at;
          break;
        case '+':
          count.occurs = Occurs::AtLeast;
          ++at;
          break;
        case '-':
          count.occurs = Occurs::AtMost;
          ++at;
          break;
        case '?':
          if (digit) return std::unexpected(SpecError{at, "'?' takes no count (it means 0 or 1)"});
          count = {Occurs::AtMost, 1};
          ++at;
          break;
        case '=':
          count.occurs = Occurs::Same;
          ++at;
          break;
        case '#':
          count.occurs = Occurs::Different;
          ++at;
          break;
        case '>':
          count.occurs = two ? Occurs::ExactlyMoreBy : Occurs::MoreBy;
          at += two ? 2 : 1;
          break;
        case '<':
          count.occurs = two ? Occurs::ExactlyFewerBy : Occurs::FewerBy;
          at += two ? 2 : 1;
          break;
        default: break;
      }
    }
    if (piece == King) {
      if (count.occurs != Occurs::Exactly || count.number != 1)
        return std::unexpected(SpecError{letter_at, "a king occurs exactly once"});
      continue;
    }
    if (piece == Pawn && count.number > 8 &&
        (count.occurs == Occurs::Exactly || count.occurs == Occurs::AtLeast))
      return std::unexpected(SpecError{letter_at, "a side has at most 8 pawns"});
    if (is_minor) {
      counts[minor] = count;
      // pgn-extract's rule: `L0` (exactly none) is no requirement.
      spec.minor_given_[side] = count.number > 0 || count.occurs != Occurs::Exactly;
    } else {
      counts[piece - Pawn] = count;
    }
  }
  return at;
}

std::optional<std::expected<MaterialSpec, SpecError>> MaterialSpec::parse_ending_name(
    std::string_view text) {
  // K<pieces>vK<pieces>, no spaces, a piece's letter repeated for each one. Text that starts so
  // (a K, then a v before any space) is an ending's name, and its faults are told as such.
  const auto v = text.find_first_of("vV");
  if (text.empty() || std::toupper(static_cast<unsigned char>(text[0])) != 'K' ||
      v == std::string_view::npos || text.find_first_of(" \t") < v)
    return std::nullopt;
  const auto fault = [](std::size_t at, std::string message) {
    return std::unexpected(SpecError{at, std::move(message)});
  };
  MaterialSpec spec;
  for (int side = 0; side < 2; ++side) {
    const std::size_t from = side == 0 ? 0 : v + 1;
    const std::size_t to = side == 0 ? v : text.size();
    if (from == to || std::toupper(static_cast<unsigned char>(text[from])) != 'K')
      return fault(from, "an ending's name is each side's pieces from its king: KRPvKR");
    for (std::size_t at = from + 1; at < to; ++at) {
      const PieceType piece = piece_of(text[at]);
      if (piece == NoPieceType || piece == King)
        return fault(at, "unexpected " + quoted(text[at]) + " in an ending's name (KQRBNP)");
      auto& count = spec.counts_[side][piece - Pawn];
      if (count.number == (piece == Pawn ? 8 : 9))
        return fault(at, "too many " + quoted(text[at]) + " for one side");
      ++count.number;
    }
  }
  return spec;
}

std::expected<MaterialSpec, SpecError> MaterialSpec::parse(std::string_view text) {
  auto spec = parse_text(text);
  if (spec) spec->tabulate();
  return spec;
}

std::expected<MaterialSpec, SpecError> MaterialSpec::parse_text(std::string_view text) {
  if (auto named = parse_ending_name(text)) return std::move(*named);
  MaterialSpec spec;
  std::size_t at = 0;
  while (at < text.size() && is_space(text[at])) ++at;
  if (at == text.size()) return std::unexpected(SpecError{at, "no material given"});
  if (std::isdigit(static_cast<unsigned char>(text[at]))) {
    const std::size_t digits_at = at;
    unsigned stable = 0;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
      stable = stable * 10 + unsigned(text[at++] - '0');
      if (stable > 65535)
        return std::unexpected(SpecError{digits_at, "stability above 65535 plies"});
    }
    if (at == text.size() || !is_space(text[at]))
      return std::unexpected(SpecError{
          at, "a leading number (the plies to last) is followed by a space and the pieces"});
    spec.stability_ = stable;
    while (at < text.size() && is_space(text[at])) ++at;
    if (at == text.size()) return std::unexpected(SpecError{at, "no material given"});
  }
  auto end = parse_side(text, at, spec, 0);
  if (!end) return std::unexpected(end.error());
  at = *end;
  while (at < text.size() && is_space(text[at])) ++at;
  if (at == text.size()) {
    // No second side: its material is anything.
    for (auto& count : spec.counts_[1]) count = {Occurs::AtLeast, 0};
    return spec;
  }
  end = parse_side(text, at, spec, 1);
  if (!end) return std::unexpected(end.error());
  at = *end;
  while (at < text.size() && is_space(text[at])) ++at;
  if (at != text.size())
    return std::unexpected(SpecError{at, "unexpected text after the second side's pieces"});
  return spec;
}

std::optional<unsigned> first_material_match(const MaterialHistory& history,
                                             const MaterialSpec& spec, unsigned stable,
                                             bool either_colour) {
  // Positions in a row, each with a move played from it (MaterialHistory::length).
  const unsigned needed = stable + 1;
  std::optional<unsigned> found;
  unsigned found_at_ply = 0;  // where the stretch reached `needed`
  for (Color first : {White, Black}) {
    if (first == Black && !either_colour) break;
    unsigned begin = 0, held = 0;  // the current stretch: its first ply, its plies so far
    for (std::size_t i = 0; i < history.runs.size(); ++i) {
      if (!spec.matches(history.runs[i].balance, first)) {
        held = 0;
        continue;
      }
      if (!held) begin = history.runs[i].ply;
      const unsigned length = history.length(i);
      if (held + length >= needed && length) {
        const unsigned reached = history.runs[i].ply + (needed - held) - 1;
        if (!found || reached < found_at_ply) found = begin, found_at_ply = reached;
        break;
      }
      held += length;
    }
  }
  return found;
}

}  // namespace pgn
