// The measuring loop, generic over the backend: read frame pairs (or a reference and several distorted)
// into rings of pictures, keep `depth` frames in flight per distorted, collect results in frame order.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "progress.hpp"
#include "read_ahead.hpp"
#include "report.hpp"
#include "vqm/io/bit_depth.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/multi_session.hpp"
#include "vqm/thread_pool.hpp"
#include "vqm/vqm.hpp"

namespace vqm::cli {

struct run_config {
  std::vector<vmaf::model> models;        // predicted after the features (libvmaf's --model)
  std::vector<feature_request> features;  // --feature, after the models' own features
  compat mode = compat::none;
  std::size_t frame_cnt = 0;  // 0: all frames
  // libvmaf's --frame_skip_ref / --frame_skip_dist: frames passed over at the start of each input before
  // the pairs are formed (never measured, not even by temporal features); frameNum counts from 0 after.
  std::size_t frame_skip_ref = 0, frame_skip_dist = 0;
  std::size_t subsample = 1;
  // --frame-range A:B (a shard, shard_file.hpp): report frames [A, B) of the stream (counted after the
  // skips; B past the end is the end), reading the frames around them that temporal features need.
  std::optional<std::pair<std::size_t, std::size_t>> range;
  bool quiet = false;
  bool show_progress = true;
};

// What a --frame-range run leaves for `vqm merge` besides its report: the frames it reports, whether
// they end the stream, and the state its aggregates read.
struct shard_part {
  std::size_t begin = 0, end = 0;
  bool stream_end = false;
  std::vector<named_state> clip_states;
};

// "psnr=enable_mse=true:min_sse=0.5" -> {"psnr", {enable_mse: true, min_sse: 0.5}}
[[nodiscard]] inline feature_request parse_feature(const std::string& text) {
  try {
    return parse_feature_request(text);
  } catch (const error& e) {
    throw error(e.code(), std::string("--feature ") + e.what());
  }
}

// Throws errc::mismatch unless both inputs have the same geometry (after common_bit_depth).
inline void check_same_format(const io::frame_source& ref, const io::frame_source& dis) {
  // A planar file against the same samples stored semi-planar (an NV12 decode) is a valid pair.
  const auto a = planar_equivalent(ref.format()), b = planar_equivalent(dis.format());
  if (a == b) return;
  // --scale fixes a size only; another chroma format needs the file converted.
  const bool sizes = a.width != b.width || a.height != b.height, chroma = a.chroma != b.chroma;
  const std::string convert = "convert one, e.g. ffmpeg -i IN -pix_fmt FORMAT -f yuv4mpegpipe OUT.y4m";
  const std::string scale = "--scale MODE scales the distorted to the reference's size";
  const std::string fix = sizes && !chroma ? " (both must have the same size; " + scale + ")"
                          : sizes          ? " (both must have the same size and chroma format; " + convert + "; " + scale + ")"
                                           : " (both must have the same chroma format; " + convert + ")";
  throw error(errc::mismatch, "reference " + ref.path() + " is " + describe(ref.format()) + " but distorted " +
                                  dis.path() + " is " + describe(dis.format()) + fix);
}

// Inputs that differ only in bit depth (AOM CTC: an 8-bit reference, a 10-bit encode) are scored at the
// higher depth, the lower one's samples shifted left, as libvmaf does (SPEC-metrics 1.1). Returns the
// note that says so, or an empty string when the depths agree (or the inputs differ otherwise, which
// check_same_format reports).
[[nodiscard]] inline std::string common_bit_depth(std::unique_ptr<io::frame_source>& ref,
                                                  std::unique_ptr<io::frame_source>& dis) {
  auto a = ref->format(), b = dis->format();
  if (a.bit_depth == b.bit_depth) return {};
  const auto high = std::max(a.bit_depth, b.bit_depth);
  a.bit_depth = b.bit_depth = high;
  if (!(a == b)) return {};
  const bool ref_low = ref->format().bit_depth < high;
  auto& low = ref_low ? ref : dis;
  const auto from = low->format().bit_depth;
  std::string note = fmt::format("reference {} is {}-bit and distorted {} is {}-bit: scoring both at {} bits, the {}'s "
                                 "samples shifted left by {} (as libvmaf does)",
                                 ref->path(), ref->format().bit_depth, dis->path(), dis->format().bit_depth, high,
                                 ref_low ? "reference" : "distorted", high - from);
  low = std::make_unique<io::bit_depth_source>(std::move(low), high);
  return note;
}

// Several distorted: the reference, read once, is scored at one bit depth, so every pair must agree on
// its common depth (an 8-bit reference with a 10-bit and an 8-bit distorted is refused: run those pairs
// separately). Returns the notes of the shifts, as common_bit_depth for each pair.
[[nodiscard]] inline std::vector<std::string> common_bit_depth(std::unique_ptr<io::frame_source>& ref,
                                                               std::vector<std::unique_ptr<io::frame_source>>& dis) {
  const auto depth_only = [&](const io::frame_source& d) {
    auto a = ref->format(), b = d.format();
    a.bit_depth = b.bit_depth;
    return a == b;
  };
  for (std::size_t k = 1; k < dis.size(); ++k)
    for (std::size_t j = 0; j < k; ++j) {
      if (!depth_only(*dis[j]) || !depth_only(*dis[k])) continue;  // check_same_format names those
      const auto a = std::max(ref->format().bit_depth, dis[j]->format().bit_depth);
      const auto b = std::max(ref->format().bit_depth, dis[k]->format().bit_depth);
      if (a != b)
        throw error(errc::mismatch, fmt::format("reference {} is {}-bit, distorted {} is {}-bit and distorted {} is "
                                                "{}-bit: with several -d the reference is scored at one bit depth "
                                                "(score these distorted in separate runs)",
                                                ref->path(), ref->format().bit_depth, dis[j]->path(),
                                                dis[j]->format().bit_depth, dis[k]->path(), dis[k]->format().bit_depth));
    }
  std::vector<std::string> notes;
  for (auto& d : dis)
    if (auto note = common_bit_depth(ref, d); !note.empty()) notes.push_back(std::move(note));
  return notes;
}

// A backend whose frames read host memory of its own in place (vqm::Vulkan's host_picture): the inputs are
// read straight into it, so a frame's pixels are copied once on the host (by the read) instead of twice.
template <class B>
concept reads_host_pictures = requires(const B& b, const picture_format& f) {
  { b.host_picture(f).bytes() } -> std::same_as<std::span<std::byte>>;
  b.host_picture(f).flush();
  { b.host_picture(f).device_local() } -> std::same_as<bool>;
  b.begin_frame(b.host_picture(f).gpu(), b.host_picture(f).gpu());
};

namespace detail {
// The read-ahead ring's memory on such a backend: [input][slot] pictures (none on other backends, or when
// the backend cannot allocate them: the ring then holds pictures of its own and frames are uploaded).
template <class B>
class host_pictures {
 public:
  host_pictures(B&, io::frame_source&, std::span<io::frame_source* const>, std::size_t, bool = true) {}
  [[nodiscard]] bool empty() const noexcept { return true; }
  [[nodiscard]] read_ahead::memory spans() const { return {}; }
};

template <reads_host_pictures B>
class host_pictures<B> {
 public:
  // Written only (the readers check samples on the way): VRAM behind a resizable BAR where there is one.
  // With several distorted, a reference in host memory is read back by the shared upload: cached memory.
  // `enabled` false (several devices: a picture is one device's): none, as on other backends.
  host_pictures(B& b, io::frame_source& ref, std::span<io::frame_source* const> dis, std::size_t slots,
                bool enabled = true) {
    if (!enabled) return;
    try {
      pics_.resize(1 + dis.size());
      for (std::size_t k = 0; k < pics_.size(); ++k) {
        const auto& f = (k ? dis[k - 1] : &ref)->format();
        pics_[k].push_back(b.host_picture(f));
        const bool read_back = k == 0 && dis.size() > 1 && !pics_[k].front().device_local();
        if (read_back) pics_[k].back() = b.host_picture(f, picture_type::access::read_write);
        while (pics_[k].size() < slots)
          pics_[k].push_back(b.host_picture(f, read_back ? picture_type::access::read_write : picture_type::access::write));
      }
    } catch (const error&) {
      pics_.clear();  // e.g. out of host-visible memory: upload from pictures of the ring's own
      return;
    }
    // One thread's read into PCIe-mapped memory is slower than the GPU scores: each input's frames are
    // read in up to 4 parts at once (Y4M and raw files), on a pool of the cores the readers leave.
    sources_.push_back(&ref);
    sources_.insert(sources_.end(), dis.begin(), dis.end());
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned width = std::clamp<unsigned>(cores / static_cast<unsigned>(sources_.size()), 1, 4);
    if (width < 2) return;
    pool_.emplace((width - 1) * static_cast<unsigned>(sources_.size()), thread_start::as_many_as_possible);
    for (auto* s : sources_) s->read_in_parallel(&*pool_, width);
  }
  ~host_pictures() {
    for (auto* s : sources_) s->read_in_parallel(nullptr, 1);  // the pool goes first
  }
  host_pictures(const host_pictures&) = delete;
  host_pictures& operator=(const host_pictures&) = delete;
  [[nodiscard]] bool empty() const noexcept { return pics_.empty(); }
  [[nodiscard]] read_ahead::memory spans() const {
    read_ahead::memory m(pics_.size());
    for (std::size_t k = 0; k < pics_.size(); ++k)
      for (const auto& p : pics_[k]) m[k].push_back(p.bytes());
    return m;
  }
  // Pushes slot `i`'s frame, the distorted as GPU pictures; the reference too with one distorted or when it
  // is in VRAM (each distorted's frame copies it on the device), else its host view (multi_session then
  // uploads it once for all).
  template <class S>
  void push(S& sc, std::size_t i, const picture_view& ref) {
    for (auto& side : pics_) side[i].flush();
    gpu_.clear();
    for (std::size_t k = 1; k < pics_.size(); ++k) gpu_.push_back(pics_[k][i].gpu());
    const std::span<const gpu_type> d(gpu_);
    if (gpu_.size() == 1 || pics_[0][i].device_local()) sc.push(pics_[0][i].gpu(), d);
    else sc.push(ref, d);
  }

 private:
  using picture_type = decltype(std::declval<B&>().host_picture(picture_format{}));
  using gpu_type = decltype(std::declval<const picture_type&>().gpu());
  std::vector<std::vector<picture_type>> pics_;
  std::vector<gpu_type> gpu_;
  std::vector<io::frame_source*> sources_;  // reading in parts on pool_
  std::optional<thread_pool> pool_;
};

// "4 frames", or "4 frames after --frame_skip_ref 2" when frames were skipped.
[[nodiscard]] inline std::string frames_left(std::size_t n, std::size_t skipped, const char* flag) {
  return skipped ? fmt::format("{} frames after {} {}", n, flag, skipped) : fmt::format("{} frames", n);
}

// Passes over the frames before a --frame-range's context; an input with fewer is an error naming both.
inline void skip_to_range(io::frame_source& s, std::size_t n, std::size_t skipped, std::size_t a, const char* role,
                          const char* flag) {
  for (std::size_t k = 0; k < n; ++k)
    if (!s.skip())
      throw error(errc::bad_input, fmt::format("--frame-range starts at frame {} but {} {} has {} (start the range "
                                               "before the end)", a, role, s.path(),
                                               frames_left(s.frames_read() - skipped, skipped, flag)));
}

// Passes over the first `n` frames of `s`; an input with fewer is an error naming both numbers.
inline void skip_frames(io::frame_source& s, std::size_t n, const char* role, const char* flag) {
  for (std::size_t k = 0; k < n; ++k)
    if (!s.skip())
      throw error(errc::bad_input, fmt::format("{} {} has only {} frames, fewer than {} {} skips (skip fewer frames)",
                                               role, s.path(), s.frames_read(), flag, n));
}

// After read_ahead's next() drained the longer inputs (every frames_read() counts a whole file): the error
// naming the first distorted whose count differs from the reference's. `i`: the pairs read.
[[noreturn]] inline void throw_count_mismatch(io::frame_source& ref, std::span<io::frame_source* const> dis,
                                              std::size_t skip_ref, std::size_t skip_dis, std::size_t i) {
  const std::size_t nref = ref.frames_read() - skip_ref;
  const auto* d = dis.front();
  for (auto* k : dis)
    if (k->frames_read() - skip_dis != nref) {
      d = k;
      break;
    }
  // --frame_cnt 0 means all frames: suggest it only for a count that limits something.
  const auto hint = i > 0 ? fmt::format("; --frame_cnt {} compares the first {}", i, i) : std::string();
  throw error(errc::mismatch, fmt::format("reference {} has {} but distorted {} has {} (frame counts must match{})",
                                          ref.path(), frames_left(nref, skip_ref, "--frame_skip_ref"), d->path(),
                                          frames_left(d->frames_read() - skip_dis, skip_dis, "--frame_skip_dist"), hint));
}
}  // namespace detail

// One reference, many distorted (`-d a -d b ...`): the reference read once per frame, every distorted
// scored against it in one multi_session; one report per distorted, each equal to a run of its own pair
// (the same values, the same errors naming that distorted). fps: the whole pass, the same in each.
// Several backends (--devices with several -d): the distorted spread over them (multi_session's groups).
template <Backend B>
[[nodiscard]] std::vector<report> run(std::span<B* const> backends, std::size_t depth, const run_config& cfg,
                                      io::frame_source& ref, std::span<io::frame_source* const> dis,
                                      shard_part* part = nullptr) {
  B& backend = *backends.front();
  for (auto* d : dis) check_same_format(ref, *d);
  const auto& f = ref.format();
  if (cfg.models.empty() && cfg.features.empty())
    throw error(errc::invalid_argument, "nothing to compute: --no_prediction without --feature (add a --feature, or "
                                        "drop --no_prediction to get VMAF)");
  const std::size_t subsample = cfg.subsample ? cfg.subsample : 1;
  session_config sc_cfg{cfg.models, cfg.features, cfg.mode, depth, subsample};
  // A shard reads frames first .. probe-1: its range, the context around it, and one frame past its end at
  // least (whether the stream ends there); it pushes those before push_end.
  std::size_t first = 0, probe = 0, push_end = 0, read_limit = cfg.frame_cnt;
  if (cfg.range) {
    const auto [a, b] = *cfg.range;
    if (cfg.frame_cnt && a >= cfg.frame_cnt)
      throw error(errc::invalid_argument, fmt::format("--frame-range {}:{} starts past --frame_cnt {}", a, b, cfg.frame_cnt));
    const frame_context ctx = session<B>::context(sc_cfg);
    first = a > ctx.before ? a - ctx.before : 0;
    push_end = b + ctx.after;
    probe = std::max(push_end, b + 1);
    if (cfg.frame_cnt) probe = std::min(probe, cfg.frame_cnt);
    read_limit = probe - first;
    sc_cfg.first_index = first;
    sc_cfg.report_begin = a;
    sc_cfg.report_end = b;
  }
  std::optional<multi_session<B>> sc;
  try {
    sc.emplace(backends, f, sc_cfg, dis.size());
  } catch (const error& e) {
    if (e.code() != errc::unsupported_format) throw;
    throw error(e.code(), ref.path() + " (" + describe(f) + "): " + e.what());
  }
  depth = sc->depth();

  const std::size_t skip_ref = cfg.frame_skip_ref, skip_dis = cfg.frame_skip_dist;
  std::optional<std::size_t> total;
  const auto count = [&](io::frame_source* s, std::size_t skip) {
    if (auto h = s->frame_count_hint()) {
      const std::size_t left = *h > skip ? *h - skip : 0;
      total = total ? std::min(*total, left) : left;
    }
  };
  count(&ref, skip_ref);
  for (auto* d : dis) count(d, skip_dis);
  if (cfg.frame_cnt && total) total = std::min(*total, cfg.frame_cnt);
  if (cfg.range && total) total = *total > first ? std::min(*total - first, read_limit) : 0;
  progress prog(cfg.show_progress && !cfg.quiet, total);

  detail::skip_frames(ref, skip_ref, "reference", "--frame_skip_ref");
  for (auto* d : dis) detail::skip_frames(*d, skip_dis, "distorted", "--frame_skip_dist");
  if (cfg.range) {
    detail::skip_to_range(ref, first, skip_ref, cfg.range->first, "reference", "--frame_skip_ref");
    for (auto* d : dis) detail::skip_to_range(*d, first, skip_dis, cfg.range->first, "distorted", "--frame_skip_dist");
  }
  // Every input read on a thread of its own, ahead of the session, into pictures `input` owns or, on a
  // backend that reads host memory in place, straight into that memory: frames in flight read from them,
  // so both outlive the drain below (declared outside the try).
  const std::size_t ahead = read_ahead::default_ahead;
  detail::host_pictures<B> host(backend, ref, dis, read_ahead::ring_size(depth, ahead), backends.size() == 1);
  read_ahead input(ref, dis, depth, ahead, read_limit, host.spans());
  std::size_t i = 0;  // frames read (after the skips and the frames before a shard's context)
  try {
    std::vector<picture_view> views(dis.size());
    for (picture_view pr; input.next(pr, std::span<picture_view>(views));) {
      if (cfg.range && first + i >= push_end) {  // a shard's probe past its context: read, not measured
        ++i;
        continue;
      }
      if constexpr (reads_host_pictures<B>) {
        if (!host.empty()) host.push(*sc, input.slot(), pr);
        else sc->push(pr, views);
      } else {
        sc->push(pr, views);
      }
      prog.update(++i);
    }
    if (input.ended_first() != read_ahead::input::none) detail::throw_count_mismatch(ref, dis, skip_ref, skip_dis, i);
    sc->drain();
  } catch (...) {
    // Frames still in flight read from the input's ring: let them finish before it goes away.
    try {
      sc->drain();
    } catch (...) {
    }
    throw;
  }
  prog.finish();
  std::size_t frames_read = ref.frames_read() - skip_ref;
  if (cfg.range) {
    const auto [a, b] = *cfg.range;
    if (first + i <= a)
      throw error(errc::bad_input, fmt::format("--frame-range {}:{} starts at frame {} but the stream has {} (start the "
                                               "range before the end)", a, b, a, detail::frames_left(first + i, skip_ref, "--frame_skip_ref")));
    frames_read = std::min(b, first + i) - a;
    if (part) *part = {a, a + frames_read, first + i <= b, {}};
  }
  if (frames_read == 0)
    throw error(errc::bad_input, skip_ref || skip_dis
                                     ? fmt::format("{}: no frames to compare after skipping {} (the file has {})",
                                                   ref.path(), skip_ref, ref.frames_read())
                                     : ref.path() + ": no frames to compare (the file has none)");
  const double secs = prog.seconds();
  std::vector<report> out;
  for (auto& table : sc->finish()) {
    report& rep = out.emplace_back();
    rep.width = f.width;
    rep.height = f.height;
    rep.frames_read = frames_read;
    rep.names = std::move(table.names);
    for (std::size_t r = 0; r < table.rows.size(); ++r)
      rep.frames.push_back({table.frames[r], true, std::move(table.rows[r])});
    rep.aggregate = std::move(table.aggregate);
    if (part) part->clip_states = std::move(table.clip_states);
    rep.fps = secs > 0 ? static_cast<double>(frames_read) / secs : 0.0;
  }
  return out;
}

template <Backend B>
[[nodiscard]] std::vector<report> run(B& backend, std::size_t depth, const run_config& cfg, io::frame_source& ref,
                                      std::span<io::frame_source* const> dis, shard_part* part = nullptr) {
  B* const one[] = {&backend};
  return run(std::span<B* const>(one), depth, cfg, ref, dis, part);
}

// One pair: the report of `vqm -r ref -d dis`.
template <Backend B>
[[nodiscard]] report run(B& backend, std::size_t depth, const run_config& cfg, io::frame_source& ref,
                         io::frame_source& dis) {
  io::frame_source* const d[] = {&dis};
  return std::move(run(backend, depth, cfg, ref, std::span<io::frame_source* const>(d)).front());
}

}  // namespace vqm::cli
