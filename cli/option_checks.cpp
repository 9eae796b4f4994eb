#include <filesystem>
#include <system_error>

#include "command.h"
#include "pgn/reader.h"
#include "pgn/text.h"

namespace pgndb::cli {

std::expected<void, std::string> within(std::string_view option, std::uint64_t value,
                                        std::uint64_t low, std::uint64_t high) {
  if (value < low || value > high)
    return std::unexpected(pgn::cat("--", option, " must be ", low, " to ", high, ", not ", value));
  return {};
}

std::expected<void, std::string> inputs_open(const std::vector<std::string>& files) {
  for (const auto& file : files) {
    if (file == "-") continue;
    if (auto opened = pgn::FileSource::open(file); !opened) return std::unexpected(opened.error());
  }
  return {};
}

std::expected<void, std::string> output_apart(const std::string& output,
                                              const std::vector<std::string>& inputs) {
  if (output == "-") return {};
  for (const auto& input : inputs) {
    std::error_code error;
    if (input != "-" && std::filesystem::equivalent(output, input, error))
      return std::unexpected(
          pgn::cat("-o ", output, ": is an input file; writing it would destroy what is read"));
  }
  return {};
}

}  // namespace pgndb::cli
