#include "log_file.h"

#include <sys/time.h>

#include <ctime>

namespace pgndb::index {

LogFile::LogFile(const std::string& path) : file_(std::fopen(path.c_str(), "ae")) {}

LogFile::~LogFile() {
  if (file_) std::fclose(file_);
}

void LogFile::Logv(const char* format, va_list ap) {
  if (!file_) return;
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
