// vqm::thread_pool and parallel_for (executor.hpp): every task runs once, before shutdown too; the loop
// runs in parallel, propagates exceptions, and completes on a busy executor (or from inside its own task)
// without waiting for helpers that never started; any type with post() is usable through executor_ref.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <latch>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/counting_executor.hpp"
#include "vqm/executor.hpp"
#include "vqm/thread_pool.hpp"

namespace {

using namespace std::chrono_literals;

TEST(ThreadPool, RunsEveryTaskOnItsWorkersBeforeShutdown) {
  std::atomic<int> count{0};
  std::mutex m;
  std::set<std::thread::id> ids;
  constexpr int tasks = 20000;
  {
    vqm::thread_pool pool(3);
    EXPECT_EQ(pool.size(), 3u);
    EXPECT_EQ(pool.concurrency(), 3u);
    for (int i = 0; i < tasks; ++i)
      pool.post([&] {
        if (count.fetch_add(1) % 64 == 0) {
          std::lock_guard lock(m);
          ids.insert(std::this_thread::get_id());
        }
      });
  }  // the destructor runs what is still queued
  EXPECT_EQ(count.load(), tasks);
  EXPECT_GE(ids.size(), 1u);
  EXPECT_LE(ids.size(), 3u);
  EXPECT_EQ(ids.count(std::this_thread::get_id()), 0u) << "tasks run on the workers, not the poster";
}

TEST(ThreadPool, QueuedTasksRunWhenDestroyedWhileBusy) {
  std::atomic<int> count{0};
  std::promise<void> release;
  auto released = release.get_future().share();
  std::thread destroyer;
  {
    auto pool = std::make_unique<vqm::thread_pool>(1);
    pool->post([released] { released.wait(); });
    for (int i = 0; i < 100; ++i) pool->post([&] { ++count; });
    // Destroyed on another thread while its only worker is blocked: the destructor must wait, then run all.
    destroyer = std::thread([p = std::move(pool)]() mutable { p.reset(); });
  }
  std::this_thread::sleep_for(10ms);
  EXPECT_EQ(count.load(), 0);
  release.set_value();
  destroyer.join();
  EXPECT_EQ(count.load(), 100);
}

TEST(ThreadPool, PostCopiesRunsTheTaskThatManyTimes) {
  std::atomic<int> count{0};
  {
    vqm::thread_pool pool(2);
    pool.post_copies([&] { ++count; }, 7);
    pool.post_copies([&] { ++count; }, 0);
    pool.post_copies([&] { ++count; }, 1);
  }
  EXPECT_EQ(count.load(), 8);
  vqm::thread_pool none(0);
  none.post_copies([&] { ++count; }, 3);  // inline
  EXPECT_EQ(count.load(), 11);
}

TEST(ThreadPool, WithoutWorkersTasksRunInline) {
  vqm::thread_pool pool(0);
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(pool.concurrency(), 1u);
  std::thread::id ran_on;
  pool.post([&] { ran_on = std::this_thread::get_id(); });
  EXPECT_EQ(ran_on, std::this_thread::get_id());
}

TEST(ParallelFor, CallsEveryIndexOnceInParallel) {
  vqm::thread_pool pool(3);
  constexpr std::size_t n = 10007;
  std::vector<std::atomic<int>> hits(n);
  // Indices 0 and 1 each wait for the other: the loop only completes when two threads run at once.
  std::latch both(2);
  vqm::parallel_for(&pool, n, 4, [&](std::size_t i) {
    if (i < 2) both.arrive_and_wait();
    hits[i].fetch_add(1);
  });
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "index " << i;
}

TEST(ParallelFor, WithoutExecutorRunsInOrderOnTheCaller) {
  std::vector<std::size_t> order;
  vqm::parallel_for(nullptr, 5, 8, [&](std::size_t i) { order.push_back(i); });
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  vqm::parallel_for(nullptr, 0, 8, [&](std::size_t) { order.clear(); });
  EXPECT_EQ(order.size(), 5u);
}

TEST(ParallelFor, RethrowsTheFirstExceptionAfterEveryOtherIndexRan) {
  vqm::thread_pool pool(2);
  std::atomic<int> ran{0};
  try {
    vqm::parallel_for(&pool, 100, 3, [&](std::size_t i) {
      if (i == 37) throw std::runtime_error("index 37 failed");
      ++ran;
    });
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "index 37 failed");
  }
  EXPECT_EQ(ran.load(), 99);
  // The pool is still usable.
  std::atomic<int> again{0};
  vqm::parallel_for(&pool, 50, 3, [&](std::size_t) { ++again; });
  EXPECT_EQ(again.load(), 50);
}

TEST(ParallelFor, CompletesOnABusyExecutorAndLateHelpersAreHarmless) {
  vqm::test::counting_executor ex(1);
  std::promise<void> release;
  auto released = release.get_future().share();
  ex.post([released] { released.wait(); });  // the only worker is busy: no helper can start
  std::vector<int> hits(64, 0);
  vqm::parallel_for(&ex, hits.size(), 4, [&](std::size_t i) { ++hits[i]; });
  for (int h : hits) EXPECT_EQ(h, 1);
  EXPECT_EQ(ex.posted(), 4) << "3 helpers besides the blocker";
  release.set_value();
  ex.drain();  // the helpers run now, after the loop's frame is gone (ASan would see a stale access)
  EXPECT_EQ(ex.ran(), 4);
}

TEST(ParallelFor, NestedInsideATaskOfTheSamePool) {
  vqm::thread_pool pool(1);
  std::promise<int> result;
  pool.post([&] {
    std::atomic<int> sum{0};
    vqm::parallel_for(&pool, 1000, 4, [&](std::size_t i) { sum += static_cast<int>(i); });
    result.set_value(sum.load());
  });
  auto f = result.get_future();
  ASSERT_EQ(f.wait_for(10s), std::future_status::ready) << "deadlock";
  EXPECT_EQ(f.get(), 999 * 1000 / 2);
}

// A foreign executor: anything with post(callable).
struct inline_runner {
  int calls = 0;
  void post(std::function<void()> f) {
    ++calls;
    f();
  }
};
static_assert(vqm::Executor<inline_runner> && vqm::Executor<vqm::thread_pool>);
static_assert(!vqm::Executor<int>);

TEST(ExecutorRef, WrapsAnyTypeWithPost) {
  inline_runner r;
  vqm::executor_ref ex(r, 3);
  EXPECT_EQ(ex.concurrency(), 3u);
  std::vector<int> hits(10, 0);
  vqm::parallel_for(&ex, hits.size(), 3, [&](std::size_t i) { ++hits[i]; });
  for (int h : hits) EXPECT_EQ(h, 1);
  EXPECT_EQ(r.calls, 2);
  EXPECT_EQ(vqm::executor_ref(r, 0).concurrency(), 1u);
}

}  // namespace
