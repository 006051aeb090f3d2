// The CLI's standard streams, hardened: file descriptors 0-2 are reserved at start-up (so that no file the
// run opens, such as an output's temp, becomes "stderr" when the caller closed it), and diagnostics are
// written straight to fd 2 with errors ignored (a closed, full or broken stderr never aborts the run and
// never changes its exit status; only the report's own destination counts).
#pragma once

#include <cerrno>
#include <string>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

namespace vqm::cli {

// Opens /dev/null on any of fds 0-2 that is closed (open() takes the lowest free descriptor, so the
// loop fills them in order). Call first thing in main.
inline void reserve_standard_fds() noexcept {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int got = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (got >= 0 && got != fd) {  // cannot happen while fd is the lowest free one; never leak it anyway
      ::dup2(got, fd);
      ::close(got);
    }
  }
}

// Writes `text` to stderr; a failed write (EBADF, ENOSPC, EPIPE) is dropped.
inline void write_stderr(std::string_view text) noexcept {
  while (!text.empty()) {
    const ::ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

// fmt::print(stderr, ...) that never throws (fmt::print throws when the write fails).
template <class... T>
void eprint(fmt::format_string<T...> f, T&&... a) noexcept {
  try {
    write_stderr(fmt::format(f, std::forward<T>(a)...));
  } catch (...) {  // formatting ran out of memory: nothing more useful to say
  }
}

// The notes of a run ("vqm: note: ..." on stderr), none with -q.
struct note_printer {
  bool quiet = false;
  void operator()(const std::string& s) const noexcept {
    if (!quiet) eprint("vqm: note: {}\n", s);
  }
};

}  // namespace vqm::cli
