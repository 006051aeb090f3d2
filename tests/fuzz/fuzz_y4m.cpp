// libFuzzer harness: the Y4M reader (header, colorspace tags, FRAME headers, frame data, sample range)
// and the signature sniffing of open_frame_source. Any vqm::error is a correct answer; a crash, a
// sanitizer report, a leak or an allocation beyond -malloc_limit_mb is a bug.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fuzz_input_file.hpp"
#include "vqm/error.hpp"
#include "vqm/io/open.hpp"
#include "vqm/io/y4m.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& path = vqm::fuzz::input_path(data, size);
  try {
    auto src = vqm::io::open_frame_source(path, std::nullopt);
    vqm::picture pic;
    // Read a few frames, skip one, read again: both paths of the reader.
    for (int i = 0; i < 8; ++i) {
      const bool more = (i == 2) ? src->skip() : src->read(pic);
      if (!more) break;
      if (i != 2 && pic.bytes().size() != src->format().frame_bytes()) __builtin_trap();
      // What the reader accepted is within the declared depth (the readers' promise).
      if (i != 2 && vqm::find_sample_out_of_range(pic.view())) __builtin_trap();
    }
    (void)src->frame_count_hint();
  } catch (const vqm::error&) {
  }
  vqm::io::y4m_colorspace cs{};
  (void)vqm::io::parse_y4m_colorspace(std::string_view(reinterpret_cast<const char*>(data), size), cs);
  return 0;
}
