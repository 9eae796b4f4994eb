// The message of a command-line error that Boost.Program_options reports.
#pragma once

#include <span>
#include <string>

#include "command.h"

namespace pgndb::cli {

// `error.what()`, unless the arguments make that unsafe: Boost 1.74 builds the message by
// replacing placeholders such as `%value%` with the option's name or value, again while the
// message still holds one, so an argument that itself holds a placeholder (`--min-elo %value%`)
// made what() loop forever, growing a string (found by fuzz/fuzz_query_options). Any argument
// with two `%` gets a message of our own instead.
[[nodiscard]] std::string option_error_message(const po::error& error,
                                               std::span<const std::string> args);

}  // namespace pgndb::cli
