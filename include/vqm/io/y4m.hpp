// Y4M (YUV4MPEG2) reader: 8–16 bit, 4:2:0 / 4:2:2 / 4:4:4 / mono, any size (chroma planes rounded up,
// as files store them). Errors name the file, the frame and the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "vqm/error.hpp"
#include "vqm/io/compiled.hpp"
#include "vqm/io/file.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/io/read_frame.hpp"
#include "vqm/picture.hpp"

namespace vqm::io {

struct y4m_colorspace {
  chroma_format chroma;
  std::uint32_t bit_depth;
};

// Parses a Y4M 'C' tag value ("420jpeg", "422p10", "mono16", ...); false if unknown. Depths 9 and 14
// parse (the files are well formed); y4m_reader refuses them (vqm measures 8, 10, 12 and 16 bits).
[[nodiscard]] inline bool parse_y4m_colorspace(std::string_view c, y4m_colorspace& out) noexcept {
  auto depth = [](std::string_view digits, std::uint32_t& d) {
    for (auto [text, value] : {std::pair{std::string_view("9"), 9u}, std::pair{std::string_view("10"), 10u},
                               std::pair{std::string_view("12"), 12u}, std::pair{std::string_view("14"), 14u},
                               std::pair{std::string_view("16"), 16u}})
      if (digits == text) return d = value, true;
    return false;
  };
  if (c == "420jpeg" || c == "420paldv" || c == "420mpeg2" || c == "420") return out = {chroma_format::yuv420, 8}, true;
  if (c.starts_with("mono")) {
    const auto rest = c.substr(4);
    out.chroma = chroma_format::yuv400;
    if (rest.empty()) return out.bit_depth = 8, true;
    return depth(rest, out.bit_depth);  // "mono10", "mono12", "mono16"
  }
  for (auto [prefix, chroma] : {std::pair{std::string_view("420"), chroma_format::yuv420},
                                std::pair{std::string_view("422"), chroma_format::yuv422},
                                std::pair{std::string_view("444"), chroma_format::yuv444}}) {
    if (!c.starts_with(prefix)) continue;
    const auto rest = c.substr(3);
    out.chroma = chroma;
    if (rest.empty()) return out.bit_depth = 8, true;
    return rest.front() == 'p' && depth(rest.substr(1), out.bit_depth);  // "420p10"
  }
  return false;
}

class y4m_reader final : public frame_source {
 public:
  static constexpr std::size_t max_header = 4096;

  explicit y4m_reader(const std::string& path) : y4m_reader(path, open_input(path)) {}

  // An input already opened (read once: a pipe, standard input); `consumed` is what was read from it
  // before (the start of the header, when the caller sniffed the format).
  y4m_reader(const std::string& path, opened_file opened, std::string_view consumed = {});

  [[nodiscard]] const picture_format& format() const noexcept override { return format_; }
  [[nodiscard]] const std::string& path() const noexcept override { return path_; }
  [[nodiscard]] std::size_t frames_read() const noexcept override { return frames_; }

  // From the file size, assuming plain "FRAME\n" headers (what every encoder writes).
  [[nodiscard]] std::optional<std::size_t> frame_count_hint() const noexcept override {
    if (file_size_ < header_bytes_) return std::nullopt;
    return static_cast<std::size_t>((file_size_ - header_bytes_) / (format_.frame_bytes() + 6));
  }

  bool read(picture& pic) override;
  // In place, a pipe's frames too: the caller's memory has the frame's size already. `dst` is only
  // written (detail::read_frame); a frame with a sample out of range is read back once to say where.
  bool read_into(std::span<std::byte> dst) override;
  [[nodiscard]] bool skips_by_seeking() const noexcept override { return regular_; }
  bool skip() override;
  void read_in_parallel(executor* ex, unsigned width) override { reader_.set_parallel({ex, width}); }

 private:
  [[nodiscard]] std::string where() const;
  [[nodiscard]] error truncated(std::size_t got) const;
  // The frame's samples after its header, into `dst` (frame_bytes()), checked.
  void read_body(std::span<std::byte> dst);
  // Checks a frame's samples against the declared bit depth (the metrics assume they fit).
  void check_samples(const picture_view& v) const;
  void read_staged(picture& pic);
  // Consumes "FRAME[ params]\n"; false at a clean end of file. White space alone after the last frame
  // (a stray newline) is a clean end too: FFmpeg and libvmaf's vmaf measure every frame of such files.
  bool next_frame_header();
  [[nodiscard]] std::uint32_t parse_dim(const std::string& v, const char* what) const;

  std::string path_;
  file_ptr file_;
  std::uint64_t file_size_ = 0;
  bool regular_ = false;
  std::uint64_t header_bytes_ = 0;
  picture_format format_{};
  std::size_t frames_ = 0;
  detail::frame_reader reader_;  // read_into's
};

}  // namespace vqm::io

#if VQM_IO_BODIES
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "vqm/io/limits.hpp"

namespace vqm::io {

VQM_IO_INLINE y4m_reader::y4m_reader(const std::string& path, opened_file opened, std::string_view consumed)
    : path_(path), file_(std::move(opened.file)) {
  file_size_ = opened.size;
  regular_ = opened.regular;
  std::string header(consumed);
  for (int ch; (ch = std::fgetc(file_.get())) != '\n';) {
    if (ch == EOF) {
      if (header.empty()) throw error(errc::bad_input, path + ": empty file (expected a Y4M header)");
      throw error(errc::bad_input, path + ": truncated Y4M header (no end of line after '" + header.substr(0, 40) + "')");
    }
    header.push_back(static_cast<char>(ch));
    if (header.size() > max_header)
      throw error(errc::bad_input, path + ": Y4M header longer than 4096 bytes (not a Y4M file?)");
  }
  header_bytes_ = header.size() + 1;
  if (!header.starts_with("YUV4MPEG2 ") && header != "YUV4MPEG2")
    throw error(errc::bad_input, path + ": not a Y4M file (missing 'YUV4MPEG2' signature; raw .yuv input is read by "
                                        "io::yuv_reader, given its picture format)");
  std::string_view rest(header);
  rest.remove_prefix(9);
  std::string colorspace = "420jpeg";  // the Y4M default
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
          throw error(errc::unsupported_format, path + ": interlaced Y4M (I" + val + ") is not supported (progressive only)");
        break;
      default: break;  // F (rate), A (aspect), X (comments) do not affect the samples
    }
  }
  if (!have_w || !have_h) throw error(errc::bad_input, path + ": Y4M header lacks the W (width) or H (height) tag");
  y4m_colorspace cs{};
  if (!parse_y4m_colorspace(colorspace, cs))
    throw error(errc::unsupported_format,
                path + ": unsupported Y4M colorspace 'C" + colorspace +
                    "' (supported: 420jpeg/420paldv/420mpeg2/420/422/444 with optional p9..p16, mono[9..16])");
  format_.chroma = cs.chroma;
  format_.bit_depth = cs.bit_depth;
  if (cs.bit_depth == 9 || cs.bit_depth == 14)
    throw error(errc::unsupported_format,
                path + ": " + std::to_string(cs.bit_depth) + "-bit Y4M (C" + colorspace +
                    ") is not supported; vqm measures 8, 10, 12 and 16-bit video (convert it, e.g. with ffmpeg "
                    "-pix_fmt yuv420p10le)");
  check_geometry(path, format_);
  // A regular file must hold at least one frame of the size the header claims (or none at all), so a
  // short file with a huge header fails here, before a frame buffer is allocated.
  if (regular_ && file_size_ > header_bytes_ && file_size_ - header_bytes_ < format_.frame_bytes() + 6)
    throw error(errc::bad_input, path + ": the header says " + describe(format_) + ", " +
                                     std::to_string(format_.frame_bytes()) + " bytes a frame, but the file holds " +
                                     std::to_string(file_size_ - header_bytes_) +
                                     " bytes after the header (a wrong size in the header, or a truncated file)");
}

VQM_IO_INLINE bool y4m_reader::read(picture& pic) {
  if (!next_frame_header()) return false;
  // A moved-from picture keeps its format but not its samples: check both.
  if (!(pic.format() == format_) || pic.bytes().size() != format_.frame_bytes()) {
    if (!regular_) {
      // A pipe's size is unknown: read into memory that grows with the data that arrives, so a
      // header claiming a huge size costs only what the stream really sends.
      read_staged(pic);
      return true;
    }
    pic.reset(format_);
  }
  read_body(pic.bytes());
  return true;
}

VQM_IO_INLINE bool y4m_reader::read_into(std::span<std::byte> dst) {
  check_destination(dst);
  if (!next_frame_header()) return false;
  const auto r = reader_.read(file_.get(), regular_, dst, format_);
  if (r.error) throw error(errc::io, where() + ": read error: " + std::strerror(r.error));
  if (r.bytes != dst.size()) throw truncated(r.bytes);
  if (r.out_of_range) check_samples(packed_view(format_, dst.data()));
  ++frames_;
  return true;
}

VQM_IO_INLINE bool y4m_reader::skip() {
  if (!next_frame_header()) return false;
  if (!regular_) {  // no seeking in a pipe
    char buf[1 << 16];
    std::size_t left = format_.frame_bytes(), got = 0;
    while (left > 0) {
      const std::size_t n = std::fread(buf, 1, std::min(left, sizeof buf), file_.get());
      got += n;
      left -= n;
      if (n == 0) throw truncated(got);
    }
    ++frames_;
    return true;
  }
  const auto pos = std::ftell(file_.get());
  const auto need = static_cast<std::uint64_t>(format_.frame_bytes());
  if (pos < 0 || static_cast<std::uint64_t>(pos) + need > file_size_)
    throw truncated(pos < 0 ? 0 : static_cast<std::size_t>(file_size_ - static_cast<std::uint64_t>(pos)));
  if (std::fseek(file_.get(), static_cast<long>(need), SEEK_CUR) != 0) throw truncated(0);
  ++frames_;
  return true;
}

VQM_IO_INLINE std::string y4m_reader::where() const { return path_ + ": frame " + std::to_string(frames_); }
VQM_IO_INLINE error y4m_reader::truncated(std::size_t got) const {
  return error(errc::bad_input, where() + ": truncated frame data (" + std::to_string(got) + " of " +
                                    std::to_string(format_.frame_bytes()) + " bytes for " + describe(format_) +
                                    "; the file ends early)");
}

VQM_IO_INLINE void y4m_reader::read_body(std::span<std::byte> dst) {
  const std::size_t got = std::fread(dst.data(), 1, dst.size(), file_.get());
  if (got != dst.size()) throw truncated(got);
  check_samples(packed_view(format_, dst.data()));
  ++frames_;
}

VQM_IO_INLINE void y4m_reader::check_samples(const picture_view& v) const {
  if (const auto bad = find_sample_out_of_range(v))
    throw error(errc::bad_input, where() + ": " + describe(*bad, format_.bit_depth) +
                                     " (the header's bit depth is wrong, or the file is corrupt)");
}

VQM_IO_INLINE void y4m_reader::read_staged(picture& pic) {
  const std::size_t need = format_.frame_bytes();
  std::vector<std::byte> data;
  while (data.size() < need) {
    const std::size_t old = data.size(), step = std::min<std::size_t>(need - old, std::size_t{8} << 20);
    data.resize(old + step);
    const std::size_t got = std::fread(data.data() + old, 1, step, file_.get());
    if (got != step) throw truncated(old + got);
  }
  pic.reset(format_);
  std::memcpy(pic.bytes().data(), data.data(), need);
  check_samples(pic.view());
  ++frames_;
}

VQM_IO_INLINE bool y4m_reader::next_frame_header() {
  std::string tag;
  int ch = std::fgetc(file_.get());
  while (ch == '\n' || ch == '\r' || ch == ' ' || ch == '\t') {
    tag.push_back(static_cast<char>(ch));
    ch = std::fgetc(file_.get());
    if (ch != EOF && ch != '\n' && ch != '\r' && ch != ' ' && ch != '\t') {
      throw error(errc::bad_input, where() + ": expected a 'FRAME' header, found white space (corrupt file, or the "
                                             "header's size/colorspace is wrong)");
    }
  }
  if (ch == EOF) {
    if (std::ferror(file_.get())) throw error(errc::io, where() + ": read error: " + std::strerror(errno));
    return false;
  }
  for (; ch != '\n'; ch = std::fgetc(file_.get())) {
    if (ch == EOF) throw error(errc::bad_input, where() + ": truncated FRAME header (the file ends early)");
    tag.push_back(static_cast<char>(ch));
    if (tag.size() > 1024) throw error(errc::bad_input, where() + ": FRAME header longer than 1024 bytes (corrupt file?)");
  }
  if (tag != "FRAME" && !tag.starts_with("FRAME ")) {
    std::string shown;
    for (char c : tag.substr(0, 16)) shown += (c >= 32 && c < 127) ? c : '?';
    throw error(errc::bad_input, where() + ": expected a 'FRAME' header, found '" + shown +
                                     "' (corrupt file, or the header's size/colorspace is wrong)");
  }
  return true;
}

VQM_IO_INLINE std::uint32_t y4m_reader::parse_dim(const std::string& v, const char* what) const {
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || v.front() == '-' || v.front() == '+')
    throw error(errc::bad_input, path_ + ": bad Y4M " + what + " '" + v + "' (expected a positive integer)");
  if (n == 0) throw error(errc::bad_input, path_ + ": Y4M " + what + " is 0 (must be at least 1)");
  if (n > max_dimension)
    throw error(errc::bad_input, path_ + ": Y4M " + what + " " + v + " is implausibly large (at most " +
                                     std::to_string(max_dimension) + ")");
  return static_cast<std::uint32_t>(n);
}

}  // namespace vqm::io
#endif
