#include "eval/worker/compare.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/isclose.h>

namespace eval::worker {
namespace {

std::string dtype_name(at::ScalarType t) {
  switch (t) {
    case at::kFloat:
      return "float32";
    case at::kHalf:
      return "float16";
    case at::kBFloat16:
      return "bfloat16";
    case at::kDouble:
      return "float64";
    case at::kLong:
      return "int64";
    case at::kInt:
      return "int32";
    case at::kBool:
      return "bool";
    default:
      return c10::toString(t);
  }
}

std::string shape_string(at::IntArrayRef sizes) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < sizes.size(); ++i) os << (i ? ", " : "") << sizes[i];
  os << "]";
  return os.str();
}

std::vector<int64_t> unravel(int64_t flat, at::IntArrayRef sizes) {
  std::vector<int64_t> index(sizes.size());
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    index[d] = sizes[d] ? flat % sizes[d] : 0;
    flat = sizes[d] ? flat / sizes[d] : 0;
  }
  return index;
}

constexpr int64_t kChunk = int64_t{1} << 26;

}  // namespace

std::string describe(const at::Tensor& t) {
  if (!t.defined()) return "undefined";
  return shape_string(t.sizes()) + " " + dtype_name(t.scalar_type());
}

std::optional<std::string> check_structure(const std::vector<at::Tensor>& actual,
                                           const std::vector<at::Tensor>& expected) {
  if (actual.size() != expected.size())
    return "forward returned " + std::to_string(actual.size()) + " tensors, expected " +
           std::to_string(expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    const auto& a = actual[i];
    const auto& e = expected[i];
    std::string which = "output " + std::to_string(i);
    if (!a.defined()) return which + " is an undefined tensor";
    if (a.device() != e.device()) return which + " is on " + a.device().str() + ", expected " + e.device().str();
    if (a.scalar_type() != e.scalar_type())
      return which + " has dtype " + dtype_name(a.scalar_type()) + ", expected " + dtype_name(e.scalar_type());
    if (!a.sizes().equals(e.sizes()))
      return which + " has shape " + shape_string(a.sizes()) + ", expected " + shape_string(e.sizes());
  }
  return std::nullopt;
}

bool within_tolerance(const at::Tensor& actual, const at::Tensor& expected, const Tolerance& tol) {
  at::NoGradGuard no_grad;
  if (!actual.sizes().equals(expected.sizes())) return false;
  at::Tensor a = actual.reshape(-1), b = expected.reshape(-1);
  const bool floating = at::isFloatingType(b.scalar_type());
  for (int64_t start = 0; start < b.numel(); start += kChunk) {
    const int64_t len = std::min(kChunk, b.numel() - start);
    at::Tensor ac = a.narrow(0, start, len), bc = b.narrow(0, start, len);
    if (!floating) {
      if (!at::equal(ac.to(bc.scalar_type()), bc)) return false;
      continue;
    }
    if (ac.scalar_type() != at::kDouble || bc.scalar_type() != at::kDouble) {
      ac = ac.to(at::kFloat);
      bc = bc.to(at::kFloat);
    }
    if (ac.is_cpu() && ac.scalar_type() == at::kFloat && ac.is_contiguous() && bc.is_contiguous()) {
      // One pass, where isclose makes a dozen (a third of a cpu timing went here).
      const float* x = ac.data_ptr<float>();
      const float* y = bc.data_ptr<float>();
      const double rtol = tol.rtol, atol = tol.atol;
      for (int64_t i = 0; i < len; ++i) {
        const float u = x[i], v = y[i];
        if (u == v || (std::isnan(u) && std::isnan(v))) continue;
        const double e = std::fabs(static_cast<double>(u) - v);
        if (!std::isfinite(e) || e > atol + rtol * std::fabs(static_cast<double>(v))) return false;
      }
      continue;
    }
    // Equal is the common answer of an exact kernel, and one pass where
    // isclose makes a dozen (the timed calls' checks of a full-size level1/19
    // evaluation took 6.4 s, 64 ms a call, on an H100).
    if (at::equal(ac, bc)) continue;
    // isclose(equal_nan): equal, or both NaN, or |a - b| <= atol + rtol |b|
    // with the error finite; that is compare_values' rule (an infinite
    // reference passes only an equal answer).
    if (!at::isclose(ac, bc, tol.rtol, tol.atol, /*equal_nan=*/true).all().item<bool>()) return false;
  }
  return true;
}

TrialDiff compare_values(const at::Tensor& actual, const at::Tensor& expected, const Tolerance& tol, int max_reported) {
  TrialDiff d;
  at::NoGradGuard no_grad;
  at::Tensor a = actual.reshape(-1), b = expected.reshape(-1);
  d.elements = b.numel();
  const bool floating = at::isFloatingType(b.scalar_type());
  for (int64_t start = 0; start < d.elements; start += kChunk) {
    int64_t len = std::min(kChunk, d.elements - start);
    at::Tensor ac = a.narrow(0, start, len), bc = b.narrow(0, start, len);
    at::Tensor bad, diff, rel;
    if (floating) {
      if (ac.scalar_type() != at::kDouble) {
        ac = ac.to(at::kFloat);
        bc = bc.to(at::kFloat);
      }
      diff = (ac - bc).abs();
      // Within tolerance only against a finite reference: an infinite bound would pass anything.
      at::Tensor ok = diff.le(bc.abs().mul(tol.rtol).add(tol.atol)).logical_and(bc.isfinite());
      ok = ok.logical_or(ac.eq(bc)).logical_or(ac.isnan().logical_and(bc.isnan()));
      bad = ok.logical_not();
      at::Tensor nonfinite_bad = bad.logical_and(ac.isfinite().logical_not());
      if (nonfinite_bad.any().item<bool>()) d.nonfinite = true;
      diff = diff.masked_fill(diff.isfinite().logical_not(), 0);
      rel = diff / bc.abs().clamp_min(1e-30);
      rel = rel.masked_fill(rel.isfinite().logical_not(), 0);
    } else {
      bad = ac.ne(bc);
      diff = (ac.to(at::kDouble) - bc.to(at::kDouble)).abs();
      rel = diff / bc.to(at::kDouble).abs().clamp_min(1);
    }
    if (len > 0) {
      d.max_abs = std::max(d.max_abs, diff.max().item<double>());
      d.max_rel = std::max(d.max_rel, rel.max().item<double>());
    }
    int64_t count = bad.sum().item<int64_t>();
    d.mismatches += count;
    if (count > 0 && static_cast<int>(d.first.size()) < max_reported) {
      int64_t need = max_reported - static_cast<int64_t>(d.first.size());
      at::Tensor idx = bad.nonzero().flatten().slice(0, 0, need).cpu();
      for (int64_t k = 0; k < idx.numel(); ++k) {
        int64_t i = idx[k].item<int64_t>();
        Mismatch m;
        m.index = unravel(start + i, expected.sizes());
        m.expected = bc[i].item<double>();
        m.actual = ac[i].item<double>();
        d.first.push_back(std::move(m));
      }
    }
  }
  return d;
}

std::optional<std::string> check_unchanged(const std::vector<at::Tensor>& after,
                                           const std::vector<at::Tensor>& pristine,
                                           const std::vector<std::string>& names) {
  for (size_t i = 0; i < pristine.size(); ++i) {
    const auto& a = after[i];
    const auto& p = pristine[i];
    bool same =
        a.defined() && a.sizes().equals(p.sizes()) && a.scalar_type() == p.scalar_type() && a.device() == p.device();
    // In chunks, as compare_values: a 6 GiB input's whole-tensor masks ran an
    // 80 GB GPU out of memory (level1/19 at full size on an H100).
    const bool floating = at::isFloatingType(p.scalar_type());
    const at::Tensor af = same ? a.reshape(-1) : a, pf = same ? p.reshape(-1) : p;
    for (int64_t start = 0; same && start < pf.numel(); start += kChunk) {
      const int64_t len = std::min(kChunk, pf.numel() - start);
      at::Tensor ac = af.narrow(0, start, len), pc = pf.narrow(0, start, len);
      // One pass in the common case; NaN == NaN only where that fails: an
      // untouched input that holds NaN is unchanged.
      same = at::equal(ac, pc) ||
             (floating && ac.eq(pc).logical_or(ac.isnan().logical_and(pc.isnan())).all().item<bool>());
    }
    if (!same) return "forward changed its input '" + names[i] + "'; inputs must be left unchanged";
  }
  return std::nullopt;
}

std::optional<std::string> check_no_alias(const std::vector<at::Tensor>& outputs, const std::vector<at::Tensor>& inputs,
                                          const std::vector<std::string>& names) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    const auto& out = outputs[o];
    if (!out.defined() || !out.has_storage()) continue;
    auto ob = reinterpret_cast<uintptr_t>(out.storage().data());
    auto oe = ob + out.storage().nbytes();
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto& in = inputs[i];
      if (!in.defined() || !in.has_storage() || in.dim() == 0) continue;
      auto ib = reinterpret_cast<uintptr_t>(in.storage().data());
      auto ie = ib + in.storage().nbytes();
      if (ob < ie && ib < oe)
        return "output " + std::to_string(o) + " shares memory with input '" + names[i] + "'; return a new tensor";
    }
  }
  return std::nullopt;
}

}  // namespace eval::worker
