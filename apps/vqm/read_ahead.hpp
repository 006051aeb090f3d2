// read_ahead: the reference and the distorted input(s) read on threads of their own (one per input),
// ahead of the measuring loop, into a ring of pictures this object owns, so the engine does not wait on
// input. Frame i's pictures stay untouched until the loop has pushed frame i + depth (the session's
// rule); the readers run up to `ahead` frames beyond the frame the loop asks for.
//
//   read_ahead in(ref, dis, session.depth(), read_ahead::default_ahead, frame_cnt);
//   for (picture_view r, d; in.next(r, d);) session.push(r, d);
//   if (in.ended_first() != read_ahead::input::none) ...  // frame counts differ
//
// Several distorted inputs (one reference, many distorted): read_ahead in(ref, {&a, &b}, ...) and
// next(ref, dis) with a vector of views, one per distorted; the reference is read once per frame.
//
// Caller's memory: with `memory` (per input, ring_size() spans of the input's frame_bytes()), frames are
// read with frame_source::read_into straight into it (Vulkan host_pictures: no host copy before the
// GPU's); slot() says which span the frame handed out last is in.
//
// A reader's exception reaches next() as the same exception, after the frames read before it.
#pragma once

#include <array>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/picture.hpp"

namespace vqm::cli {

class read_ahead {
 public:
  enum class input { none, reference, distorted };
  static constexpr std::size_t default_ahead = 2;

  using memory = std::vector<std::vector<std::span<std::byte>>>;  // [input][slot]: the reference, then each distorted

  [[nodiscard]] static constexpr std::size_t ring_size(std::size_t depth, std::size_t ahead) noexcept {
    return depth + 1 + ahead;
  }

  // `depth`: the frames the consumer keeps in flight after pushing (session::depth()). `frame_cnt`:
  // pairs to read at most (0: all); the readers read no frame past it. The sources must outlive this
  // object and must not be used elsewhere until next() has returned false or this object is gone.
  read_ahead(io::frame_source& ref, io::frame_source& dis, std::size_t depth, std::size_t ahead = default_ahead,
             std::size_t frame_cnt = 0, memory mem = {})
      : read_ahead(ref, std::span<io::frame_source* const>(std::array{&dis}), depth, ahead, frame_cnt, std::move(mem)) {}
  read_ahead(io::frame_source& ref, std::span<io::frame_source* const> dis, std::size_t depth,
             std::size_t ahead = default_ahead, std::size_t frame_cnt = 0, memory mem = {})
      : size_(ring_size(depth, ahead)), depth_(depth), frame_cnt_(frame_cnt), sides_(1 + dis.size()) {
    sides_[0].src = &ref;
    for (std::size_t k = 0; k < dis.size(); ++k) sides_[1 + k].src = dis[k];
    if (!mem.empty() && mem.size() != sides_.size())
      throw error(errc::invalid_argument, "read_ahead: memory for " + std::to_string(mem.size()) + " of " +
                                              std::to_string(sides_.size()) + " inputs");
    for (std::size_t k = 0; k < mem.size(); ++k) {
      if (mem[k].size() != size_)
        throw error(errc::invalid_argument, "read_ahead: " + std::to_string(mem[k].size()) + " spans for a ring of " +
                                                std::to_string(size_));
      sides_[k].memory = std::move(mem[k]);
    }
    for (auto& s : sides_)
      if (s.memory.empty()) s.ring.resize(size_);  // pictures take their format on their first read
    try {
      for (auto& s : sides_) s.thread = std::thread([this, &s] { read_loop(s); });
    } catch (...) {
      stop();
      throw;
    }
  }
  ~read_ahead() { stop(); }
  read_ahead(const read_ahead&) = delete;
  read_ahead& operator=(const read_ahead&) = delete;

  // The next frame pair, valid until depth more frames have been pushed after it: calling next()
  // declares every frame handed out before pushed. False at the end: both inputs ended together, the
  // frame_cnt limit, or one input ended first (ended_first(); the longer one is then drained with
  // skip(), so both sources' frames_read() count their whole files). Rethrows a reader's exception at
  // the frame that failed: the reference's first, as reading the reference then the distorted would.
  // After false the reader threads are joined and the sources are the caller's again.
  bool next(picture_view& ref, picture_view& dis) { return next(ref, std::span<picture_view>(&dis, 1)); }
  // Several distorted: dis[k] is distorted k's picture (dis.size() == the distorted inputs).
  bool next(picture_view& ref, std::span<picture_view> dis) {
    if (done_) return false;
    std::unique_lock lock(mutex_);
    const std::size_t c = handed_;
    released_ = c > depth_ ? c - depth_ : 0;
    space_.notify_all();
    side& r = sides_[0];
    const auto all = [&](auto pred) {
      for (const auto& s : sides_)
        if (!pred(s)) return false;
      return true;
    };
    // The reference's error comes first whatever the distorted hold (they would never have been read).
    data_.wait(lock, [&] {
      return (r.count == c && r.st == status::failed) || all([&](const side& s) { return s.decided(c); });
    });
    for (auto& s : sides_)
      if (s.count == c && s.st == status::failed) {
        done_ = true;
        std::rethrow_exception(s.error);
      }
    if (all([&](const side& s) { return s.count > c; })) {
      slot_ = c % size_;
      ref = r.view(slot_);
      for (std::size_t k = 0; k < dis.size(); ++k) dis[k] = sides_[1 + k].view(slot_);
      ++handed_;
      return true;
    }
    done_ = true;
    const bool mismatch = !all([&](const side& s) { return s.count == c; });
    lock.unlock();
    stop();
    if (mismatch) {
      ended_first_ = r.count > c ? input::distorted : input::reference;
      for (auto& longer : sides_) {
        if (longer.count == c) continue;
        // Reading ahead may have met an error past the other input's end: the file is broken, say so
        // (reading one frame at a time, skip() would have passed over it when it is a bad sample).
        if (longer.st == status::failed) std::rethrow_exception(longer.error);
        if (longer.st != status::ended)  // stopped, or at frame_cnt: libvmaf counts the whole file
          while (longer.src->skip()) {
          }
      }
    }
    return false;
  }

  // After next() returned false: the input that ended while another still had frames, or none (with
  // several distorted: reference when the reference is among the inputs that ended first; then every
  // input's frames_read() counts its whole file).
  [[nodiscard]] input ended_first() const noexcept { return ended_first_; }
  // Pictures per input in the ring: depth + 1 + ahead.
  [[nodiscard]] std::size_t ring_size() const noexcept { return size_; }
  // The ring slot of the frame next() handed out last (its memory span's index).
  [[nodiscard]] std::size_t slot() const noexcept { return slot_; }

 private:
  enum class status { reading, ended, limit, failed };  // ended: a clean end; limit: frame_cnt
  struct side {
    io::frame_source* src = nullptr;
    std::vector<picture> ring;                 // pictures of our own, or
    std::vector<std::span<std::byte>> memory;  // the caller's memory, read into in place
    [[nodiscard]] picture_view view(std::size_t i) const {
      return memory.empty() ? ring[i].view() : packed_view(src->format(), memory[i].data());
    }
    std::thread thread;
    std::size_t count = 0;  // frames read into the ring
    status st = status::reading;
    std::exception_ptr error;  // what reading frame `count` threw
    [[nodiscard]] bool decided(std::size_t c) const noexcept { return count > c || st != status::reading; }
  };

  void read_loop(side& s) {
    for (std::size_t k = 0;; ++k) {
      {
        std::unique_lock lock(mutex_);
        if (frame_cnt_ && k >= frame_cnt_) return finish(s, status::limit, nullptr);
        // Slot k % size_ held frame k - size_: wait until the consumer is done with it.
        space_.wait(lock, [&] { return stop_ || k < released_ + size_; });
        if (stop_) return;
      }
      bool ok = false;
      try {
        ok = s.memory.empty() ? s.src->read(s.ring[k % size_]) : s.src->read_into(s.memory[k % size_]);
      } catch (...) {
        std::lock_guard lock(mutex_);
        return finish(s, status::failed, std::current_exception());
      }
      std::lock_guard lock(mutex_);
      if (!ok) return finish(s, status::ended, nullptr);
      ++s.count;
      data_.notify_one();
    }
  }
  // Called with mutex_ held.
  void finish(side& s, status st, std::exception_ptr e) {
    s.st = st;
    s.error = std::move(e);
    data_.notify_one();
  }

  // Wakes readers waiting for space and joins them (a read in progress completes first).
  void stop() noexcept {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    space_.notify_all();
    for (auto& s : sides_)
      if (s.thread.joinable()) s.thread.join();
  }

  const std::size_t size_, depth_, frame_cnt_;
  std::vector<side> sides_;  // the reference, then each distorted; sized once (the threads refer to them)
  std::mutex mutex_;
  std::condition_variable space_;  // readers wait for a free slot
  std::condition_variable data_;   // the consumer waits for a frame, an end or an error
  std::size_t released_ = 0;       // frames below this are no longer in flight
  std::size_t handed_ = 0;         // frames handed out by next()
  std::size_t slot_ = 0;
  bool stop_ = false;
  bool done_ = false;
  input ended_first_ = input::none;
};

}  // namespace vqm::cli
