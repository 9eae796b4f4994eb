// The lines of lichess's opening tables (libpgn/data/openings/*.tsv: `eco <TAB> name <TAB> pgn`,
// a header line first), split as both the library (openings.cpp) and its build-time tool
// (tools/make_opening_table.cpp) number them: the data lines of the files in order, from 1.
#pragma once

#include <string_view>
#include <utility>

#include "pgn/openings.h"

namespace pgn::opening_lines {

// Calls `each(Opening)` for each data line of one table's text, in order.
template <class Each>
void for_each_line(std::string_view text, Each&& each) {
  bool header = true;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (std::exchange(header, false) || line.empty()) continue;  // "eco name pgn"
    const std::size_t tab1 = line.find('\t'), tab2 = line.find('\t', tab1 + 1);
    if (tab1 == std::string_view::npos || tab2 == std::string_view::npos) continue;
    each(Opening{line.substr(0, tab1), line.substr(tab1 + 1, tab2 - tab1 - 1),
                 line.substr(tab2 + 1)});
  }
}

}  // namespace pgn::opening_lines
