// libFuzzer harness: the raw .yuv reader. The first four bytes pick the geometry the CLI would get from
// -w -h -p -b (including sizes and storages the checks must refuse); the rest is the file.
#include <cstddef>
#include <cstdint>

#include "fuzz_input_file.hpp"
#include "vqm/error.hpp"
#include "vqm/io/yuv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  vqm::picture_format f;
  f.width = data[0] == 255 ? 40000u : data[0] % 48;  // 0 and too large are in range on purpose
  f.height = data[1] % 48;
  f.chroma = static_cast<vqm::chroma_format>(data[2] % 4);
  // Semi-planar (uv, vu) and MSB-aligned storage, inconsistent combinations included (gray with a layout).
  f.layout = static_cast<vqm::chroma_layout>((data[2] >> 2) % 3);
  f.msb_shift = (data[2] >> 4) % 8;
  static constexpr std::uint32_t depths[] = {8, 10, 12, 16, 9, 7, 17, 0};
  f.bit_depth = depths[data[3] % 8];
  const auto& path = vqm::fuzz::input_path(data + 4, size - 4);
  try {
    vqm::io::yuv_reader r(path, f);
    vqm::picture pic;
    for (int i = 0; i < 16; ++i) {
      const bool more = (i % 3 == 1) ? r.skip() : r.read(pic);
      if (!more) break;
      if (i % 3 != 1 && vqm::find_sample_out_of_range(pic.view())) __builtin_trap();
    }
  } catch (const vqm::error&) {
  }
  return 0;
}
