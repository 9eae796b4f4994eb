#include "option_error.h"

#include <algorithm>

namespace pgndb::cli {

std::string option_error_message(const po::error& error, std::span<const std::string> args) {
  const bool unsafe = std::ranges::any_of(
      args, [](const std::string& a) { return std::ranges::count(a, '%') >= 2; });
  if (unsafe) return "the command line is not valid (and an argument holds '%' twice)";
  return error.what();
}

}  // namespace pgndb::cli
