// libFuzzer harness: the JSON parser the VMAF model files go through (vqm/detail/json.hpp). A
// vqm::error is a correct answer; a crash, a sanitizer report or unbounded recursion is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "vqm/detail/json.hpp"
#include "vqm/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)vqm::json::parse(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
  } catch (const vqm::error&) {
  }
  return 0;
}
