// Peer for the durable-submit benchmark: the rate of a bare loop that commits
// one row per transaction into a WAL SQLite file with synchronous=FULL, the
// same durability jgrid-local promises before each 202.
// Usage: sqlite_commit_loop <dir> [seconds]
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: sqlite_commit_loop <dir> [seconds]\n");
    return 2;
  }
  double seconds = argc > 2 ? std::atof(argv[2]) : 5.0;
  std::string path = std::string(argv[1]) + "/peer.db";
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) return 1;
  sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
               "CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, doc TEXT);", nullptr, nullptr, nullptr);
  sqlite3_stmt* insert = nullptr;
  sqlite3_prepare_v2(db, "INSERT INTO t(doc) VALUES(?)", -1, &insert, nullptr);
  std::string doc(1500, 'x');  // about the size of a stored job document
  auto start = std::chrono::steady_clock::now();
  long commits = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    sqlite3_bind_text(insert, 1, doc.c_str(), static_cast<int>(doc.size()), SQLITE_STATIC);
    sqlite3_step(insert);
    sqlite3_reset(insert);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    ++commits;
  }
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%.0f\n", commits / elapsed);
  sqlite3_finalize(insert);
  sqlite3_close(db);
  return 0;
}
