// Where `-o` writes, doing no harm to what is already at the path:
//   - "-": stdout, written straight through, every write checked; /dev/stdout, /dev/stderr, /dev/fd/N and
//     /proc/self/fd/N (or a link to one): that descriptor of this process, written where it stands.
//   - an existing device, FIFO (or a symbolic link to one): written straight through (opened without
//     O_CREAT/O_TRUNC); never replaced by a regular file.
//   - a regular file or a new name: a temp file with an unpredictable name (mkstemp: O_CREAT|O_EXCL,
//     so a planted symlink is never followed) in the same folder, given the old file's mode (and owner,
//     when run as root), written, fsync'ed, then renamed over the target. A failed or interrupted run
//     (SIGINT, SIGTERM, SIGHUP) removes the temp and leaves the old file untouched.
//   - a symbolic link to a regular file: the link's target is replaced as above (in its own folder);
//     the link stays a link. A dangling link is refused (as `cp` refuses to write through one).
// The temp is created (and so the folder's writability proven) before any frame is measured. A temp
// left by a run killed with SIGKILL (named ".<name>.vqm-XXXXXX") is removed by the next run to the
// same target once nobody holds its lock.
#pragma once

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "destinations.hpp"
#include "vqm/error.hpp"

namespace vqm::cli {

namespace detail {

// The temp files a signal handler removes (async-signal-safe: fixed buffers and unlink()); one per
// output_file alive (several with -d a -d b -o x -o y).
inline constexpr int max_signal_temps = 16;
inline char signal_temp[max_signal_temps][4096];
inline volatile std::sig_atomic_t signal_temp_set[max_signal_temps] = {};
inline constexpr int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
inline struct sigaction previous_actions[3];
inline bool handlers_installed = false;

extern "C" inline void remove_temp_and_die(int sig) {
  for (int i = 0; i < max_signal_temps; ++i)
    if (signal_temp_set[i]) ::unlink(signal_temp[i]);
  ::signal(sig, SIG_DFL);  // die of the same signal: the exit status says what happened
  ::raise(sig);
}

inline void install_handlers() {
  if (handlers_installed) return;
  for (int i = 0; i < 3; ++i) {
    struct sigaction sa {};
    sa.sa_handler = remove_temp_and_die;
    sigemptyset(&sa.sa_mask);
    ::sigaction(cleanup_signals[i], nullptr, &previous_actions[i]);
    if (previous_actions[i].sa_handler == SIG_IGN) continue;  // e.g. nohup: keep ignoring it
    ::sigaction(cleanup_signals[i], &sa, nullptr);
  }
  handlers_installed = true;
}

// `temp` is gone (renamed or removed); the handlers go with the last temp.
inline void remove_handlers(const std::string& temp) {
  bool any = false;
  for (int i = 0; i < max_signal_temps; ++i) {
    if (signal_temp_set[i] && temp == signal_temp[i]) signal_temp_set[i] = 0;
    any = any || signal_temp_set[i];
  }
  if (any || !handlers_installed) return;
  for (int i = 0; i < 3; ++i) ::sigaction(cleanup_signals[i], &previous_actions[i], nullptr);
  handlers_installed = false;
}

// mkostemp(tmpl) with the handlers already watching the temp: the name is generated in the slot the handler
// reads, so a signal at any moment and on any thread finds the file once it exists (before, unlinking the
// template or a half-generated name removes nothing). Returns the descriptor, or -1 with errno.
inline int create_watched_temp(std::string& tmpl) {
  int slot = 0;
  while (slot < max_signal_temps && signal_temp_set[slot]) ++slot;
  // beyond 16 outputs (or a name too long for the slot) a later run removes a temp left behind (remove_stale_temps)
  if (slot == max_signal_temps || tmpl.size() >= sizeof signal_temp[0]) return ::mkostemp(tmpl.data(), O_CLOEXEC);
  std::memcpy(signal_temp[slot], tmpl.c_str(), tmpl.size() + 1);
  signal_temp_set[slot] = 1;
  install_handlers();
  const int fd = ::mkostemp(signal_temp[slot], O_CLOEXEC);
  tmpl = signal_temp[slot];
  if (fd < 0) {
    const int e = errno;
    remove_handlers(tmpl);
    errno = e;
  }
  return fd;
}

[[noreturn]] inline void fail(const std::string& path, const std::string& why) {
  throw error(errc::io, path + ": cannot write output: " + why);
}
[[noreturn]] inline void fail_errno(const std::string& path, const char* doing = nullptr) {
  const int e = errno;
  fail(path, (doing ? std::string(doing) + ": " : std::string()) + std::strerror(e));
}

inline std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}
inline std::string name_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Temps of our own naming left by a killed run: ".<name>.vqm-" + 6 mkstemp characters, a regular file
// of ours, nobody holding its lock, older than a minute.
inline void remove_stale_temps(const std::string& folder, const std::string& name) {
  const std::string prefix = "." + name + ".vqm-";
  DIR* d = ::opendir(folder.c_str());
  if (!d) return;
  const std::time_t now = std::time(nullptr);
  while (const dirent* e = ::readdir(d)) {
    const std::string_view n(e->d_name);
    if (n.size() != prefix.size() + 6 || !n.starts_with(prefix)) continue;
    const std::string full = folder + "/" + std::string(n);
    struct stat st {};
    if (::lstat(full.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
    if (now - st.st_mtime < 60) continue;
    const int fd = ::open(full.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(full.c_str());
    ::close(fd);
  }
  ::closedir(d);
}

}  // namespace detail

// Writes all of `data` to `fd`, retrying short writes and EINTR; throws naming `what`.
inline void write_all(int fd, std::string_view data, const std::string& what) {
  while (!data.empty()) {
    const ::ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      detail::fail_errno(what);
    }
    if (n == 0) detail::fail(what, "the write made no progress");
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

// Flushes stdout and reports a failure (a full disk, a closed pipe): output that was lost is an error.
inline void flush_stdout() {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int e = errno;
    throw error(errc::io, std::string("stdout: cannot write output: ") + (e ? std::strerror(e) : "write error"));
  }
}

class output_file {
 public:
  // Checks the destination and, for a regular file, creates the temp: call before any work.
  explicit output_file(std::string path) : path_(std::move(path)) {
    if (path_ == "-") {
      kind_ = kind::stream;
      return;
    }
    // /dev/stdout, /dev/stderr, /dev/fd/N: the descriptor itself, as the caller opened it (2>>log appends;
    // opening the path anew would truncate the log, or replace the file behind it).
    if (const auto fd = own_descriptor(path_)) {
      const int flags = ::fcntl(*fd, F_GETFL);
      if (flags < 0) detail::fail(path_, "descriptor " + std::to_string(*fd) + " is not open in this process");
      if ((flags & O_ACCMODE) == O_RDONLY)
        detail::fail(path_, "descriptor " + std::to_string(*fd) + " is open for reading only");
      kind_ = kind::stream;
      stream_fd_ = *fd;
      return;
    }
    if (path_.empty()) detail::fail(path_, "empty path");
    if (path_.back() == '/') detail::fail(path_, "it is a folder");
    target_ = path_;
    struct stat st {};
    bool exists = ::lstat(path_.c_str(), &st) == 0;
    if (!exists && errno != ENOENT) detail::fail_errno(path_);
    if (exists && S_ISLNK(st.st_mode)) {
      if (::stat(path_.c_str(), &st) != 0) {
        if (errno == ENOENT)
          detail::fail(path_, "it is a symbolic link to a missing file (not writing through a dangling link; "
                              "remove the link or give its target)");
        detail::fail_errno(path_);
      }
      // A link to a regular file: its target is what gets replaced. A link to anything else (a device,
      // a FIFO, /proc/self/fd/N of a pipe, which has no path) is written through the link itself.
      if (S_ISREG(st.st_mode)) {
        char* real = ::realpath(path_.c_str(), nullptr);
        if (!real) detail::fail_errno(path_, "resolving the symbolic link");
        target_ = real;
        std::free(real);
      }
    }
    if (!exists) {
      const auto folder = detail::folder_of(path_);
      struct stat dst {};
      if (::stat(folder.c_str(), &dst) != 0 || !S_ISDIR(dst.st_mode))
        detail::fail(path_, "folder '" + folder + "' does not exist");
    }
    if (exists && S_ISDIR(st.st_mode)) detail::fail(path_, "it is a folder");
    if (exists && S_ISSOCK(st.st_mode)) detail::fail(path_, "it is a socket");
    if (exists && !S_ISREG(st.st_mode)) {
      // A device or a FIFO: written in place. A FIFO is opened when the report is ready (the open
      // waits for a reader); a device now, so that a bad one fails before any work.
      kind_ = kind::through;
      if (S_ISFIFO(st.st_mode)) {
        if (::access(target_.c_str(), W_OK) != 0) detail::fail_errno(path_);
      } else {
        open_through();
      }
      return;
    }
    kind_ = kind::replace;
    if (exists && ::access(target_.c_str(), W_OK) != 0) detail::fail_errno(path_);
    create_temp(exists ? &st : nullptr);
  }

  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  ~output_file() {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) {
      ::unlink(temp_.c_str());
      detail::remove_handlers(temp_);
    }
  }

  // Writes the whole report; for a regular file atomically (fsync, then rename).
  void commit(std::string_view content) {
    switch (kind_) {
      case kind::stream:
        flush_stdout();  // anything printed before goes first
        write_all(stream_fd_, content, stream_fd_ == STDOUT_FILENO ? std::string("stdout") : path_);
        return;
      case kind::through:
        if (fd_ < 0) open_through();
        write_all(fd_, content, path_);
        close_fd();
        return;
      case kind::replace: break;
    }
    write_all(fd_, content, path_);
    if (::fsync(fd_) != 0) detail::fail_errno(path_, "fsync");
    close_fd();
    if (::rename(temp_.c_str(), target_.c_str()) != 0) detail::fail_errno(path_, "rename");
    detail::remove_handlers(temp_);
    temp_.clear();
    // Make the rename itself durable (best effort: some file systems refuse fsync on a folder).
    const int dfd = ::open(detail::folder_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  }

  // The temp file's path while one exists (tests, diagnostics).
  [[nodiscard]] const std::string& temp_path() const noexcept { return temp_; }

 private:
  enum class kind { stream, through, replace };

  void open_through() {
    fd_ = ::open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) detail::fail_errno(path_);
  }

  void close_fd() {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0 && errno != EINTR) detail::fail_errno(path_, "close");
  }

  void create_temp(const struct stat* old) {
    const auto folder = detail::folder_of(target_), name = detail::name_of(target_);
    detail::remove_stale_temps(folder, name);
    std::string tmpl = folder + "/." + name + ".vqm-XXXXXX";
    fd_ = detail::create_watched_temp(tmpl);
    if (fd_ < 0) {
      const int e = errno;
      detail::fail(path_, "cannot create a file in '" + folder + "': " + std::strerror(e));
    }
    temp_ = tmpl;
    ::flock(fd_, LOCK_EX | LOCK_NB);  // a later run sees a live temp by its lock
    mode_t mode;
    if (old) {
      mode = old->st_mode & 07777;
      if (::geteuid() == 0 && (old->st_uid != 0 || old->st_gid != 0))
        if (::fchown(fd_, old->st_uid, old->st_gid) != 0) {
        }  // best effort: the mode below still applies
    } else {
      const mode_t mask = ::umask(0);
      ::umask(mask);
      mode = 0666 & ~mask;  // what creating the file directly would give
    }
    if (::fchmod(fd_, mode) != 0) detail::fail_errno(path_, "setting the file mode");
  }

  std::string path_;    // as given
  std::string target_;  // what is written or replaced (a symlink's target)
  std::string temp_;
  int fd_ = -1;
  int stream_fd_ = STDOUT_FILENO;  // kind::stream: written in place, never closed
  kind kind_ = kind::replace;
};

}  // namespace vqm::cli
