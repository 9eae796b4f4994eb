// The result type of index/ operations: errors are values, wrapping what the storage engine
// reported without exposing its types.
#pragma once

#include <string>
#include <utility>

namespace pgndb::index {

class [[nodiscard]] Status {
 public:
  enum class Code {
    Ok,
    NotFound,
    Corruption,
    IoError,
    InvalidArgument,
    IncompatibleVersion,
    NotADatabase,  // the path holds something else: a file, or a directory of other files
    Busy,          // another process writes to the database
    ReadOnly,      // the database's file system is mounted read-only
    NoSpace,       // the database's disk is full
  };

  Status() = default;
  static Status ok() { return {}; }
  static Status error(Code code, std::string message) { return Status(code, std::move(message)); }

  bool is_ok() const { return code_ == Code::Ok; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}
  Code code_ = Code::Ok;
  std::string message_;
};

}  // namespace pgndb::index
