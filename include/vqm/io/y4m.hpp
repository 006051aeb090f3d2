// Y4M (YUV4MPEG2) reader: 8–16 bit, 4:2:0 / 4:2:2 / 4:4:4 / mono, any size (chroma planes rounded up,
// as files store them). Errors name the file, the frame and the problem.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"

namespace vqm::io {

struct y4m_colorspace {
  chroma_format chroma;
  std::uint32_t bit_depth;
};

// Parses a Y4M 'C' tag value ("420jpeg", "422p10", "mono16", ...); false if unknown.
[[nodiscard]] inline bool parse_y4m_colorspace(std::string_view c, y4m_colorspace& out) noexcept {
  auto depth_suffix = [&](std::string_view rest, std::uint32_t& depth) {
    if (rest.empty()) return depth = 8, true;
    if (rest == "p9") return depth = 9, true;
    if (rest == "p10") return depth = 10, true;
    if (rest == "p12") return depth = 12, true;
    if (rest == "p14") return depth = 14, true;
    if (rest == "p16") return depth = 16, true;
    return false;
  };
  if (c == "420jpeg" || c == "420paldv" || c == "420mpeg2") return out = {chroma_format::yuv420, 8}, true;
  if (c.starts_with("mono")) {
    out.chroma = chroma_format::yuv400;
    const auto rest = c.substr(4);
    if (rest.empty()) return out.bit_depth = 8, true;
    // "mono10", "mono12", "mono16"
    if (rest == "9" || rest == "10" || rest == "12" || rest == "14" || rest == "16")
      return out.bit_depth = static_cast<std::uint32_t>(std::stoul(std::string(rest))), true;
    return false;
  }
  for (auto [prefix, chroma] : {std::pair{std::string_view("420"), chroma_format::yuv420},
                                std::pair{std::string_view("422"), chroma_format::yuv422},
                                std::pair{std::string_view("444"), chroma_format::yuv444}}) {
    if (c.starts_with(prefix)) {
      out.chroma = chroma;
      return depth_suffix(c.substr(3), out.bit_depth);
    }
  }
  return false;
}

class y4m_reader {
 public:
  explicit y4m_reader(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "rb"), &std::fclose) {
    if (!file_) throw error(errc::io, path + ": cannot open file (check the path and permissions)");
    std::string header;
    for (int ch; (ch = std::fgetc(file_.get())) != '\n';) {
      if (ch == EOF) throw error(errc::bad_input, path + ": truncated Y4M header (no end of line)");
      header.push_back(static_cast<char>(ch));
      if (header.size() > 4096) throw error(errc::bad_input, path + ": Y4M header longer than 4096 bytes");
    }
    if (!header.starts_with("YUV4MPEG2"))
      throw error(errc::bad_input, path + ": not a Y4M file (missing 'YUV4MPEG2' signature)");
    std::string_view rest(header);
    rest.remove_prefix(9);
    std::string colorspace = "420jpeg";
    bool have_w = false, have_h = false;
    while (!rest.empty()) {
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      if (rest.empty()) break;
      const auto end = rest.find(' ');
      const auto tok = rest.substr(0, end);
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
      const auto val = std::string(tok.substr(1));
      switch (tok.front()) {
        case 'W': format_.width = parse_dim(val, "width"); have_w = true; break;
        case 'H': format_.height = parse_dim(val, "height"); have_h = true; break;
        case 'C': colorspace = val; break;
        case 'I':
          if (val != "p" && val != "?")
            throw error(errc::unsupported_format, path + ": interlaced Y4M (I" + val + ") is not supported");
          break;
        default: break;  // F (rate), A (aspect), X (comments) do not affect the samples
      }
    }
    if (!have_w || !have_h) throw error(errc::bad_input, path + ": Y4M header lacks the W (width) or H (height) tag");
    y4m_colorspace cs{};
    if (!parse_y4m_colorspace(colorspace, cs))
      throw error(errc::unsupported_format, path + ": unsupported Y4M colorspace 'C" + colorspace +
                                                "' (supported: 420jpeg/420paldv/420mpeg2/420/422/444[p10|p12|p16], mono[10|12|16])");
    format_.chroma = cs.chroma;
    format_.bit_depth = cs.bit_depth;
  }

  [[nodiscard]] const picture_format& format() const noexcept { return format_; }
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] std::size_t frames_read() const noexcept { return frames_; }

  // Reads the next frame into `pic` (resized when needed). False at a clean end of file.
  bool read(picture& pic) {
    std::string tag;
    int ch = std::fgetc(file_.get());
    if (ch == EOF) return false;
    for (; ch != '\n'; ch = std::fgetc(file_.get())) {
      if (ch == EOF) throw error(errc::bad_input, where() + ": truncated FRAME header");
      tag.push_back(static_cast<char>(ch));
      if (tag.size() > 1024) throw error(errc::bad_input, where() + ": FRAME header longer than 1024 bytes");
    }
    if (!tag.starts_with("FRAME")) throw error(errc::bad_input, where() + ": expected 'FRAME', found '" + tag.substr(0, 16) + "'");
    if (!(pic.format() == format_)) pic.reset(format_);
    const auto bytes = pic.bytes();
    const std::size_t got = std::fread(bytes.data(), 1, bytes.size(), file_.get());
    if (got != bytes.size())
      throw error(errc::bad_input, where() + ": truncated frame data (" + std::to_string(got) + " of " +
                                       std::to_string(bytes.size()) + " bytes)");
    ++frames_;
    return true;
  }

 private:
  [[nodiscard]] std::string where() const { return path_ + ": frame " + std::to_string(frames_); }
  [[nodiscard]] std::uint32_t parse_dim(const std::string& v, const char* what) const {
    char* end = nullptr;
    const unsigned long n = std::strtoul(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || n == 0 || n > 65536)
      throw error(errc::bad_input, path_ + ": bad Y4M " + what + " '" + v + "' (expected 1..65536)");
    return static_cast<std::uint32_t>(n);
  }

  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  picture_format format_{};
  std::size_t frames_ = 0;
};

}  // namespace vqm::io
