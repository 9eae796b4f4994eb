// What a material search asks for, written as chess players write it: an ending's name
// (`KRPvKR`, `KQvKR`: each side's pieces, White's first, exactly these) or pgn-extract's material
// syntax (its -y and -z files, which its users know), e.g. `r2p* r=p1>=`:
//
//   [stability] pieces1 [pieces2]
//
// Each side lists piece letters (Q R B N P, any case; K optional, once; L for a minor piece,
// a bishop or a knight), each followed by how many: nothing (exactly one), a digit d (exactly d),
// `*` (any number), `+` or `d+` (at least 1 or d), `-` or `d-` (at most 1 or d), `?` (at most
// one); or, against the other side's number of the same piece: `=` (the same), `#` (a different),
// `>` or `d>` (at least 1 or d more), `<` or `d<` (at least 1 or d fewer), `>=` or `d>=` (exactly 1
// or d more), `<=` or `d<=` (exactly 1 or d fewer). A piece not listed is absent from that side;
// with the second side left out, its material is anything. A leading number is how many plies the
// balance must last (pgn-extract's stability). The meaning is pgn-extract's, including where
// it is odd: a side with an L requirement ignores what it says of bishops and knights (pgn-extract
// warns that mixing them is not exact), and `L0` is no requirement at all.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "pgn/material_balance.h"

namespace pgn {

struct SpecError {
  std::size_t offset;  // 0-based, into the text parsed
  std::string message;
};

class MaterialSpec {
 public:
  [[nodiscard]] static std::expected<MaterialSpec, SpecError> parse(std::string_view text);

  // Whether `balance` matches with the first side's pieces as `first`'s (White for pgn-extract's
  // -y; -z tries both).
  [[nodiscard]] bool matches(const MaterialBalance& balance, Color first = White) const;
  [[nodiscard]] bool matches_either(const MaterialBalance& balance) const {
    return matches(balance, White) || matches(balance, Black);
  }
  // The stability written before the sides, if any.
  [[nodiscard]] std::optional<unsigned> stability() const { return stability_; }

  // Whether a balance with these piece counts (all but pawns) can match, whatever the pawns: the
  // index's first, coarser test. Exact: each kind of piece is checked by itself.
  [[nodiscard]] bool pieces_can_match(const MaterialBalance& balance, Color first = White) const;
  // The counts of kind `type` that `side` may have in a matching balance (bit c: c pieces), the
  // first side's pieces as `first`'s: each count that passes with some count of the other side.
  // A necessary test, kind by kind (the minor pieces' sums are not in it): what lets an index
  // skip the balances whose counts no search of this spec can want.
  [[nodiscard]] std::uint16_t possible_counts(Color side, PieceType type,
                                              Color first = White) const;

 private:
  enum class Occurs : std::uint8_t {
    Exactly,
    AtLeast,
    AtMost,
    Same,
    Different,
    MoreBy,
    FewerBy,
    ExactlyMoreBy,
    ExactlyFewerBy
  };
  struct Count {
    Occurs occurs = Occurs::Exactly;
    std::uint8_t number = 0;
    bool holds(int available, int opponents) const;
  };
  // [side][Pawn..Queen, then the minor pieces], side 0 the first written.
  static constexpr int minor = 5;
  std::array<std::array<Count, 6>, 2> counts_{};
  std::array<bool, 2> minor_given_{};
  std::optional<unsigned> stability_;
  // The counts as tables, filled once parsed: a search asks about millions of balances. A spec
  // judges each kind of piece by itself (the first side's number against the second's), and
  // minor pieces also by their sums when a side says L, so `matches` is an AND of lookups:
  // bit b of by_kind_[t][a] says whether a pieces of kind Pawn + t on the first side and b on
  // the second pass both sides' counts; bit b of by_minors_[a] the same for minor-piece sums.
  std::array<std::array<std::uint16_t, MaterialBalance::most + 1>, 5> by_kind_{};
  std::array<std::uint32_t, 2 * MaterialBalance::most + 1> by_minors_{};

  void tabulate();
  bool tables_pass(const MaterialBalance& balance, Color first, bool pawns) const;
  static std::expected<MaterialSpec, SpecError> parse_text(std::string_view text);
  static std::expected<std::size_t, SpecError> parse_side(std::string_view text, std::size_t at,
                                                          MaterialSpec& spec, int side);
  // Nothing when the text is not written as an ending's name.
  static std::optional<std::expected<MaterialSpec, SpecError>> parse_ending_name(
      std::string_view text);
};

// Where a material search matches a game: the first ply of the first stretch of the main line
// whose balances match `spec` and last more than `stable` plies: `stable` + 1 moves or more are
// played from positions holding them (the move that changes the balance counts; the final
// position, with no move played from it, does not). This is pgn-extract's stability, to the ply
// (probed against it: tests/test_pgn_extract.cpp): with the default 2, a balance that passes in
// an exchange, or arises two plies before the next capture, does not count. With `either_colour`
// the spec is also tried with the colours swapped, each way counted by itself. Nothing when it
// never matches.
[[nodiscard]] std::optional<unsigned> first_material_match(const MaterialHistory& history,
                                                           const MaterialSpec& spec,
                                                           unsigned stable, bool either_colour);

}  // namespace pgn
