#include "log_file.h"

#include <sys/time.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <string_view>

namespace pgndb::index {

namespace {

// Opens `path` for appending, first moving a full one aside.
std::FILE* open_bounded(const std::string& path) {
  std::error_code error;
  if (std::filesystem::file_size(path, error) >= LogFile::max_bytes && !error)
    std::filesystem::rename(path, path + ".old", error);  // failing, the LOG grows: no harm
  return std::fopen(path.c_str(), "ae");
}

// RocksDB's option dump: lines whose format is spaces, then "Options." or the block table
// options' header (db/column_family.cc, options/db_options.cc, options/cf_options.cc).
bool is_option_dump(const char* format) {
  std::string_view line(format);
  line.remove_prefix(std::min(line.find_first_not_of(' '), line.size()));
  return line.starts_with("Options.") || line.starts_with("table_factory options");
}

}  // namespace

LogFile::LogFile(const std::string& path) : file_(open_bounded(path)) {}

LogFile::~LogFile() {
  if (file_) std::fclose(file_);
}

void LogFile::Logv(const char* format, va_list ap) {
  if (!file_ || is_option_dump(format)) return;
  timeval now;
  ::gettimeofday(&now, nullptr);
  std::tm local;
  ::localtime_r(&now.tv_sec, &local);
  std::lock_guard lock(mutex_);
  std::fprintf(file_, "%04d/%02d/%02d-%02d:%02d:%02d.%06ld ", local.tm_year + 1900,
               local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec,
               long(now.tv_usec));
  std::vfprintf(file_, format, ap);
  std::fputc('\n', file_);
}

void LogFile::Flush() {
  std::lock_guard lock(mutex_);
  if (file_) std::fflush(file_);
}

}  // namespace pgndb::index
