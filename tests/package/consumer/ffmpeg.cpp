// A downstream program on vqm::ffmpeg (find_package(vqm COMPONENTS ffmpeg) / vqm-ffmpeg.pc): writes a
// two-frame 16x8 Y4M, decodes it through FFmpeg's libraries (libavformat's Y4M demuxer, rawvideo) with
// vqm::io::ffmpeg_reader and checks the format and every luma sample. Built with -Wshadow: the FFmpeg
// component's other public headers are included for that.
#include <cstdint>
#include <cstdio>
#include <string>

#include "vqm/io/avframe.hpp"
#include "vqm/io/ffmpeg_reader.hpp"
#include "vqm/io/ffmpeg_scale.hpp"
#include "vqm/io/open.hpp"

#ifndef VQM_WITH_FFMPEG
#error "vqm::ffmpeg does not define VQM_WITH_FFMPEG"
#endif

int main() {
  const std::string path = "consumer_ffmpeg.y4m";
  constexpr int w = 16, h = 8;
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 1;
    std::fprintf(f, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n", w, h);
    for (int k = 0; k < 2; ++k) {
      std::fputs("FRAME\n", f);
      for (int i = 0; i < w * h; ++i) std::fputc((i * 7 + k * 50) & 0xff, f);
      for (int i = 0; i < w * h / 2; ++i) std::fputc(128, f);
    }
    std::fclose(f);
  }
  try {
    vqm::io::ffmpeg_reader r(path);
    if (r.format().width != w || r.format().height != h || r.format().bit_depth != 8) return 2;
    vqm::picture pic;
    int frames = 0;
    while (r.read(pic)) {
      const auto y = pic.view().planes[0];
      for (int row = 0; row < h; ++row)
        for (int x = 0; x < w; ++x)
          if (y.row<std::uint8_t>(static_cast<std::uint32_t>(row))[x] != (((row * w + x) * 7 + frames * 50) & 0xff))
            return 3;
      ++frames;
    }
    std::printf("vqm::ffmpeg: %d frames of %dx%d decoded by %s\n", frames, w, h, r.description().c_str());
    std::remove(path.c_str());
    return frames == 2 ? 0 : 4;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vqm::ffmpeg consumer: %s\n", e.what());
    return 5;
  }
}
