// Running programs from tests: a whole file's bytes, shell quoting, and a bash command line with its
// exit status, stdout and stderr captured (pipes and process substitution included).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>

namespace vqm::test {

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
inline void spit(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}
inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct result {
  int rc = -1;  // the exit status, or 128 + the signal that ended it
  std::string out, err;
};

[[nodiscard]] inline int exit_status(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Runs a bash command line with stdin from /dev/null; stdout and stderr go to files in `dir` and are read back.
inline result bash(const std::string& line, const std::filesystem::path& dir) {
  const auto out = (dir / "stdout.txt").string(), err = (dir / "stderr.txt").string();
  const std::string cmd = "bash -c " + quote(line) + " >" + quote(out) + " 2>" + quote(err) + " </dev/null";
  result r;
  r.rc = exit_status(std::system(cmd.c_str()));
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

}  // namespace vqm::test
