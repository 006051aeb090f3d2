// Reader of the golden-vector traces captured from libvpx (SPEC §10, "VP9LPFT1").
// Every malformed input becomes a vqm::error whose one-line message names the file and the problem.
#pragma once

#include <array>
#include <cstdint>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <fstream>
#include <string>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/lpf/edge.hpp"

namespace vqm::lpf {

struct trace_record {
  kind k;
  std::uint8_t E = 0, I = 0, H = 0;
  // [line][k]: line l is row l (h) or column l (v); tap k in 0..15 sits at offset k - 8 (7 = p0, 8 = q0).
  std::array<std::array<std::uint8_t, 16>, 8> before{}, after{};
};

inline constexpr char trace_magic[8] = {'V', 'P', '9', 'L', 'P', 'F', 'T', '1'};
inline constexpr std::uint32_t trace_record_size = 264;

namespace detail {
inline std::uint32_t load_le32(const unsigned char* b) {
  return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
}
}  // namespace detail

// Parses a trace held in memory; `name` only labels the errors.
inline std::vector<trace_record> parse_trace(const std::vector<unsigned char>& bytes, const std::string& name) {
  auto fail = [&](const std::string& what) -> void { throw error(errc::bad_input, name + ": " + what); };
  if (bytes.size() < 16) fail("truncated header (" + std::to_string(bytes.size()) + " of 16 bytes)");
  if (std::memcmp(bytes.data(), trace_magic, 8) != 0) fail("wrong magic (expected \"VP9LPFT1\"), not a VP9 loop-filter trace");
  const std::uint32_t count = detail::load_le32(bytes.data() + 8);
  const std::uint32_t rsize = detail::load_le32(bytes.data() + 12);
  if (rsize != trace_record_size)
    fail("record size " + std::to_string(rsize) + " is not " + std::to_string(trace_record_size) + " (unknown format version)");
  const std::uint64_t need = 16 + std::uint64_t(count) * rsize;
  if (bytes.size() < need)
    fail("truncated: header announces " + std::to_string(count) + " records (" + std::to_string(need) +
         " bytes) but the file has " + std::to_string(bytes.size()) + " bytes");
  if (bytes.size() > need)
    fail(std::to_string(bytes.size() - need) + " trailing bytes after " + std::to_string(count) + " records");
  std::vector<trace_record> out(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const unsigned char* b = bytes.data() + 16 + std::uint64_t(i) * rsize;
    if (b[0] > 1) fail("record " + std::to_string(i) + ": dir " + std::to_string(b[0]) + " is not 0 (h) or 1 (v)");
    if (!valid_wd(b[1])) fail("record " + std::to_string(i) + ": wd " + std::to_string(b[1]) + " is not 4, 8 or 16");
    if (b[2] > max_E) fail("record " + std::to_string(i) + ": E = " + std::to_string(b[2]) + " is above 254");
    trace_record& r = out[i];
    r.k = {static_cast<direction>(b[0]), b[1]};
    r.E = b[2];
    r.I = b[3];
    r.H = b[4];
    std::memcpy(r.before.data(), b + 8, 128);
    std::memcpy(r.after.data(), b + 136, 128);
  }
  return out;
}

inline std::vector<trace_record> read_trace(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw error(errc::io, path + ": cannot open (" + std::strerror(errno) + ")");
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) throw error(errc::io, path + ": read error");
  return parse_trace(bytes, path);
}

// The records of one kind laid out as independent tiles of one plane (SPEC §10):
// h: 16 px x 8 rows per record, stride 16, q0 at column 8; v: 8 px x 16 rows, stride 8, q0 at row 8.
// `expected` holds libvpx's output over the whole plane, so a comparison also catches stray writes.
struct trace_batch {
  kind k;
  std::size_t stride = 0;
  std::vector<std::uint8_t> pixels, expected;
  std::vector<edge> edges;
};

inline trace_batch layout_trace(const std::vector<trace_record>& records, kind k) {
  trace_batch b;
  b.k = k;
  const bool h = k.dir == direction::h;
  b.stride = h ? 16 : 8;
  for (const trace_record& r : records) {
    if (!(r.k == k)) continue;
    const std::size_t base = b.pixels.size();
    b.pixels.resize(base + 128);
    b.expected.resize(base + 128);
    for (int l = 0; l < 8; ++l)
      for (int t = 0; t < 16; ++t) {
        const std::size_t at = h ? base + std::size_t(l) * 16 + std::size_t(t) : base + std::size_t(t) * 8 + std::size_t(l);
        b.pixels[at] = r.before[std::size_t(l)][std::size_t(t)];
        b.expected[at] = r.after[std::size_t(l)][std::size_t(t)];
      }
    b.edges.push_back({static_cast<std::uint32_t>(base + (h ? 8 : 8 * 8)), r.E, r.I, r.H, 0});
  }
  return b;
}

}  // namespace vqm::lpf
