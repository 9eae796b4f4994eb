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

void declare_reading_language(po::options_description& options) {
  options.add_options()("lang", po::value<std::string>(),
                        "the piece letters the moves are written in, an ISO 639-1 code (cs, de, "
                        "fr, ...; default: English, or the language whose letters read a game)");
}

void declare_writing_language(po::options_description& options, std::string_view option) {
  options.add_options()(std::string(option).c_str(), po::value<std::string>(),
                        "write moves with this language's piece letters, an ISO 639-1 code (cs, "
                        "de, fr, ...): outside PGN's export format")(
      "figurine", po::bool_switch(),
      "write pieces as figurines (\u2658\u2657\u2656\u2655\u2654): outside PGN's export "
      "format");
}

std::expected<std::optional<pgn::PieceLetters>, std::string> language_option(
    const po::variables_map& vm, std::string_view option) {
  const std::string name(option);
  if (!vm.count(name)) return std::nullopt;
  const std::string& code = vm[name].as<std::string>();
  if (auto letters = pgn::piece_letters(code)) return letters;
  std::string codes;
  for (const pgn::PieceLetters& l : pgn::piece_letter_languages())
    codes += pgn::cat(codes.empty() ? "" : ", ", l.language);
  return std::unexpected(
      pgn::cat("--", option, ": '", code, "' is not a language pgndb knows (", codes, ")"));
}

std::expected<pgn::WriterOptions, std::string> writer_options(const po::variables_map& vm,
                                                              std::string_view option) {
  auto letters = language_option(vm, option);
  if (!letters) return std::unexpected(letters.error());
  pgn::WriterOptions options;
  options.letters = *letters;
  options.figurines = vm.count("figurine") && vm["figurine"].as<bool>();
  if (options.letters && options.figurines)
    return std::unexpected(pgn::cat("--", option,
                                    " and --figurine: give one (figurines are "
                                    "the same in every language)"));
  return options;
}

}  // namespace pgndb::cli
