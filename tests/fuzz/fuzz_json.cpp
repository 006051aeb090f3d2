// libFuzzer harness: the JSON parser the VMAF model files go through (vqm/detail/json.hpp) and, when
// VMAF support is present, the model loader on top of it (svm text, normalisation, feature options;
// transform/clip switched by the input's first byte). A vqm::error is a correct answer; a crash, a
// sanitizer report or unbounded recursion is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "vqm/detail/json.hpp"
#include "vqm/error.hpp"
#if __has_include("vqm/vmaf/model.hpp")
#include "vqm/vmaf/model.hpp"
#define VQM_FUZZ_MODEL 1
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)vqm::json::parse(text, "fuzz.json");
  } catch (const vqm::error&) {
  }
#ifdef VQM_FUZZ_MODEL
  try {
    vqm::vmaf::load_options lo;
    lo.enable_transform = size > 0 && (data[0] & 1);
    lo.disable_clip = size > 0 && (data[0] & 2);
    (void)vqm::vmaf::model_from_json(text, "fuzz.json", lo);
  } catch (const vqm::error&) {
  }
#endif
  return 0;
}
