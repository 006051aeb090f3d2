// The shard file of `vqm ... --frame-range A:B --shard-out FILE`, read back by `vqm merge` (docs/cli.md,
// "Shards"): a header line "vqm-shard 1 fnv1a64=HEX bytes=N" then N bytes of JSON whose FNV-1a-64 is HEX.
// The JSON says what was measured (the inputs' identity, the options, the models, the vqm version), the
// frames [begin, end) it reports and whether end is the stream's end, and holds every value as the 16 hex
// digits of its bits (never decimal), with the state its aggregates read.
#pragma once

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "vqm/detail/json.hpp"
#include "vqm/error.hpp"
#include "vqm/picture.hpp"
#include "vqm/scorer.hpp"

namespace vqm::cli {

inline constexpr int shard_format_version = 1;

// FNV-1a, 64 bits: the shard's checksum and the inputs' fingerprints (cheap; not a cryptographic hash).
[[nodiscard]] inline std::uint64_t fnv1a64(std::string_view data, std::uint64_t h = 0xcbf29ce484222325ull) noexcept {
  for (const char c : data) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

// The size and a fingerprint of a regular file: FNV-1a-64 of its first and last MiB (the header of a Y4M
// and both ends of the frames), or nothing for a pipe, standard input or a URL.
[[nodiscard]] inline std::string file_fingerprint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  if (path == "-" || !in || !std::filesystem::is_regular_file(path, ec)) return {};
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return {};
  constexpr std::uintmax_t part = 1 << 20;
  std::string buf(static_cast<std::size_t>(std::min(size, part)), '\0');
  in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
  std::uint64_t h = fnv1a64(buf);
  if (size > part) {
    in.seekg(static_cast<std::streamoff>(size - std::min(size - part, part)));
    buf.resize(static_cast<std::size_t>(std::min(size - part, part)));
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    h = fnv1a64(buf, h);
  }
  if (!in) return {};
  return fmt::format("{} bytes, fnv1a64 {:016x}", size, h);
}

// One shard, as written and as read.
struct shard {
  std::string file;  // the path it was read from (messages)
  std::string version;
  // What must be equal in every shard of one merge, in a fixed order: inputs, options, models, the series.
  std::vector<std::pair<std::string, std::string>> identity;
  std::vector<std::string> requests;  // every feature the session computed ("psnr=enable_apsnr=true")
  picture_format format;              // as scored (after --scale and the common bit depth)
  std::string backend;
  std::size_t begin = 0, end = 0;  // frames [begin, end) of the stream
  bool stream_end = false;         // end is the stream's last frame + 1
  double seconds = 0.0;            // the shard's measuring time
  std::vector<std::string> names;
  std::vector<frame_result> frames;  // the reported frames, in order
  std::vector<named_state> clip_states;
};

namespace shard_detail {

[[nodiscard]] inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
    else out += c;
  }
  return out + '"';
}

[[nodiscard]] inline std::string hex_words(std::span<const std::uint64_t> w) {
  std::string out;
  for (const auto v : w) out += fmt::format("{}{:016x}", out.empty() ? "" : " ", v);
  return out;
}

[[nodiscard]] inline std::uint64_t bits(double v) noexcept {
  std::uint64_t u = 0;
  std::memcpy(&u, &v, sizeof u);
  return u;
}
[[nodiscard]] inline double from_bits(std::uint64_t u) noexcept {
  double v = 0.0;
  std::memcpy(&v, &u, sizeof v);
  return v;
}

// A reader's failure: "FILE: corrupt shard (WHAT)".
[[noreturn]] inline void corrupt(const std::string& file, const std::string& what) {
  throw error(errc::bad_input, file + ": corrupt shard (" + what + "; write it again with --shard-out)");
}

[[nodiscard]] inline std::vector<std::uint64_t> parse_words(const std::string& file, std::string_view s) {
  std::vector<std::uint64_t> out;
  while (!s.empty()) {
    const auto sp = std::min(s.find(' '), s.size());
    std::uint64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + sp, v, 16);
    if (sp != 16 || r.ec != std::errc{} || r.ptr != s.data() + sp) corrupt(file, "a value is not 16 hex digits");
    out.push_back(v);
    s.remove_prefix(std::min(sp + 1, s.size()));
  }
  return out;
}

struct reader {
  const std::string& file;
  const json::value& root;
  [[nodiscard]] const json::value& get(const json::value& o, const char* key, json::kind k) const {
    const auto* v = o.find(key);
    if (!v || v->type() != k) corrupt(file, std::string("no ") + key);
    return *v;
  }
  [[nodiscard]] std::string text(const json::value& o, const char* key) const { return get(o, key, json::kind::string).text(); }
  [[nodiscard]] std::size_t count(const json::value& o, const char* key) const {
    const auto& t = get(o, key, json::kind::number).text();
    std::size_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size()) corrupt(file, std::string("bad ") + key);
    return v;
  }
};

}  // namespace shard_detail

// The file's text: header line, then the JSON.
[[nodiscard]] inline std::string write_shard(const shard& s) {
  using shard_detail::json_string;
  std::string j = "{\n";
  j += fmt::format("  \"format\": \"vqm-shard\",\n  \"format_version\": {},\n  \"vqm_version\": {},\n",
                   shard_format_version, json_string(s.version));
  j += "  \"identity\": {";
  for (std::size_t k = 0; k < s.identity.size(); ++k)
    j += fmt::format("{}\n    {}: {}", k ? "," : "", json_string(s.identity[k].first), json_string(s.identity[k].second));
  j += "\n  },\n  \"requests\": [";
  for (std::size_t k = 0; k < s.requests.size(); ++k) j += (k ? ", " : "") + json_string(s.requests[k]);
  const auto& f = s.format;
  j += fmt::format("],\n  \"picture\": [{}, {}, {}, {}, {}, {}],\n", f.width, f.height, static_cast<int>(f.chroma),
                   f.bit_depth, static_cast<int>(f.layout), f.msb_shift);
  j += fmt::format("  \"backend\": {},\n  \"begin\": {},\n  \"end\": {},\n  \"stream_end\": {},\n  \"seconds\": \"{:016x}\",\n",
                   json_string(s.backend), s.begin, s.end, s.stream_end, shard_detail::bits(s.seconds));
  j += "  \"names\": [";
  for (std::size_t k = 0; k < s.names.size(); ++k) j += (k ? ", " : "") + json_string(s.names[k]);
  j += "],\n  \"frames\": [";
  std::vector<std::uint64_t> w;
  for (std::size_t r = 0; r < s.frames.size(); ++r) {
    w.clear();
    for (const double v : s.frames[r].values) w.push_back(shard_detail::bits(v));
    j += fmt::format("{}\n    \"{} {}\"", r ? "," : "", s.frames[r].index, shard_detail::hex_words(w));
  }
  j += "\n  ],\n  \"clip_states\": [";
  for (std::size_t k = 0; k < s.clip_states.size(); ++k)
    j += fmt::format("{}\n    [{}, \"{}\"]", k ? "," : "", json_string(s.clip_states[k].first),
                     shard_detail::hex_words(s.clip_states[k].second));
  j += "\n  ]\n}\n";
  return fmt::format("vqm-shard {} fnv1a64={:016x} bytes={}\n", shard_format_version, fnv1a64(j), j.size()) + j;
}

// Reads and checks one shard file: its header, length and checksum, then every field. Each failure is
// one line naming the file and the problem.
[[nodiscard]] inline shard read_shard(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error(errc::io, path + ": cannot read the shard (" + std::strerror(errno) + ")");
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw error(errc::io, path + ": cannot read the shard (" + std::strerror(errno) + ")");
  const auto nl = all.find('\n');
  const std::string_view head = std::string_view(all).substr(0, nl == std::string::npos ? all.size() : nl);
  if (!head.starts_with("vqm-shard "))
    throw error(errc::bad_input, path + ": not a vqm shard file (write shards with --frame-range A:B --shard-out FILE)");
  int version = 0;
  std::uint64_t sum = 0;
  std::size_t bytes = 0;
  if (std::sscanf(std::string(head).c_str(), "vqm-shard %d fnv1a64=%16lx bytes=%zu", &version, &sum, &bytes) != 3)
    shard_detail::corrupt(path, "bad header line");
  if (version != shard_format_version)
    throw error(errc::bad_input, fmt::format("{}: shard format {}, but this vqm reads format {} (merge with the vqm "
                                             "that wrote it)", path, version, shard_format_version));
  const std::string_view body = std::string_view(all).substr(nl + 1);
  if (body.size() < bytes)
    throw error(errc::bad_input, fmt::format("{}: truncated shard ({} of {} bytes; write it again with --shard-out)",
                                             path, body.size(), bytes));
  if (body.size() > bytes) shard_detail::corrupt(path, fmt::format("{} bytes after its end", body.size() - bytes));
  if (fnv1a64(body) != sum) shard_detail::corrupt(path, "checksum mismatch");
  json::value root;
  try {
    root = json::parse(body, path);
  } catch (const error& e) {
    shard_detail::corrupt(path, e.what());
  }
  const shard_detail::reader r{path, root};
  shard s;
  s.file = path;
  if (r.text(root, "format") != "vqm-shard") shard_detail::corrupt(path, "not a vqm-shard document");
  s.version = r.text(root, "vqm_version");
  for (const auto& [k, v] : r.get(root, "identity", json::kind::object).members()) {
    if (!v.is_string()) shard_detail::corrupt(path, "identity " + k + " is not a string");
    s.identity.emplace_back(k, v.text());
  }
  for (const auto& q : r.get(root, "requests", json::kind::array).items()) {
    if (!q.is_string()) shard_detail::corrupt(path, "a request is not a string");
    s.requests.push_back(q.text());
  }
  std::vector<std::size_t> f;
  for (const auto& v : r.get(root, "picture", json::kind::array).items()) {
    if (!v.is_number() || v.number() < 0 || v.number() > 1e9) shard_detail::corrupt(path, "bad format");
    f.push_back(static_cast<std::size_t>(v.number()));
  }
  if (f.size() != 6 || f[2] > 3 || f[4] > 2) shard_detail::corrupt(path, "bad format");
  s.format = {static_cast<std::uint32_t>(f[0]), static_cast<std::uint32_t>(f[1]), static_cast<chroma_format>(f[2]),
              static_cast<std::uint32_t>(f[3]), static_cast<chroma_layout>(f[4]), static_cast<std::uint32_t>(f[5])};
  s.backend = r.text(root, "backend");
  s.begin = r.count(root, "begin");
  s.end = r.count(root, "end");
  s.stream_end = r.get(root, "stream_end", json::kind::boolean).boolean();
  const auto secs = shard_detail::parse_words(path, r.text(root, "seconds"));
  if (secs.size() != 1) shard_detail::corrupt(path, "bad seconds");
  s.seconds = shard_detail::from_bits(secs[0]);
  for (const auto& n : r.get(root, "names", json::kind::array).items()) {
    if (!n.is_string()) shard_detail::corrupt(path, "a name is not a string");
    s.names.push_back(n.text());
  }
  for (const auto& row : r.get(root, "frames", json::kind::array).items()) {
    if (!row.is_string()) shard_detail::corrupt(path, "a frame is not a string");
    const std::string_view t = row.text();
    const auto sp = std::min(t.find(' '), t.size());
    frame_result fr;
    const auto res = std::from_chars(t.data(), t.data() + sp, fr.index);
    if (res.ec != std::errc{} || res.ptr != t.data() + sp) shard_detail::corrupt(path, "bad frame number");
    for (const auto w : shard_detail::parse_words(path, t.substr(std::min(sp + 1, t.size()))))
      fr.values.push_back(shard_detail::from_bits(w));
    if (fr.values.size() != s.names.size()) shard_detail::corrupt(path, fmt::format("frame {}: not one value per name", fr.index));
    if (fr.index < s.begin || fr.index >= s.end || (!s.frames.empty() && fr.index <= s.frames.back().index))
      shard_detail::corrupt(path, fmt::format("frame {} out of order or outside {}..{}", fr.index, s.begin, s.end));
    s.frames.push_back(std::move(fr));
  }
  for (const auto& c : r.get(root, "clip_states", json::kind::array).items()) {
    if (!c.is_array() || c.items().size() != 2 || !c.items()[0].is_string() || !c.items()[1].is_string())
      shard_detail::corrupt(path, "bad clip state");
    s.clip_states.emplace_back(c.items()[0].text(), shard_detail::parse_words(path, c.items()[1].text()));
  }
  if (s.begin >= s.end) shard_detail::corrupt(path, "an empty frame range");
  return s;
}

}  // namespace vqm::cli
