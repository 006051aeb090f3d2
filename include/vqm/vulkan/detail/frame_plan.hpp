// Which programs a frame runs: the per-format program cache (programs built on first use through the
// factory in a job's program_key, each given its slice of the result block) and the plan of one frame
// (its jobs, the program of each job, the distinct programs in recording order).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"

namespace vqm::vulkan::detail {

struct frame_plan {
  std::array<vulkan::job, frame::max_jobs> jobs_of{};
  std::array<program*, frame::max_jobs> program_of{};
  std::size_t jobs = 0;
  std::array<program*, frame::max_jobs> distinct{};  // programs_of's distinct values; latency-bound ones first
  std::size_t count = 0;
  bool temporal = false;  // some program reads state written by earlier frames

  [[nodiscard]] std::span<program* const> programs() const noexcept { return {distinct.data(), count}; }
};

class program_cache {
 public:
  static constexpr std::uint32_t result_block = 4096;

  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }
  void clear() noexcept {
    entries_.clear();
    result_used_ = 0;
  }

  // Resolves the frame's jobs to programs into `plan` (building the missing ones): jobs with the same
  // (make, id) share the program of the largest width any of them asks for.
  void plan(const vulkan::job* jobs, std::size_t n, program_env& env, frame_plan& out) {
    out.jobs = n;
    out.count = 0;
    out.temporal = false;
    for (std::size_t i = 0; i < n; ++i) {
      out.jobs_of[i] = jobs[i];
      program_key k = jobs[i].key;
      for (std::size_t j = 0; j < n; ++j)
        if (jobs[j].key.make == k.make && jobs[j].key.id == k.id && jobs[j].key.width > k.width) k.width = jobs[j].key.width;
      out.program_of[i] = get(k, env);
    }
    // A latency-bound program is recorded first within each round, so that its dispatch starts before the
    // others (schedule_hint).
    for (int chain = 1; chain >= 0; --chain)
      for (std::size_t i = 0; i < n; ++i) {
        program* p = out.program_of[i];
        if (p->schedule().latency_bound() != (chain == 1)) continue;
        bool seen = false;
        for (std::size_t j = 0; j < out.count; ++j) seen = seen || out.distinct[j] == p;
        if (!seen) out.distinct[out.count++] = p;
        out.temporal = out.temporal || p->temporal();
      }
  }

 private:
  struct entry {
    program_key key;
    std::unique_ptr<program> p;
  };

  program* get(const program_key& k, program_env& env) {
    for (auto& e : entries_)
      if (e.key.make == k.make && e.key.id == k.id && e.key.width == k.width) return e.p.get();
    auto p = k.make(env, k.id, k.width);
    const auto off = static_cast<std::uint32_t>(align_up(result_used_, 32));
    if (off + p->result_bytes() > result_block)
      throw error(errc::invalid_argument, "vqm::Vulkan: too many distinct metrics in one run (their results exceed the " +
                                              std::to_string(result_block) + "-byte result block)");
    p->result_offset = off;
    result_used_ = off + p->result_bytes();
    entries_.push_back({k, std::move(p)});
    return entries_.back().p.get();
  }

  std::vector<entry> entries_;
  std::uint64_t result_used_ = 0;
};

}  // namespace vqm::vulkan::detail
