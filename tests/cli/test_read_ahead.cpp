// read_ahead (apps/vqm/read_ahead.hpp) on in-memory inputs whose samples derive from the frame
// index: order and content, the session's in-flight rule, uneven lengths, errors in frame order, the
// frame_cnt limit, early destruction, no per-frame allocation, and a stress run with random delays.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "read_ahead.hpp"

namespace {

using vqm::picture;
using vqm::cli::read_ahead;
using clock_type = std::chrono::steady_clock;

const vqm::picture_format small{16, 8, vqm::chroma_format::yuv420, 8};

std::uint8_t sample(std::size_t index, std::size_t pos, unsigned salt) {
  return static_cast<std::uint8_t>(index * 31 + pos * 7 + salt);
}

// True when `v` holds frame `index` of the input salted `salt` (sample j of the frame as files store it).
bool holds(const vqm::picture_view& v, std::size_t index, unsigned salt) {
  if (!(v.format == small)) return false;
  std::size_t j = 0;
  for (int p = 0; p < small.stored_planes(); ++p)
    for (std::uint32_t y = 0; y < v.planes[p].height; ++y)
      for (std::uint32_t x = 0; x < v.planes[p].width; ++x, ++j)
        if (v.planes[p].row<std::uint8_t>(y)[x] != sample(index, j, salt)) return false;
  return j == small.frame_bytes();
}

struct fake_config {
  std::size_t frames = 10;
  std::optional<std::size_t> throw_at;  // read() of this frame throws
  int max_sleep_us = 0;                 // random delay before each read
  unsigned seed = 1;
  fake_config& failing_at(std::size_t k) { return throw_at = k, *this; }
  fake_config& sleeping(int us) { return max_sleep_us = us, *this; }
  fake_config& seeded(unsigned s) { return seed = s, *this; }
};
fake_config frames(std::size_t n) {
  fake_config c;
  c.frames = n;
  return c;
}

class fake_source final : public vqm::io::frame_source {
 public:
  fake_source(std::string path, unsigned salt, fake_config cfg)
      : path_(std::move(path)), salt_(salt), cfg_(cfg), rng_(cfg.seed) {}

  [[nodiscard]] const vqm::picture_format& format() const noexcept override { return small; }
  [[nodiscard]] const std::string& path() const noexcept override { return path_; }
  [[nodiscard]] std::size_t frames_read() const noexcept override { return frames_; }
  [[nodiscard]] std::optional<std::size_t> frame_count_hint() const noexcept override { return cfg_.frames; }

  bool read(picture& pic) override {
    if (cfg_.max_sleep_us > 0)
      std::this_thread::sleep_for(std::chrono::microseconds(rng_() % static_cast<unsigned>(cfg_.max_sleep_us)));
    if (cfg_.throw_at && frames_ == *cfg_.throw_at) {
      failures.fetch_add(1);
      throw vqm::error(vqm::errc::bad_input, message(frames_));
    }
    if (frames_ >= cfg_.frames) return false;
    if (!(pic.format() == small) || pic.bytes().size() != small.frame_bytes()) {
      pic.reset(small);
      ++resets;
    }
    buffers.insert(pic.bytes().data());
    const auto b = pic.bytes();
    for (std::size_t j = 0; j < b.size(); ++j) b[j] = static_cast<std::byte>(sample(frames_, j, salt_));
    ++frames_;
    reads.fetch_add(1);
    return true;
  }
  bool skip() override {
    if (frames_ >= cfg_.frames) return false;
    ++frames_;
    return true;
  }

  [[nodiscard]] std::string message(std::size_t k) const { return path_ + ": frame " + std::to_string(k) + ": broken"; }

  std::atomic<std::size_t> reads{0}, failures{0};  // polled by the test while the reader runs
  // Read on the reader thread; the test looks after next() returned false or the reader is gone.
  std::size_t resets = 0;
  std::set<const std::byte*> buffers;

 private:
  std::string path_;
  unsigned salt_;
  fake_config cfg_;
  std::mt19937 rng_;
  std::size_t frames_ = 0;
};

constexpr unsigned ref_salt = 3, dis_salt = 101;

struct pair_of_inputs {
  pair_of_inputs(fake_config r, fake_config d) : ref("ref.y4m", ref_salt, r), dis("dis.y4m", dis_salt, d) {}
  fake_source ref, dis;
};

// Consumes like the measuring loop: after each next(), checks that the frame and the `depth` before it
// (still in flight in a session) hold their samples, sleeping first to give a wrong reader time to
// overwrite them. Returns the frames handed out.
std::size_t consume(read_ahead& in, std::size_t depth, int sleep_us = 0, std::mt19937* rng = nullptr) {
  std::vector<std::pair<vqm::picture_view, vqm::picture_view>> got;
  vqm::picture_view r, d;
  while (in.next(r, d)) {
    got.emplace_back(r, d);
    const std::size_t c = got.size() - 1;
    if (sleep_us > 0)
      std::this_thread::sleep_for(std::chrono::microseconds(rng ? (*rng)() % static_cast<unsigned>(sleep_us) : sleep_us));
    for (std::size_t j = c > depth ? c - depth : 0; j <= c; ++j) {
      EXPECT_TRUE(holds(got[j].first, j, ref_salt)) << "reference frame " << j << " at frame " << c;
      EXPECT_TRUE(holds(got[j].second, j, dis_salt)) << "distorted frame " << j << " at frame " << c;
    }
  }
  return got.size();
}

TEST(read_ahead, order_and_content_for_each_depth_and_ahead) {
  for (std::size_t depth = 1; depth <= 4; ++depth)
    for (std::size_t ahead = 0; ahead <= 3; ++ahead) {
      SCOPED_TRACE("depth " + std::to_string(depth) + " ahead " + std::to_string(ahead));
      pair_of_inputs io(frames(20), frames(20));
      read_ahead in(io.ref, io.dis, depth, ahead);
      EXPECT_EQ(in.ring_size(), depth + 1 + ahead);
      EXPECT_EQ(consume(in, depth, 300), 20u);
      EXPECT_EQ(in.ended_first(), read_ahead::input::none);
      EXPECT_EQ(io.ref.frames_read(), 20u);
      EXPECT_EQ(io.dis.frames_read(), 20u);
      // The ring is reused: one buffer per slot, each allocated once.
      EXPECT_LE(io.ref.resets, in.ring_size());
      EXPECT_LE(io.dis.buffers.size(), in.ring_size());
      vqm::picture_view r, d;
      EXPECT_FALSE(in.next(r, d));  // and stays at the end
    }
}

// With the caller's memory (Vulkan host pictures in the CLI), frames are read into it, slot() names the
// span, and the in-flight rule holds there too.
TEST(read_ahead, reads_into_the_callers_memory) {
  for (std::size_t depth : {1u, 3u}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    const std::size_t ahead = 2, n = read_ahead::ring_size(depth, ahead);
    std::vector<std::vector<std::byte>> store(2 * n, std::vector<std::byte>(small.frame_bytes()));
    read_ahead::memory mem(2);
    for (std::size_t k = 0; k < n; ++k) {
      mem[0].emplace_back(store[k]);
      mem[1].emplace_back(store[n + k]);
    }
    {
      pair_of_inputs io(frames(25), frames(25));
      read_ahead in(io.ref, io.dis, depth, ahead, 0, mem);
      EXPECT_EQ(consume(in, depth, 200), 25u);
    }
    pair_of_inputs io(frames(25), frames(25));
    read_ahead in(io.ref, io.dis, depth, ahead, 0, mem);
    vqm::picture_view r, d;
    for (std::size_t c = 0; in.next(r, d); ++c) {
      ASSERT_LT(in.slot(), n);
      EXPECT_EQ(r.planes[0].data, store[in.slot()].data());
      EXPECT_EQ(d.planes[0].data, store[n + in.slot()].data());
      EXPECT_TRUE(holds(r, c, ref_salt));
      EXPECT_TRUE(holds(d, c, dis_salt));
    }
    EXPECT_EQ(io.ref.buffers.size(), 1u);  // the source's own scratch picture, copied into ours
  }
}

TEST(read_ahead, callers_memory_of_the_wrong_shape_is_refused) {
  pair_of_inputs io(frames(3), frames(3));
  std::vector<std::byte> frame(small.frame_bytes());
  read_ahead::memory one_input(1, std::vector<std::span<std::byte>>(read_ahead::ring_size(1, 0), frame));
  EXPECT_THROW(read_ahead(io.ref, io.dis, 1, 0, 0, one_input), vqm::error);
  read_ahead::memory short_ring(2, std::vector<std::span<std::byte>>(1, frame));
  EXPECT_THROW(read_ahead(io.ref, io.dis, 1, 0, 0, short_ring), vqm::error);
}

// The readers stop exactly `ahead` frames past the frame asked for, once the ring has gone round.
TEST(read_ahead, readers_run_exactly_ahead) {
  const std::size_t depth = 2, ahead = 2;
  pair_of_inputs io(frames(100), frames(100));
  read_ahead in(io.ref, io.dis, depth, ahead);
  vqm::picture_view r, d;
  auto settle = [&](std::size_t want) {
    const auto until = clock_type::now() + std::chrono::seconds(10);
    while ((io.ref.reads < want || io.dis.reads < want) && clock_type::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a wrong reader would go on
    EXPECT_EQ(io.ref.reads.load(), want);
    EXPECT_EQ(io.dis.reads.load(), want);
  };
  settle(in.ring_size());  // before the first next(): every slot is free
  for (std::size_t c = 0; c < 8; ++c) {
    ASSERT_TRUE(in.next(r, d));
    EXPECT_TRUE(holds(r, c, ref_salt));
    const std::size_t released = c > depth ? c - depth : 0;  // frames c - depth .. c are in flight
    settle(released + in.ring_size());
  }
}

TEST(read_ahead, uneven_lengths_report_the_shorter_side_and_both_counts) {
  struct length_case {
    std::size_t ref, dis;
  };
  for (const auto lc : {length_case{7, 10}, length_case{10, 7}, length_case{0, 3}, length_case{3, 0},
                        length_case{5, 200}})
    for (std::size_t depth : {1u, 3u})
      for (std::size_t ahead : {0u, 2u}) {
        SCOPED_TRACE(std::to_string(lc.ref) + " vs " + std::to_string(lc.dis) + ", depth " + std::to_string(depth) +
                     " ahead " + std::to_string(ahead));
        pair_of_inputs io(frames(lc.ref), frames(lc.dis));
        read_ahead in(io.ref, io.dis, depth, ahead);
        EXPECT_EQ(consume(in, depth), std::min(lc.ref, lc.dis));
        EXPECT_EQ(in.ended_first(), lc.ref < lc.dis ? read_ahead::input::reference : read_ahead::input::distorted);
        // The longer input was drained: both counts are whole files.
        EXPECT_EQ(io.ref.frames_read(), lc.ref);
        EXPECT_EQ(io.dis.frames_read(), lc.dis);
      }
}

// Reads `in` to its error (checking the frames before it); returns the message, empty when none came.
std::string error_after(read_ahead& in, std::size_t depth) {
  try {
    const std::size_t n = consume(in, depth);
    ADD_FAILURE() << "no error, " << n << " frames";
    return {};
  } catch (const vqm::error& e) {
    EXPECT_EQ(e.code(), vqm::errc::bad_input);
    return e.what();
  }
}

TEST(read_ahead, an_error_arrives_after_the_frames_before_it) {
  for (bool on_ref : {true, false})
    for (std::size_t k : {0u, 1u, 4u})
      for (std::size_t depth : {1u, 4u})
        for (std::size_t ahead : {0u, 3u}) {
          SCOPED_TRACE(std::string(on_ref ? "reference" : "distorted") + " frame " + std::to_string(k) + ", depth " +
                       std::to_string(depth) + " ahead " + std::to_string(ahead));
          const fake_config bad = frames(10).failing_at(k), good = frames(10);
          pair_of_inputs io(on_ref ? bad : good, on_ref ? good : bad);
          read_ahead in(io.ref, io.dis, depth, ahead);
          std::size_t delivered = 0;
          vqm::picture_view r, d;
          try {
            for (; in.next(r, d); ++delivered) {
              EXPECT_TRUE(holds(r, delivered, ref_salt));
              EXPECT_TRUE(holds(d, delivered, dis_salt));
            }
            ADD_FAILURE() << "no error";
          } catch (const vqm::error& e) {
            EXPECT_EQ(e.code(), vqm::errc::bad_input);
            EXPECT_EQ(std::string(e.what()), (on_ref ? io.ref : io.dis).message(k));
          }
          EXPECT_EQ(delivered, k);
        }
}

TEST(read_ahead, errors_at_the_same_frame_come_in_reading_order) {
  // Both fail: the reference's, as it is read first.
  {
    pair_of_inputs io(frames(10).failing_at(3), frames(10).failing_at(3));
    read_ahead in(io.ref, io.dis, 2, 2);
    EXPECT_EQ(error_after(in, 2), io.ref.message(3));
  }
  // The reference ends where the distorted fails: the failure (the distorted is still read).
  {
    pair_of_inputs io(frames(3), frames(10).failing_at(3));
    read_ahead in(io.ref, io.dis, 2, 2);
    EXPECT_EQ(error_after(in, 2), io.dis.message(3));
  }
  // The reference fails where the distorted ends: the failure.
  {
    pair_of_inputs io(frames(10).failing_at(3), frames(3));
    read_ahead in(io.ref, io.dis, 2, 2);
    EXPECT_EQ(error_after(in, 2), io.ref.message(3));
  }
  // A failure of the longer input past the shorter one's end, once reading ahead met it: reported
  // (the file is broken; had the reader not reached it, the drain's skip() would pass over it).
  {
    pair_of_inputs io(frames(3), frames(10).failing_at(4));
    read_ahead in(io.ref, io.dis, 2, 2);
    const auto until = clock_type::now() + std::chrono::seconds(10);
    while (io.dis.failures == 0 && clock_type::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_EQ(error_after(in, 2), io.dis.message(4));
  }
}

TEST(read_ahead, frame_cnt_limits_what_the_readers_read) {
  {
    pair_of_inputs io(frames(10), frames(12));
    read_ahead in(io.ref, io.dis, 2, 3, 4);
    EXPECT_EQ(consume(in, 2), 4u);
    EXPECT_EQ(in.ended_first(), read_ahead::input::none);
    EXPECT_EQ(io.ref.frames_read(), 4u);
    EXPECT_EQ(io.dis.frames_read(), 4u);
  }
  {  // a limit past the end: all frames
    pair_of_inputs io(frames(6), frames(6));
    read_ahead in(io.ref, io.dis, 1, 2, 50);
    EXPECT_EQ(consume(in, 1), 6u);
    EXPECT_EQ(in.ended_first(), read_ahead::input::none);
  }
  {  // an input shorter than the limit is still a mismatch, the longer drained past the limit
    pair_of_inputs io(frames(3), frames(10));
    read_ahead in(io.ref, io.dis, 1, 2, 5);
    EXPECT_EQ(consume(in, 1), 3u);
    EXPECT_EQ(in.ended_first(), read_ahead::input::reference);
    EXPECT_EQ(io.ref.frames_read(), 3u);
    EXPECT_EQ(io.dis.frames_read(), 10u);
  }
  {  // the same, the longer input's reader stopped by the limit rather than by the ring
    pair_of_inputs io(frames(3), frames(10));
    read_ahead in(io.ref, io.dis, 1, 3, 4);
    EXPECT_EQ(consume(in, 1), 3u);
    EXPECT_EQ(in.ended_first(), read_ahead::input::reference);
    EXPECT_EQ(io.dis.frames_read(), 10u);
  }
  {  // an error past the limit is never met
    pair_of_inputs io(frames(10).failing_at(4), frames(10));
    read_ahead in(io.ref, io.dis, 1, 3, 4);
    EXPECT_EQ(consume(in, 1), 4u);
  }
}

TEST(read_ahead, destruction_while_readers_wait_is_prompt) {
  for (std::size_t taken : {0u, 1u, 5u}) {
    pair_of_inputs io(frames(1000), frames(1000));
    auto in = std::make_unique<read_ahead>(io.ref, io.dis, 2, 2);
    vqm::picture_view r, d;
    for (std::size_t i = 0; i < taken; ++i) ASSERT_TRUE(in->next(r, d));
    const auto until = clock_type::now() + std::chrono::seconds(10);
    while ((io.ref.reads < in->ring_size() || io.dis.reads < in->ring_size()) && clock_type::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_LT(io.ref.reads.load(), 1000u);  // blocked on the ring, not done
    const auto t0 = clock_type::now();
    in.reset();
    EXPECT_LT(clock_type::now() - t0, std::chrono::seconds(1));
  }
}

TEST(read_ahead, destruction_during_slow_reads_and_after_an_error) {
  {  // readers inside read(): their reads finish, then they stop
    pair_of_inputs io(frames(1000).sleeping(20000), frames(1000).sleeping(20000));
    auto in = std::make_unique<read_ahead>(io.ref, io.dis, 1, 1);
    vqm::picture_view r, d;
    ASSERT_TRUE(in->next(r, d));
    const auto t0 = clock_type::now();
    in.reset();
    EXPECT_LT(clock_type::now() - t0, std::chrono::seconds(1));
    EXPECT_LT(io.ref.reads.load(), 1000u);
  }
  {  // the consumer stops at an error; the other reader is blocked on the ring
    pair_of_inputs io(frames(1000), frames(1000).failing_at(2));
    auto in = std::make_unique<read_ahead>(io.ref, io.dis, 1, 0);
    EXPECT_EQ(error_after(*in, 1), io.dis.message(2));
    in.reset();
  }
}

// Many frames, random delays on both readers and the consumer, random depths, early stops and errors.
TEST(read_ahead, stress_with_random_delays) {
  std::mt19937 rng(12345);
  for (int run = 0; run < 24; ++run) {
    const std::size_t depth = 1 + rng() % 4, ahead = rng() % 4, n = 300 + rng() % 300;
    const int ref_sleep = static_cast<int>(rng() % 3) * 40, dis_sleep = static_cast<int>(rng() % 3) * 40;
    const int kind = run % 4;  // 0: clean, 1: uneven, 2: error, 3: early stop
    SCOPED_TRACE("run " + std::to_string(run));
    fake_config rc = frames(n).sleeping(ref_sleep).seeded(static_cast<unsigned>(rng()));
    fake_config dc = frames(kind == 1 ? n + 1 + rng() % 5 : n).sleeping(dis_sleep).seeded(static_cast<unsigned>(rng()));
    const std::size_t fail_at = rng() % n;
    if (kind == 2) (rng() % 2 ? rc : dc).throw_at = fail_at;
    pair_of_inputs io(rc, dc);
    read_ahead in(io.ref, io.dis, depth, ahead);
    if (kind == 3) {
      vqm::picture_view r, d;
      for (std::size_t i = 0; i < fail_at; ++i) ASSERT_TRUE(in.next(r, d));
      continue;  // destroyed with readers running
    }
    if (kind == 2) {
      try {
        consume(in, depth, 60, &rng);
        ADD_FAILURE() << "no error";
      } catch (const vqm::error& e) {
        EXPECT_EQ(std::string(e.what()), (rc.throw_at ? io.ref : io.dis).message(fail_at));
      }
      continue;
    }
    EXPECT_EQ(consume(in, depth, 60, &rng), n);
    EXPECT_EQ(in.ended_first(), kind == 1 ? read_ahead::input::reference : read_ahead::input::none);
    EXPECT_EQ(io.dis.frames_read(), dc.frames);
    EXPECT_LE(io.ref.buffers.size(), in.ring_size());
  }
}

}  // namespace
