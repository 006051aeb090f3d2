// What the CLI's paths name, by identity rather than by spelling: this process's own streams behind
// /dev/stderr, /dev/fd/N and /proc/self/fd/N, and the file (device + inode, links resolved) that an input
// or an output is. An output that is an input, or two outputs that are one file, are refused before any
// work, so that a report never replaces a video or another report.
#pragma once

#include <cerrno>
#include <charconv>
#include <climits>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vqm/error.hpp"

namespace vqm::cli {

namespace detail {

// "/dev/stdout" -> 1, "/dev/fd/7" or "/proc/self/fd/7" (or this process's pid) -> 7; otherwise none.
[[nodiscard]] inline std::optional<int> fd_of_name(std::string_view p) {
  if (p == "/dev/stdin") return 0;
  if (p == "/dev/stdout") return 1;
  if (p == "/dev/stderr") return 2;
  const auto number = [](std::string_view s) -> std::optional<int> {
    int fd = -1;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), fd);
    if (s.empty() || r.ec != std::errc{} || r.ptr != s.data() + s.size() || fd < 0) return std::nullopt;
    return fd;
  };
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"})
    if (p.starts_with(prefix)) return number(p.substr(prefix.size()));
  const std::string own = "/proc/" + std::to_string(::getpid()) + "/fd/";
  if (p.starts_with(own)) return number(p.substr(own.size()));
  return std::nullopt;
}

}  // namespace detail

// The descriptor of this process that `path` names (/dev/stderr, /dev/fd/N, /proc/self/fd/N, or a chain
// of symbolic links ending at one of them), if it names one. Writing there must go to the descriptor
// itself: opening the path anew would truncate a file the caller opened for appending (2>>log).
[[nodiscard]] inline std::optional<int> own_descriptor(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    if (auto fd = detail::fd_of_name(p)) return fd;
    char buf[PATH_MAX];
    const ::ssize_t n = ::readlink(p.c_str(), buf, sizeof buf);
    if (n <= 0 || static_cast<std::size_t>(n) >= sizeof buf) return std::nullopt;  // not a link
    std::string target(buf, static_cast<std::size_t>(n));
    if (target.front() != '/') {
      const auto slash = p.rfind('/');
      target = (slash == std::string::npos ? std::string() : p.substr(0, slash + 1)) + target;
    }
    p = std::move(target);
  }
  return std::nullopt;
}

// What a path is: an existing object (device + inode) or a name still to be created in a folder.
struct file_identity {
  dev_t dev = 0;
  ino_t ino = 0;
  std::string new_name;  // non-empty: the object does not exist; dev/ino are its folder's
  bool regular = false;  // an existing regular file (what a report could destroy)
  bool char_device = false;
  bool operator==(const file_identity&) const = default;
};

[[nodiscard]] inline file_identity identity_of(const struct ::stat& st) {
  file_identity id;
  id.dev = st.st_dev;
  id.ino = st.st_ino;
  id.regular = S_ISREG(st.st_mode);
  id.char_device = S_ISCHR(st.st_mode);
  return id;
}

// The identity of an input ("-" is standard input); none when it cannot be stat'ed (a URL).
[[nodiscard]] inline std::optional<file_identity> input_identity(const std::string& path) {
  struct ::stat st {};
  if (path == "-" ? ::fstat(STDIN_FILENO, &st) != 0 : ::stat(path.c_str(), &st) != 0) return std::nullopt;
  return identity_of(st);
}

// The identity of an output ("-" is standard output); none when it cannot be told (the output's own
// checks then name the problem).
[[nodiscard]] inline std::optional<file_identity> output_identity(const std::string& path) {
  struct ::stat st {};
  if (path == "-") return ::fstat(STDOUT_FILENO, &st) == 0 ? std::optional(identity_of(st)) : std::nullopt;
  if (const auto fd = own_descriptor(path))
    return ::fstat(*fd, &st) == 0 ? std::optional(identity_of(st)) : std::nullopt;
  if (::stat(path.c_str(), &st) == 0) return identity_of(st);
  if (errno != ENOENT || path.empty() || path.back() == '/') return std::nullopt;
  struct ::stat lst {};
  if (::lstat(path.c_str(), &lst) == 0) return std::nullopt;  // a dangling link: refused by output_file
  const auto slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::stat(folder.c_str(), &st) != 0) return std::nullopt;
  auto id = identity_of(st);
  id.regular = false;
  id.new_name = slash == std::string::npos ? path : path.substr(slash + 1);
  return id;
}

struct named_input {
  std::string role;  // "reference", "distorted"
  std::string path;
};

// Throws when an output is an input (the report would destroy it) or two outputs are one file (one
// report would be lost). `summary_on_stdout`: no -o, the summary goes to stdout, which must not be an
// input either (vqm ... >>dis.y4m).
inline void check_destinations(const std::vector<named_input>& inputs, const std::vector<std::string>& outputs,
                               bool summary_on_stdout) {
  std::vector<std::optional<file_identity>> in;
  for (const auto& i : inputs) in.push_back(input_identity(i.path));
  const auto shown = [](const std::string& o) { return o == "-" ? std::string("standard output") : "-o " + o; };
  auto against_inputs = [&](const std::string& o, const std::string& what) {
    const auto id = output_identity(o);
    if (!id || !id->regular) return;  // only an existing regular file can be destroyed by a report
    for (std::size_t k = 0; k < inputs.size(); ++k)
      if (in[k] && *in[k] == *id)
        throw error(errc::invalid_argument,
                    what + " is the " + inputs[k].role + " input " + inputs[k].path +
                        ": the report would destroy it (write the report to another file)");
  };
  if (summary_on_stdout) against_inputs("-", "standard output");
  std::vector<std::optional<file_identity>> out;
  for (const auto& o : outputs) {
    against_inputs(o, shown(o));
    out.push_back(output_identity(o));
  }
  for (std::size_t k = 0; k < outputs.size(); ++k)
    for (std::size_t j = 0; j < k; ++j) {
      // Several reports may go to one character device (/dev/null, a terminal): nothing is replaced.
      if (out[k] && out[k]->char_device) continue;
      if (outputs[j] == outputs[k])
        throw error(errc::invalid_argument, "-o " + outputs[k] + " is given twice: give each -d its own -o");
      if (out[j] && out[k] && *out[j] == *out[k])
        throw error(errc::invalid_argument, shown(outputs[j]) + " and " + shown(outputs[k]) +
                                                " are the same file: one report would replace the other (give "
                                                "each -d its own -o)");
    }
}

}  // namespace vqm::cli
