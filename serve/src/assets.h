// The files of the page at `/`, built into the binary from serve/web/ (tools/embed_assets.cpp).
#pragma once

#include <string_view>

namespace pgndb::serve::assets {

extern const std::string_view index_html;  // serve/web/index.html: the page, its style and script

}  // namespace pgndb::serve::assets
