// The libsvm model text inside a VMAF model (SPEC-vmaf B.3) and its nu-SVR RBF decision value (B.4
// steps 2-3), in libsvm's exact order of double operations.
#pragma once

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "vqm/detail/json.hpp"
#include "vqm/error.hpp"

namespace vqm::vmaf {

class svm {
 public:
  // libvmaf models have at most 64 features; a larger index is rejected (it also bounds the dense rows).
  static constexpr std::size_t max_index = 64;

  // `where` names the model in error messages.
  [[nodiscard]] static svm parse(std::string_view text, const std::string& where) {
    svm m;
    tokenizer t{text};
    const auto bad = [&](const std::string& what) -> error {
      return error(errc::bad_input, where + ": bad libsvm model text: " + what);
    };
    const auto number = [&](std::string_view tok, std::string_view key) {
      double d = 0;
      if (!to_double(tok, d)) throw bad("'" + std::string(tok) + "' is not a number (" + std::string(key) + ")");
      // from_chars reads "nan" and "inf"; libsvm's model text never holds them and libvmaf refuses them.
      if (!std::isfinite(d)) throw bad("'" + std::string(tok) + "' is not a finite number (" + std::string(key) + ")");
      return d;
    };
    const auto count = [&](std::string_view tok, std::string_view key) {
      std::size_t n = 0;
      const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), n);
      if (r.ec != std::errc{} || r.ptr != tok.data() + tok.size() || n > 1000000)
        throw bad("'" + std::string(tok) + "' is not a valid count (" + std::string(key) + ")");
      return n;
    };
    std::size_t nr_class = 2;
    bool have_total = false, have_rho = false, have_gamma = false, have_type = false, have_kernel = false;
    std::size_t total = 0;
    for (;;) {
      const auto key = t.word();
      if (key.empty()) throw bad("no 'SV' line");
      if (key == "SV") break;
      const auto need = [&] {
        const auto v = t.word();
        if (v.empty() || v == "SV") throw bad("no value for '" + std::string(key) + "'");
        return v;
      };
      if (key == "svm_type") {
        const auto v = need();
        if (v != "nu_svr" && v != "epsilon_svr")
          throw bad("svm_type " + std::string(v) + " is not supported (nu_svr or epsilon_svr)");
        have_type = true;
      } else if (key == "kernel_type") {
        const auto v = need();
        if (v != "rbf") throw bad("kernel_type " + std::string(v) + " is not supported (rbf)");
        have_kernel = true;
      } else if (key == "gamma") {
        m.gamma_ = number(need(), key);
        have_gamma = true;
      } else if (key == "nr_class") {
        nr_class = count(need(), key);
        if (nr_class != 2) throw bad("nr_class must be 2 for regression, got " + std::to_string(nr_class));
      } else if (key == "total_sv") {
        total = count(need(), key);
        have_total = true;
      } else if (key == "rho") {
        m.rho_ = number(need(), key);  // nr_class*(nr_class-1)/2 = 1 value
        have_rho = true;
      } else if (key == "degree" || key == "coef0" || key == "probA" || key == "probB") {
        (void)number(need(), key);
      } else if (key == "label" || key == "nr_sv") {
        for (std::size_t i = 0; i < nr_class; ++i) (void)number(need(), key);
      } else {
        throw bad("unknown key '" + std::string(key) + "'");
      }
    }
    if (!have_type || !have_kernel || !have_gamma || !have_total || !have_rho)
      throw bad("the header needs svm_type, kernel_type, gamma, total_sv and rho");
    t.end_line();
    m.coef_.reserve(total);
    for (std::size_t j = 0; j < total; ++j) {
      auto line = t.line();
      if (!line.has_value) throw bad("total_sv is " + std::to_string(total) + " but there are " + std::to_string(j) +
                                     " support vectors");
      tokenizer lt{line.text};
      const auto c = lt.word();
      if (c.empty()) throw bad("empty support vector line " + std::to_string(j + 1));
      m.coef_.push_back(number(c, "coef"));
      std::vector<double> sv;
      std::size_t last = 0;
      for (auto tok = lt.word(); !tok.empty(); tok = lt.word()) {
        const auto colon = tok.find(':');
        if (colon == std::string_view::npos) throw bad("'" + std::string(tok) + "' is not index:value");
        std::size_t idx = 0;
        const auto is = tok.substr(0, colon);
        const auto r = std::from_chars(is.data(), is.data() + is.size(), idx);
        if (r.ec != std::errc{} || r.ptr != is.data() + is.size() || idx == 0 || idx > max_index || idx <= last)
          throw bad("bad or unordered index in '" + std::string(tok) + "'");
        last = idx;
        const double v = number(tok.substr(colon + 1), "value");
        if (sv.size() < idx) sv.resize(idx, 0.0);
        sv[idx - 1] = v;
      }
      if (sv.size() > m.width_) m.width_ = sv.size();
      m.rows_.push_back(std::move(sv));
    }
    return m;
  }

  // Dense rows of width >= n with zeros filled in: an absent entry contributes x*x, bit-identical to
  // (x - 0)*(x - 0), and an index beyond the features contributes y*y = (0 - y)*(0 - y) (B.4 step 2).
  void densify(std::size_t n) {
    if (n > width_) width_ = n;
    dense_.assign(rows_.size() * width_, 0.0);
    for (std::size_t j = 0; j < rows_.size(); ++j)
      for (std::size_t k = 0; k < rows_[j].size(); ++k) dense_[j * width_ + k] = rows_[j][k];
    rows_.clear();
    rows_.shrink_to_fit();
  }

  [[nodiscard]] std::size_t size() const noexcept { return coef_.size(); }
  [[nodiscard]] std::size_t width() const noexcept { return width_; }
  [[nodiscard]] double gamma() const noexcept { return gamma_; }
  [[nodiscard]] double rho() const noexcept { return rho_; }

  // sum_j coef_j * exp(-gamma * |x - sv_j|^2) in file order, then - rho. `x` has width() entries
  // (features beyond the model's are 0). glibc's exp in double.
  [[nodiscard]] double decision(const double* x) const {
    double acc = 0.0;
    const double ng = -gamma_;
    for (std::size_t j = 0; j < coef_.size(); ++j) {
      const double* y = dense_.data() + j * width_;
      double d2 = 0.0;
      for (std::size_t k = 0; k < width_; ++k) {
        const double d = x[k] - y[k];
        d2 = d2 + d * d;
      }
      acc = acc + coef_[j] * std::exp(ng * d2);
    }
    return acc - rho_;
  }

  // libsvm/strtod-like number: optional leading '+', then what from_chars reads (nearest double).
  [[nodiscard]] static bool to_double(std::string_view s, double& out) noexcept {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty() || s.front() == '+' || std::isspace(static_cast<unsigned char>(s.front()))) return false;
    return json::detail::to_double(s, out) == json::detail::number_status::ok;
  }

 private:
  struct tokenizer {
    std::string_view s;
    std::size_t pos = 0;
    static bool blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\r'; }
    // Next token; tokens of the header may span lines.
    std::string_view word() noexcept {
      while (pos < s.size() && (blank(s[pos]) || s[pos] == '\n')) ++pos;
      const std::size_t b = pos;
      while (pos < s.size() && !blank(s[pos]) && s[pos] != '\n') ++pos;
      return s.substr(b, pos - b);
    }
    void end_line() noexcept {
      while (pos < s.size() && s[pos] != '\n') ++pos;
      if (pos < s.size()) ++pos;
    }
    struct line_t {
      bool has_value;
      std::string_view text;
    };
    line_t line() noexcept {
      if (pos >= s.size()) return {false, {}};
      const std::size_t b = pos;
      while (pos < s.size() && s[pos] != '\n') ++pos;
      const auto t = s.substr(b, pos - b);
      if (pos < s.size()) ++pos;
      return {true, t};
    }
  };

  double gamma_ = 0.0;
  double rho_ = 0.0;
  std::vector<double> coef_;
  std::vector<std::vector<double>> rows_;
  std::vector<double> dense_;
  std::size_t width_ = 0;
};

}  // namespace vqm::vmaf
