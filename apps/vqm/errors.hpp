// How a run ends: the exit status of each kind of failure, in one table, and the one line that names
// it (docs/cli.md, "Exit status"). The library says what failed by vqm::error's code; nothing here
// reads its messages to decide.
#pragma once

#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "vqm/error.hpp"

namespace vqm::cli {

enum exit_status : int {
  exit_ok = 0,      // done (also --help, --version, --list-gpu with a device)
  exit_failed = 1,  // the run failed: a library error, a file, memory, threads, an unwritable output
  exit_usage = 2,   // the command line: syntax, unknown or unsupported flags, bad numbers
};

// Thrown for a command line vqm refuses before parsing it (exit status 2, as for syntax errors).
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The table: each library error code's exit status. The command line's own syntax errors are found before
// the library runs (usage_error, CLI11's), so every code fails the run, invalid_argument included (libvmaf's
// tool also exits 1 for values it refuses once parsed). No default: a new errc is a warning here (-Wswitch).
[[nodiscard]] constexpr exit_status exit_status_of(errc code) noexcept {
  switch (code) {
    case errc::invalid_argument:
    case errc::unsupported_format:
    case errc::mismatch:
    case errc::io:
    case errc::bad_input:
    case errc::backend_unavailable:
    case errc::device:
    case errc::raw_format:
      return exit_failed;
  }
  return exit_failed;  // a value outside the enumeration
}

// Any exception's exit status: usage errors 2, library errors by their code, the rest (memory, threads,
// the standard library's) 1.
[[nodiscard]] inline exit_status exit_status_of(const std::exception& e) noexcept {
  if (dynamic_cast<const usage_error*>(&e)) return exit_usage;
  if (const auto* v = dynamic_cast<const error*>(&e)) return exit_status_of(v->code());
  return exit_failed;
}

// What failed, in one line with the fix: resource limits get named, not just strerror'ed.
[[nodiscard]] inline std::string describe_failure(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e))
    return "out of memory (a memory limit such as ulimit -v, or too little RAM for this size: try fewer --threads)";
  if (const auto* se = dynamic_cast<const std::system_error*>(&e)) {
    const auto c = se->code();
    if (c == std::errc::resource_unavailable_try_again || c == std::errc::not_enough_memory)
      return std::string("cannot start a thread or map memory: ") + se->what() +
             " (a limit such as ulimit -v or ulimit -u: raise it or try fewer --threads)";
  }
  return e.what();
}

}  // namespace vqm::cli
