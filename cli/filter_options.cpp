#include "filter_options.h"

#include <iostream>

namespace pgndb::cli {

void declare_filters(po::options_description& options) {
  for (const auto& field : query::filter_fields()) {
    const std::string name(field.name);
    const std::string help(field.help);
    switch (field.kind) {
      case query::FilterField::Text:
        options.add_options()(name.c_str(), po::value<std::string>(), help.c_str());
        break;
      case query::FilterField::Number:
        options.add_options()(name.c_str(), po::value<unsigned>(), help.c_str());
        break;
      case query::FilterField::Switch:
        options.add_options()(name.c_str(), po::bool_switch(), help.c_str());
        break;
    }
  }
}

query::FilterText filter_text(const po::variables_map& vm) {
  query::FilterText t;
  for (const auto& field : query::filter_fields()) {
    const std::string name(field.name);
    if (!vm.count(name)) continue;
    switch (field.kind) {
      case query::FilterField::Text: t.*field.text = vm[name].as<std::string>(); break;
      case query::FilterField::Number: t.*field.number = vm[name].as<unsigned>(); break;
      case query::FilterField::Switch: t.*field.flag = vm[name].as<bool>(); break;
    }
  }
  return t;
}

Parsed<query::Filters> checked_filters(const query::FilterText& text) {
  return query::parse_filters(text);
}

std::optional<index::Store> open_for_reading(const std::string& db, std::string_view command) {
  auto store = index::Store::open(
      db, {.create_if_missing = false, .read_only = true, .import_records = false});
  if (!store) {
    std::cerr << "pgndb " << command << ": " << store.error().message() << '\n';
    return std::nullopt;
  }
  return std::move(*store);
}

}  // namespace pgndb::cli
