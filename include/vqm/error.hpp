// vqm::error — the one exception type of the library.
#pragma once

#include <stdexcept>
#include <string>

namespace vqm {

// What went wrong, so callers can react without parsing the message (the vqm CLI maps it to its exit
// status and to its own words for a fix). New values go at the end: the others keep their numbers.
enum class errc {
  invalid_argument,    // a bad option value or API misuse
  unsupported_format,  // the metric/backend cannot handle this picture format
  mismatch,            // reference and distorted differ (size, format, depth, count)
  io,                  // a file could not be opened, read or written
  bad_input,           // a malformed or truncated file
  backend_unavailable, // e.g. no Vulkan loader or device
  device,              // a device error at run time (out of memory, device lost)
  raw_format,          // a headerless input without its picture format (width, height, chroma, depth),
                       // or a raw file that the given format does not fit: a front end names its own flags
};

class error : public std::runtime_error {
 public:
  error(errc code, const std::string& message) : std::runtime_error(message), code_(code) {}
  [[nodiscard]] errc code() const noexcept { return code_; }

 private:
  errc code_;
};

}  // namespace vqm
