// vqm::cpu_session and vqm::cpu_metric (vqm/cpu_session.hpp): the light API's definitions, where the Cpu
// backend, session<Cpu> and the model loading are compiled once for every user of libvqm_cpu.a.
#include "vqm/cpu_session.hpp"

#include <utility>

#include "vqm/cpu.hpp"
#include "vqm/metric_set.hpp"
#include "vqm/session.hpp"
#include "vqm/vmaf/builtin_models.hpp"

namespace vqm {

namespace {

session_config to_session_config(const cpu_session_config& c) {
  session_config s;
  for (const auto& m : c.models) s.models.push_back(vmaf::load_model(m));
  for (const auto& f : c.features) s.features.push_back(parse_feature_request(f));
  s.mode = c.mode;
  s.depth = c.depth;
  s.subsample = c.subsample;
  return s;
}

}  // namespace

struct cpu_session::impl {
  Cpu cpu;
  session<Cpu> s;
  impl(const picture_format& f, const cpu_session_config& c) : cpu(c.threads), s(cpu, f, to_session_config(c)) {}
};

cpu_session::cpu_session(const picture_format& f, const cpu_session_config& c) : impl_(std::make_unique<impl>(f, c)) {}
cpu_session::cpu_session(cpu_session&&) noexcept = default;
cpu_session& cpu_session::operator=(cpu_session&&) noexcept = default;
cpu_session::~cpu_session() = default;

void cpu_session::on_frame(std::function<void(const frame_scores&)> f) { impl_->s.on_frame(std::move(f)); }
void cpu_session::push(const picture_view& ref, const picture_view& dis) { impl_->s.push(ref, dis); }
score_table cpu_session::finish() { return impl_->s.finish(); }
const std::vector<std::string>& cpu_session::feature_names() const noexcept { return impl_->s.feature_names(); }
std::size_t cpu_session::depth() const noexcept { return impl_->s.depth(); }

struct cpu_metric::impl {
  Cpu cpu;
  any_metric<Cpu> metric;
  compat mode;
  static any_metric<Cpu> make(std::string_view request, const picture_format& f, compat c) {
    const auto r = parse_feature_request(request);
    return make_metric<Cpu>(r.name, r.options, f, c);
  }
  impl(std::string_view request, const picture_format& f, compat c) : metric(make(request, f, c)), mode(c) {}
};

cpu_metric::cpu_metric(std::string_view request, const picture_format& f, compat c)
    : impl_(std::make_unique<impl>(request, f, c)) {}
cpu_metric::cpu_metric(cpu_metric&&) noexcept = default;
cpu_metric& cpu_metric::operator=(cpu_metric&&) noexcept = default;
cpu_metric::~cpu_metric() = default;

const std::vector<std::string>& cpu_metric::names() const noexcept { return impl_->metric.names(); }

std::vector<double> cpu_metric::compute(const picture_view& ref, const picture_view& dis) {
  return vqm::compute(impl_->cpu, impl_->metric, ref, dis, impl_->mode);
}

}  // namespace vqm
