// A one-line progress report on stderr (frames, fps, ETA), only when stderr is a terminal.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>

#include <fmt/format.h>
#include <unistd.h>

#include "std_streams.hpp"

namespace vqm::cli {

class progress {
 public:
  using clock = std::chrono::steady_clock;

  progress(bool enabled, std::optional<std::size_t> total)
      : enabled_(enabled && ::isatty(STDERR_FILENO) == 1), total_(total), start_(clock::now()), last_(start_) {}

  void update(std::size_t done) {
    if (!enabled_) return;
    const auto now = clock::now();
    if (now - last_ < std::chrono::milliseconds(100)) return;  // at most ~10 refreshes per second
    last_ = now;
    const double secs = std::chrono::duration<double>(now - start_).count();
    const double fps = secs > 0 ? static_cast<double>(done) / secs : 0.0;
    std::string line = fmt::format("frame {}", done);
    if (total_ && *total_ >= done) {
      line += fmt::format("/{}", *total_);
      if (fps > 0) {
        const auto eta = static_cast<long long>(static_cast<double>(*total_ - done) / fps + 0.5);
        line += fmt::format("  {:.1f} fps  ETA {}:{:02}", fps, eta / 60, eta % 60);
      }
    } else if (fps > 0) {
      line += fmt::format("  {:.1f} fps", fps);
    }
    eprint("\r{:<60}", line);
    drawn_ = true;
  }

  // Clears the line so that what follows starts at column 0.
  void finish() {
    if (drawn_) eprint("\r{:<60}\r", "");
    drawn_ = false;
  }
  ~progress() { finish(); }

  [[nodiscard]] double seconds() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

 private:
  bool enabled_;
  std::optional<std::size_t> total_;
  clock::time_point start_, last_;
  bool drawn_ = false;
};

}  // namespace vqm::cli
