// Command-line value checks that keep the tool from harming the machine it runs on: no wrap-around of
// negative numbers into huge unsigned ones, bounded thread counts, and a frame ring that fits in memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include <CLI/CLI.hpp>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"

namespace vqm::cli {

// For count and index flags: decimal digits only. CLI11 would read "-1" as 2^64 - 1 (--frame_cnt -1
// meaning "all frames"), "0x10" as 16, "010" as 8 and an empty value as 0.
inline const CLI::Validator non_negative(
    [](std::string& s) -> std::string {
      if (s.empty()) return "an empty value (expected a number, 0 or more)";
      if (s.front() == '-') return "'" + s + "' is negative (expected 0 or more)";
      if (s.find_first_not_of("0123456789") != std::string::npos)
        return "'" + s + "' is not a whole number in decimal digits (expected 0 or more)";
      if (s.size() > 1 && s[0] == '0') return "'" + s + "' has a leading zero, which C reads as octal (give decimal digits)";
      return {};
    },
    "", "NON_NEGATIVE");

// Each thread is a stack and a frame in flight; 1024 is more than any machine has cores.
inline constexpr unsigned max_threads = 1024;

inline void check_threads(unsigned threads) {
  if (threads > max_threads)
    throw error(errc::invalid_argument, "--threads " + std::to_string(threads) + " is too many (at most " +
                                            std::to_string(max_threads) + "; the useful number is the core count)");
}

// The frame ring holds 2 pictures per frame in flight, plus one pair being read: keep it under 4 GiB
// (results do not depend on the number of frames in flight).
inline constexpr std::size_t max_ring_bytes = std::size_t{4} << 30;

[[nodiscard]] inline std::size_t frames_in_flight(unsigned threads, const picture_format& f) {
  const std::size_t pair = 2 * std::max<std::size_t>(f.frame_bytes(), 1);
  const std::size_t fit = max_ring_bytes / pair;  // ring slots that fit: depth + 1
  return std::clamp<std::size_t>(threads, 1, fit > 1 ? fit - 1 : 1);
}

}  // namespace vqm::cli
