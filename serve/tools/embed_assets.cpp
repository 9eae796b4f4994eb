// Writes the files of the page pgndb serve answers at `/` (serve/web/) as C++ source, so that
// the binary serves them with nothing read from disk: `embed_assets OUT.cpp NAME=FILE...` defines
// pgndb::serve::assets::NAME as a std::string_view of FILE's bytes.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: embed_assets OUT.cpp NAME=FILE...\n");
    return 2;
  }
  std::string out =
      "// Written by serve/tools/embed_assets.cpp from serve/web/: do not edit.\n"
      "#include <string_view>\n\nnamespace pgndb::serve::assets {\n\n";
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::size_t equals = arg.find('=');
    if (equals == std::string::npos) {
      std::fprintf(stderr, "embed_assets: %s is not NAME=FILE\n", arg.c_str());
      return 2;
    }
    const std::string name = arg.substr(0, equals), path = arg.substr(equals + 1);
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "embed_assets: cannot read %s\n", path.c_str());
      return 1;
    }
    out += "namespace {\nconstexpr char " + name + "_bytes[] = {";
    for (std::size_t b = 0; b < bytes.size(); ++b) {
      if (b % 16 == 0) out += "\n   ";
      out += " " + std::to_string(int(static_cast<signed char>(bytes[b]))) + ",";
    }
    out += "\n    0};\n}  // namespace\nextern const std::string_view " + name +
           ";\nconst std::string_view " + name + "(" + name + "_bytes, " +
           std::to_string(bytes.size()) + ");\n\n";
  }
  out += "}  // namespace pgndb::serve::assets\n";
  std::ofstream file(argv[1], std::ios::binary);
  file << out;
  file.close();
  if (!file) {
    std::fprintf(stderr, "embed_assets: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
