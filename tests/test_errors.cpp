// The errors a user meets around the database and its input, as the pgndb executable reports
// them: one line on stderr naming the path, exit code 2. A database locked by another writer, a
// path that is not a database, a database of another schema version, a read-only file system,
// a full disk, a missing input file.
//
// The read-only and full disks are small tmpfs mounts made in a private mount namespace
// (`unshare -m`), which needs root; without it, the read-only case falls back to a directory
// without write permission, and the full-disk case is skipped with a warning.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <rocksdb/db.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "pgndb/index/store.h"
#include "support.h"

namespace {

using namespace pgndb::test;
namespace fs = std::filesystem;

const std::string pgndb = PGNDB_BINARY;
const std::string samples = std::string(PGNDB_SOURCE_DIR) + "/samples";
const std::string corpus = std::string(PGNDB_SHARED_DATA) + "/corpus";

struct Run {
  int exit_code;
  std::string out, err;
};

// Runs a shell command with stderr apart from stdout.
Run shell(const TempDir& dir, const std::string& command) {
  const std::string err_file = dir / "stderr.txt";
  const CommandResult r = run_command("(" + command + ") 2> '" + err_file + "'");
  return {r.exit_code, r.out, read_file(err_file)};
}

int count_lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The shape every error here shares: exit 2, nothing on stdout, one line on stderr holding
// `part`.
void check_one_line_error(const Run& r, const std::string& part) {
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(count_lines(r.err) == 1);
  CHECK(contains(r.err, part));
}

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

TEST_CASE("a database locked by another writer: import refuses in one line, queries still read") {
  TempDir dir;
  const fs::path db = dir / "db";
  REQUIRE(shell(dir, pgndb + " import --db " + q(db) + " " + samples + "/Tal-100.pgn").exit_code ==
          0);
  // An import that waits on its standard input holds the database's lock meanwhile.
  FILE* writer = popen((pgndb + " import --db " + q(db) + " - 2>/dev/null").c_str(), "w");
  REQUIRE(writer);
  // RocksDB's lock is a POSIX record lock on LOCK: wait until that process holds it.
  bool held = false;
  for (int attempt = 0; attempt < 200 && !held; ++attempt) {
    usleep(25'000);
    const int fd = open((db / "LOCK").c_str(), O_RDWR);
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    held = fd >= 0 && fcntl(fd, F_GETLK, &lock) == 0 && lock.l_type != F_UNLCK;
    if (fd >= 0) close(fd);
  }
  REQUIRE(held);
  const Run second =
      shell(dir, pgndb + " import --db " + q(db) + " " + samples + "/Morphy-100.pgn");
  check_one_line_error(second, db.string() + " is in use: another process is writing to it");
  const Run query = shell(dir, pgndb + " find --db " + q(db) + " --white Tal --format count");
  CHECK(query.exit_code == 0);
  CHECK(query.out != "0\n");
  std::fputs("[Event \"late\"]\n\n1. e4 *\n", writer);
  CHECK(pclose(writer) == 0);
}

TEST_CASE("a path that is not a database: one line, nothing created there") {
  TempDir dir;
  write_file(dir / "file.txt", "not a database\n");
  fs::create_directory(dir / "photos");
  write_file(dir / "photos" / "cat.jpg", "jpeg\n");
  for (const std::string command :
       {"import", "find", "tree", "export", "show", "stats", "verify", "rejects"}) {
    INFO(command);
    const std::string tail = command == "import" ? " " + samples + "/Tal-100.pgn"
                             : command == "show" ? std::string(" 1")
                                                 : std::string(" ");
    check_one_line_error(shell(dir, pgndb + " " + command + " --db " + q(dir / "file.txt") + tail),
                         (dir / "file.txt").string() + " is not a pgndb database: it is a file");
    check_one_line_error(
        shell(dir, pgndb + " " + command + " --db " + q(dir / "photos") + tail),
        (dir / "photos").string() + " is not a pgndb database: it is a directory holding other");
  }
  // The user's files are as they were.
  CHECK(read_file(dir / "file.txt") == "not a database\n");
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir / "photos"))
    names.push_back(entry.path().filename().string());
  CHECK(names == std::vector<std::string>{"cat.jpg"});
}

TEST_CASE("a database of another schema version: one line naming both versions, left as it was") {
  TempDir dir;
  // A database whose recorded schema version is `version`.
  auto database_of_version = [&](const fs::path& db, char version) {
    REQUIRE(
        shell(dir, pgndb + " import --db " + q(db) + " " + samples + "/Tal-100.pgn").exit_code ==
        0);
    std::vector<std::string> names;
    REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), db.string(), &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    for (const auto& name : names) families.emplace_back(name, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(rocksdb::DBOptions(), db.string(), families, &handles, &raw).ok());
    std::unique_ptr<rocksdb::DB> opened(raw);
    REQUIRE(opened
                ->Put(rocksdb::WriteOptions(), "meta:schema_version",
                      std::string("\0\0\0", 3) + version)
                .ok());
    for (auto* h : handles) REQUIRE(opened->DestroyColumnFamilyHandle(h).ok());
  };
  const fs::path db = dir / "db", old = dir / "old";
  database_of_version(db, 99);
  database_of_version(old, 8);
  for (const std::string command : {"import", "find", "tree", "export", "show", "stats", "verify",
                                    "rejects", "compact", "upgrade"}) {
    INFO(command);
    const std::string tail = command == "import" ? " " + samples + "/Morphy-100.pgn"
                             : command == "show" ? std::string(" 1")
                                                 : std::string(" ");
    check_one_line_error(shell(dir, pgndb + " " + command + " --db " + q(db) + tail),
                         db.string() + " holds schema version 99, this pgndb reads version");
    // An older database: the message names the command that rebuilds it.
    check_one_line_error(shell(dir, pgndb + " " + command + " --db " + q(old) + tail),
                         old.string() + " holds schema version 8, this pgndb reads version " +
                             std::to_string(pgndb::index::schema_version) +
                             "; rebuild it: `pgndb import --db NEW FILE...`");
  }
}

TEST_CASE("a missing input file: one line naming it, and the database keeps what it had") {
  TempDir dir;
  const fs::path db = dir / "db";
  check_one_line_error(shell(dir, pgndb + " import --db " + q(db) + " " + samples +
                                      "/Tal-100.pgn " + q(dir / "missing.pgn")),
                       (dir / "missing.pgn").string() + ": No such file or directory");
  CHECK_FALSE(fs::exists(db));  // nothing created, not even an empty database
  REQUIRE(shell(dir, pgndb + " import --db " + q(db) + " " + samples + "/Tal-100.pgn").exit_code ==
          0);
  check_one_line_error(shell(dir, pgndb + " import --db " + q(db) + " " + samples +
                                      "/Morphy-100.pgn " + q(dir / "missing.pgn")),
                       (dir / "missing.pgn").string() + ": No such file or directory");
  const Run count = shell(dir, pgndb + " find --db " + q(db) + " --format count");
  CHECK(count.out == "100\n");  // Tal's games, and not Morphy's either: nothing was started
}

// Whether this process may mount file systems in a namespace of its own (root, outside a
// container that forbids it).
bool root() { return geteuid() == 0 && run_command("unshare -m true 2>/dev/null").exit_code == 0; }

// Runs `script` with /bin/sh in a private mount namespace, where `mount` affects it alone.
Run in_namespace(const TempDir& dir, const std::string& script) {
  write_file(dir / "script.sh", script);
  return shell(dir, "unshare -m sh -e " + q(dir / "script.sh"));
}

TEST_CASE("a read-only file system: import refuses in one line, queries still read") {
  TempDir dir;
  const fs::path mnt = dir / "mnt", db = mnt / "db";
  fs::create_directory(mnt);
  const std::string import_tal = pgndb + " import --db " + q(db) + " " + samples + "/Tal-100.pgn";
  const std::string import_morphy =
      pgndb + " import --db " + q(db) + " " + samples + "/Morphy-100.pgn";
  const std::string count = pgndb + " find --db " + q(db) + " --format count";
  Run r;
  if (root()) {
    r = in_namespace(dir, "mount -t tmpfs tmpfs " + q(mnt) + "\n" + import_tal +
                              " 2>/dev/null\nmount -o remount,ro " + q(mnt) + "\n" + count + "\n" +
                              import_morphy + "\n");
  } else {
    WARN("not root: a directory without write permission stands for the read-only mount");
    REQUIRE(shell(dir, import_tal).exit_code == 0);
    fs::permissions(db, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                    fs::perm_options::remove);
    r = shell(dir, count + " && " + import_morphy);
  }
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.out == "100\n");  // the query read it
  CHECK(count_lines(r.err) == 1);
  CHECK((contains(r.err, "the file system is read-only") ||
         (!root() && contains(r.err, "Permission denied"))));
}

TEST_CASE(
    "a full disk: import stops in one line, the database stays consistent, and a run with "
    "space completes it") {
  if (!root()) {
    WARN("not root: no tmpfs can be mounted, the full-disk case is not run");
    return;
  }
  TempDir dir;
  const fs::path mnt = dir / "mnt", db = mnt / "db";
  fs::create_directory(mnt);
  std::string files;
  for (const char* name : {"Kasparov", "Alekhine", "Bronstein", "Euwe", "Geller"})
    files += " " + corpus + "/" + name + ".pgn";
  const std::string import = pgndb + " import --batch 1000 --db " + q(db) + files;
  // 3 MB holds the first few thousand games, not all of them; the remount gives room.
  const Run r = in_namespace(
      dir, "mount -t tmpfs -o size=3m tmpfs " + q(mnt) + "\n" + "if " + import +
               "; then echo full-import-succeeded; fi\n" + pgndb + " verify --db " + q(db) +
               " --quiet && echo verified\n" + "mount -o remount,size=256m " + q(mnt) + "\n" +
               import + " 2>/dev/null\n" + pgndb + " verify --db " + q(db) +
               " --quiet && echo verified\n" + pgndb + " find --db " + q(db) + " --format count\n");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exit_code == 0);
  CHECK(count_lines(r.err) == 1);
  CHECK(contains(r.err,
                 "the disk is full; the games imported before stay, and the import "
                 "resumes after them when run again"));
  // The clean import's count, from the same files into a disk with room.
  TempDir clean;
  REQUIRE(shell(clean, pgndb + " import --db " + q(clean / "db") + files).exit_code == 0);
  const Run expected = shell(clean, pgndb + " find --db " + q(clean / "db") + " --format count");
  CHECK(r.out == "verified\nverified\n" + expected.out);
}

}  // namespace
