// How every command prints a problem: `FILE:LINE:COL: error|warning: message`, the form
// compilers use, so editors and scripts can jump to it.
#pragma once

#include <ostream>
#include <string_view>

#include "pgn/replay.h"

namespace pgndb::cli {

inline void print_problem(std::ostream& out, std::string_view file, const pgn::GameProblem& p) {
  out << file << ':' << p.location.line << ':' << p.location.column << ": "
      << (p.severity == pgn::GameProblem::Severity::Error ? "error" : "warning") << ": "
      << p.message << '\n';
}

}  // namespace pgndb::cli
