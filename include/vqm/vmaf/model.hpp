// VMAF models: libvmaf's JSON model files (single models and bootstrap collections, SPEC-vmaf B.1),
// prediction (B.4), score transform (B.5), clip, and bootstrap statistics (B.6), bit-exact in double.
//
//   auto m = vqm::vmaf::load_model("version=vmaf_v0.6.1");          // or builtin_model / model_from_file
//   for (const auto& f : m.features()) ...                           // what to compute, in order
//   double vmaf = m.predict(values);                                 // values in features() order
//   if (m.is_collection()) auto b = m.predict_bootstrap(values);     // vmaf_b_v0.6.3
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/stat.h>

#include "vqm/detail/json.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/options.hpp"
#include "vqm/vmaf/feature_names.hpp"
#include "vqm/vmaf/score_transform.hpp"
#include "vqm/vmaf/svm.hpp"

namespace vqm::vmaf {

// One input of a model: the internal feature name, the extractor that computes it and that extractor's
// options (values normalised as libvmaf does, A.2; model overloads merged in, B.8).
struct model_feature {
  std::string name;       // e.g. VMAF_integer_feature_adm2_score
  std::string extractor;  // "adm" | "vif" | "motion"
  option_map options;
};

struct load_options {
  std::string name = "vmaf";      // the output series name (CLI name=)
  bool enable_transform = false;  // CLI enable_transform
  bool disable_clip = false;      // CLI disable_clip
  // CLI "EXTRACTOR.OPTION=VALUE" overloads, e.g. {"motion.motion_force_zero", "true"}, in order.
  std::vector<std::pair<std::string, std::string>> overloads;
};

// One libvmaf model ("model_dict").
class single_model {
 public:
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] const std::vector<model_feature>& features() const noexcept { return features_; }
  [[nodiscard]] const score_transform& transform() const noexcept { return transform_; }
  [[nodiscard]] std::optional<std::pair<double, double>> clip() const noexcept { return clip_; }

  // B.4: normalise, SVM, denormalise, then transform (when enabled and `with_transform`) and clip (when
  // present, not disabled at load time and `with_clip`). `f` in features() order.
  [[nodiscard]] double predict(std::span<const double> f, bool with_transform = true, bool with_clip = true) const {
    if (f.size() != features_.size())
      throw error(errc::invalid_argument, "model " + name_ + " takes " + std::to_string(features_.size()) +
                                              " feature values, got " + std::to_string(f.size()));
    double small[64];
    std::vector<double> big;
    double* x = small;
    if (svm_.width() > 64) {
      big.resize(svm_.width());
      x = big.data();
    }
    for (std::size_t i = 0; i < svm_.width(); ++i) x[i] = 0.0;
    for (std::size_t i = 0; i < f.size(); ++i) x[i] = normalise(i, f[i]);
    if (chroma_.parameter != 0.0 && denormalise(chroma_.speed, x[chroma_.speed]) == 0.0) {
      const double c = chroma_.parameter;
      x[chroma_.speed] = normalise(chroma_.speed, -c * denormalise(chroma_.adm3, x[chroma_.adm3]) + c);
    }
    double y = svm_.decision(x);
    if (linear_) y = (y - intercepts_[0]) / slopes_[0];
    if (with_transform) y = apply_transform(y);
    if (with_clip) y = apply_clip(y);
    return y;
  }

  // Feature i's value as the SVM takes it (B.4), and back.
  [[nodiscard]] double normalise(std::size_t i, double v) const noexcept {
    return linear_ ? slopes_[i + 1] * v + intercepts_[i + 1] : v;
  }
  [[nodiscard]] double denormalise(std::size_t i, double v) const noexcept {
    return linear_ ? (v - intercepts_[i + 1]) / slopes_[i + 1] : v;
  }

  [[nodiscard]] double apply_transform(double y) const noexcept { return transform_.enabled ? transform_.apply(y) : y; }
  [[nodiscard]] double apply_clip(double y) const noexcept {
    if (!clip_) return y;
    y = (y < clip_->first) ? clip_->first : y;
    y = (y > clip_->second) ? clip_->second : y;
    return y;
  }

  // Parses one "model_dict". `where` names the model in errors.
  [[nodiscard]] static single_model parse(const json::value& md, std::string name, const std::string& where,
                                          const load_options& lo);

 private:
  std::string name_;
  std::vector<model_feature> features_;
  bool linear_ = false;
  std::vector<double> slopes_, intercepts_;
  score_transform transform_;
  std::optional<std::pair<double, double>> clip_;
  struct chroma_correction {
    double parameter = 0.0;
    std::size_t speed = static_cast<std::size_t>(-1), adm3 = static_cast<std::size_t>(-1);  // none: -1
  } chroma_;
  svm svm_;
};

// The outputs of a bootstrap collection at one frame (B.6).
struct bootstrap_scores {
  double main = 0.0;             // N: the main model "0"
  std::vector<double> members;   // N_0001 ... N_0020
  double bagging = 0.0;          // N_bagging
  double stddev = 0.0;           // N_stddev
  double ci_p95_lo = 0.0;        // N_ci_p95_lo
  double ci_p95_hi = 0.0;        // N_ci_p95_hi
};

class model {
 public:
  [[nodiscard]] const std::string& name() const noexcept { return main_.name(); }
  [[nodiscard]] const std::string& source() const noexcept { return source_; }
  [[nodiscard]] const std::vector<model_feature>& features() const noexcept { return main_.features(); }
  [[nodiscard]] bool is_collection() const noexcept { return !members_.empty(); }
  [[nodiscard]] const single_model& main() const noexcept { return main_; }
  [[nodiscard]] const std::vector<single_model>& members() const noexcept { return members_; }

  // The series this model writes, in libvmaf's order: N, then for a collection N_0001.., N_bagging,
  // N_stddev, N_ci_p95_lo, N_ci_p95_hi.
  [[nodiscard]] std::vector<std::string> output_names() const {
    std::vector<std::string> out{name()};
    if (!is_collection()) return out;
    for (const auto& m : members_) out.push_back(m.name());
    for (const char* s : {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"}) out.push_back(name() + s);
    return out;
  }

  // The score N (the main model for a collection). `f` in features() order.
  [[nodiscard]] double predict(std::span<const double> f) const { return main_.predict(f); }

  // Every output of a collection (B.6). Throws for a single model.
  [[nodiscard]] bootstrap_scores predict_bootstrap(std::span<const double> f) const {
    if (!is_collection()) throw error(errc::invalid_argument, "model " + source_ + " is not a bootstrap collection");
    bootstrap_scores r;
    r.main = main_.predict(f);
    const std::size_t cnt = members_.size();
    std::vector<double> raw(cnt);
    r.members.resize(cnt);
    for (std::size_t k = 0; k < cnt; ++k) {
      raw[k] = members_[k].predict(f, false, false);
      r.members[k] = members_[k].predict(f);
    }
    double sum = 0.0;
    for (double v : raw) sum = sum + v;
    const double n = static_cast<double>(cnt);
    const double mean = sum / n;
    double ssd = 0.0;
    for (double v : raw) ssd = ssd + (v - mean) * (v - mean);
    const double sd = std::sqrt(ssd / n);
    std::vector<double> s = raw;
    std::sort(s.begin(), s.end());
    const auto pct = [&](double perc) {
      const double q = perc * static_cast<double>(cnt - 1) / 100.0;
      const double l = std::floor(q), h = std::ceil(q);
      const auto li = static_cast<std::size_t>(l), hi = static_cast<std::size_t>(h);
      if (li == hi) return s[li];
      return s[li] * (h - q) + s[hi] * (q - l);
    };
    const double lo = pct(2.5), hi = pct(97.5);
    const single_model& m1 = members_.front();
    const auto T = [&](double v) { return m1.apply_clip(m1.apply_transform(v)); };
    const double plus = T(mean + 0.01), minus = T(mean - 0.01);
    r.bagging = T(mean);
    r.stddev = sd * ((plus - minus) / (2.0 * 0.01));
    r.ci_p95_lo = T(lo);
    r.ci_p95_hi = T(hi);
    return r;
  }

  // Parses a model file's text (single model or collection). `source` names it in errors.
  [[nodiscard]] static model from_json(std::string_view text, std::string_view source, const load_options& lo);

 private:
  std::string source_;
  single_model main_;
  std::vector<single_model> members_;
};

namespace detail {

[[nodiscard]] inline std::string model_where(std::string_view source) { return "VMAF model " + std::string(source); }

[[nodiscard]] inline double model_number(const json::value& v, const std::string& where, std::string_view what) {
  if (!v.is_number())
    throw error(errc::bad_input, where + ": " + std::string(what) + " must be a number, not " + json::to_string(v.type()));
  return v.number();
}

[[nodiscard]] inline std::vector<double> model_numbers(const json::value* v, const std::string& where,
                                                       std::string_view what) {
  if (!v || !v->is_array()) throw error(errc::bad_input, where + ": " + std::string(what) + " must be an array of numbers");
  std::vector<double> out;
  for (const auto& e : v->items()) out.push_back(model_number(e, where, what));
  return out;
}

// An option value as libvmaf's option layer sees it (A.2): numbers normalised from their source text.
[[nodiscard]] inline std::string option_text(const json::value& v, const std::string& where, const std::string& key) {
  switch (v.type()) {
    case json::kind::number: return vqm::detail::normalise(v.text());
    case json::kind::boolean: return v.boolean() ? "true" : "false";
    case json::kind::string: return v.text();
    default:
      throw error(errc::bad_input, where + ": feature option " + key + " must be a number, a boolean or a string");
  }
}

// option_map has no builder; every key and value is checked so the "k=v:k=v" text is unambiguous.
[[nodiscard]] inline option_map make_options(const std::vector<std::pair<std::string, std::string>>& kv,
                                             const std::string& where) {
  std::string text;
  for (const auto& [k, v] : kv) {
    if (k.empty() || k.find_first_of(":=") != std::string::npos || v.find(':') != std::string::npos)
      throw error(errc::bad_input, where + ": bad feature option " + k + "=" + v);
    text += (text.empty() ? "" : ":") + k + "=" + v;
  }
  return option_map::parse(text);
}

}  // namespace detail

inline single_model single_model::parse(const json::value& md, std::string name, const std::string& where,
                                        const load_options& lo) {
  if (!md.is_object()) throw error(errc::bad_input, where + ": model_dict must be an object");
  single_model m;
  m.name_ = std::move(name);
  const auto* type = md.find("model_type");
  if (!type || !type->is_string()) throw error(errc::bad_input, where + ": model_dict has no model_type string");
  if (type->text() != "LIBSVMNUSVR" && type->text() != "BOOTSTRAP_LIBSVMNUSVR" &&
      type->text() != "RESIDUEBOOTSTRAP_LIBSVMNUSVR")
    throw error(errc::bad_input, where + ": unknown model_type '" + type->text() +
                                     "' (LIBSVMNUSVR, BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR)");
  if (const auto* nt = md.find("norm_type")) {
    if (!nt->is_string() || (nt->text() != "linear_rescale" && nt->text() != "none"))
      throw error(errc::bad_input, where + ": unknown norm_type '" + (nt->is_string() ? nt->text() : "") +
                                       "' (linear_rescale or none)");
    m.linear_ = nt->text() == "linear_rescale";
  }

  const auto* names = md.find("feature_names");
  if (!names || !names->is_array() || names->items().empty() || names->items().size() > 64)
    throw error(errc::bad_input, where + ": feature_names must be an array of 1 to 64 names");
  const auto* dicts = md.find("feature_opts_dicts");
  if (dicts && !dicts->is_null() && (!dicts->is_array() || dicts->items().size() > names->items().size()))
    throw error(errc::bad_input, where + ": feature_opts_dicts must be an array no longer than feature_names");
  for (std::size_t i = 0; i < names->items().size(); ++i) {
    const auto& n = names->items()[i];
    if (!n.is_string()) throw error(errc::bad_input, where + ": feature_names must hold strings");
    const auto ext = extractor_of(n.text());
    if (ext.empty())
      throw error(errc::bad_input, where + ": feature " + n.text() +
                                       " is not available in vqm (no feature writes it; the features are " +
                                       metric_name_list() + ")");
    std::vector<std::pair<std::string, std::string>> kv;
    if (dicts && dicts->is_array() && i < dicts->items().size()) {
      const auto& d = dicts->items()[i];
      if (!d.is_object()) throw error(errc::bad_input, where + ": feature_opts_dicts must hold objects");
      for (const auto& [k, v] : d.members()) kv.emplace_back(k, detail::option_text(v, where, k));
    }
    for (const auto& [k, v] : lo.overloads) {
      const auto dot = k.find('.');
      if (dot != std::string::npos && k.compare(0, dot, ext) == 0) kv.emplace_back(k.substr(dot + 1), vqm::detail::normalise(v));
    }
    m.features_.push_back(model_feature{n.text(), std::string(ext), detail::make_options(kv, where)});
  }
  const std::size_t nf = m.features_.size();
  if (const auto* cc = md.find("chroma_correction_parameter"); cc && !cc->is_null()) {
    // VMAF v1 (SPEC-vmaf B.9): a speed_chroma score of exactly 0 (SpEED found no usable block, e.g. after
    // prescaling) enters the SVM as c - c * adm3.
    const auto index = [&](std::string_view part) {
      std::size_t found = nf;
      for (std::size_t i = 0; i < nf; ++i)
        if (m.features_[i].name.find(part) != std::string::npos) {
          if (found != nf)
            throw error(errc::bad_input, where + ": chroma_correction_parameter needs one feature named *" +
                                             std::string(part) + "*, the model has several");
          found = i;
        }
      if (found == nf)
        throw error(errc::bad_input, where + ": chroma_correction_parameter needs a feature named *" +
                                         std::string(part) + "* in feature_names");
      return found;
    };
    m.chroma_ = {detail::model_number(*cc, where, "chroma_correction_parameter"), index("speed_chroma"), index("adm3")};
    if (m.chroma_.parameter == 0.0)
      throw error(errc::bad_input, where + ": chroma_correction_parameter 0 makes libvmaf write no score at all; "
                                           "remove it or give it a value");
  }
  if (m.linear_) {
    m.slopes_ = detail::model_numbers(md.find("slopes"), where, "slopes");
    m.intercepts_ = detail::model_numbers(md.find("intercepts"), where, "intercepts");
    if (m.slopes_.size() < nf + 1 || m.intercepts_.size() < nf + 1)
      throw error(errc::bad_input, where + ": slopes and intercepts need " + std::to_string(nf + 1) + " entries");
  }
  if (const auto* st = md.find("score_transform"); st && !st->is_null()) {
    if (!st->is_object()) throw error(errc::bad_input, where + ": score_transform must be an object");
    auto& t = m.transform_;
    if (const auto* e = st->find("enabled")) {
      if (!e->is_bool()) throw error(errc::bad_input, where + ": score_transform.enabled must be true or false");
      t.enabled = e->boolean();
    }
    t.enabled = t.enabled || lo.enable_transform;
    const auto poly = [&](const char* key, std::optional<double>& out) {
      if (const auto* p = st->find(key); p && !p->is_null()) out = detail::model_number(*p, where, key);
    };
    poly("p0", t.p0);
    poly("p1", t.p1);
    poly("p2", t.p2);
    if (const auto* k = st->find("knots"); k && !k->is_null()) {
      if (!k->is_array() || k->items().size() > 10)
        throw error(errc::bad_input, where + ": score_transform.knots must be an array of at most 10 [x, y] pairs");
      t.has_knots = true;
      for (const auto& p : k->items()) {
        if (!p.is_array() || p.items().size() != 2)
          throw error(errc::bad_input, where + ": score_transform.knots must hold [x, y] pairs");
        t.knots.emplace_back(detail::model_number(p.items()[0], where, "a knot"),
                             detail::model_number(p.items()[1], where, "a knot"));
      }
    }
    const auto flag = [&](const char* key, bool& out) {
      if (const auto* f = st->find(key)) {
        if (!f->is_string()) throw error(errc::bad_input, where + ": score_transform." + key + " must be \"true\" or \"false\"");
        out = f->text() == "true";
      }
    };
    flag("out_lte_in", t.out_lte_in);
    flag("out_gte_in", t.out_gte_in);
  }
  if (const auto* c = md.find("score_clip"); c && !c->is_null()) {
    const auto v = detail::model_numbers(c, where, "score_clip");
    if (v.size() != 2) throw error(errc::bad_input, where + ": score_clip must be [min, max]");
    if (!lo.disable_clip) m.clip_ = std::pair{v[0], v[1]};
  }
  const auto* text = md.find("model");
  if (!text || !text->is_string()) throw error(errc::bad_input, where + ": model_dict has no libsvm model text");
  m.svm_ = svm::parse(text->text(), where);
  m.svm_.densify(nf);
  return m;
}

inline model model::from_json(std::string_view text, std::string_view source, const load_options& lo) {
  const std::string where = detail::model_where(source);
  for (const auto& [k, v] : lo.overloads) {
    const auto dot = k.find('.');
    const auto ext = dot == std::string::npos ? std::string_view{} : std::string_view(k).substr(0, dot);
    if (std::find(metric_names.begin(), metric_names.end(), ext) == metric_names.end())
      throw error(errc::invalid_argument, where + ": bad overload '" + k + "=" + v +
                                              "' (expected EXTRACTOR.OPTION=VALUE with EXTRACTOR one of " +
                                              metric_name_list() + ")");
  }
  const json::value root = json::parse(text, source);
  if (!root.is_object()) throw error(errc::bad_input, where + ": the top level must be an object");
  model m;
  m.source_ = std::string(source);
  if (const auto* md = root.find("model_dict")) {
    m.main_ = single_model::parse(*md, lo.name, where, lo);
    return m;
  }
  // A collection: keys "0", "1", ... in file order; a key that is not the next number is skipped.
  std::size_t next = 0;
  for (const auto& [key, entry] : root.members()) {
    if (key != std::to_string(next)) continue;
    const std::string entry_where = where + " entry \"" + key + "\"";
    const auto* md = entry.is_object() ? entry.find("model_dict") : nullptr;
    if (!md) throw error(errc::bad_input, entry_where + ": no model_dict");
    if (next == 0) {
      m.main_ = single_model::parse(*md, lo.name, entry_where, lo);
    } else {
      char suffix[32];
      std::snprintf(suffix, sizeof suffix, "_%04zu", next);
      m.members_.push_back(single_model::parse(*md, lo.name + suffix, entry_where, lo));
      const auto& a = m.members_.back().features();
      const auto& b = m.main_.features();
      bool same = a.size() == b.size();
      for (std::size_t i = 0; same && i < a.size(); ++i)
        same = a[i].name == b[i].name && a[i].options.items() == b[i].options.items();
      if (!same) throw error(errc::bad_input, entry_where + ": its features differ from entry \"0\"'s (not supported)");
    }
    ++next;
  }
  if (next == 0) throw error(errc::bad_input, where + ": neither a model_dict nor a collection (\"0\", \"1\", ...)");
  if (next == 1) throw error(errc::bad_input, where + ": a collection needs entries \"1\", \"2\", ... besides \"0\"");
  return m;
}

// Parses model text; `source` names it in errors.
[[nodiscard]] inline model model_from_json(std::string_view text, std::string_view source, const load_options& lo = {}) {
  return model::from_json(text, source, lo);
}

// The largest model file read (libvmaf's largest, vmaf_b_v0.6.3.json, is 0.4 MB): a path that never
// ends (/dev/zero, a pipe that runs on) is refused instead of filling the memory.
inline constexpr std::size_t max_model_file_bytes = std::size_t{16} << 20;

// Reads a model file: a regular file, or a pipe / FIFO (process substitution), at most
// max_model_file_bytes; a device or a folder is refused before anything is read.
[[nodiscard]] inline model model_from_file(const std::string& path, const load_options& lo = {}) {
  const std::string what = "VMAF model " + path;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw error(errc::io, what + ": cannot open the file: " + std::strerror(errno));
  struct ::stat st {};
  if (::fstat(::fileno(f.get()), &st) != 0) throw error(errc::io, what + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw error(errc::io, what + ": is a folder, not a model .json file");
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
    throw error(errc::io, what + ": is a device or socket, not a file (give a model .json file)");
  const auto too_big = [&] {
    return error(errc::io, what + ": larger than " + std::to_string(max_model_file_bytes >> 20) +
                               " MiB, which no VMAF model is (give a model .json file)");
  };
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max_model_file_bytes) throw too_big();
  std::string text;
  char buf[65536];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f.get())) > 0;) {
    if (text.size() + n > max_model_file_bytes) throw too_big();
    text.append(buf, n);
  }
  if (std::ferror(f.get())) throw error(errc::io, what + ": read error");
  return model::from_json(text, path, lo);
}

}  // namespace vqm::vmaf

#include "vqm/vmaf/builtin_models.hpp"  // builtin_model, load_model
