// The worker's input draws: distributions, seeds and the transforms after a draw.
#include <ATen/ATen.h>

#include <string>
#include <vector>

#include "eval/worker/inputs.h"

// Last: LibTorch brings glog, whose CHECK aborts the process; doctest's must win.
#include <doctest/doctest.h>

namespace {

eval::ResolvedInput tensor(const std::string& then, std::vector<int64_t> shape = {3, 16, 16}) {
  eval::ResolvedInput in;
  in.name = "x";
  in.dtype = eval::DType::float32;
  in.shape = std::move(shape);
  in.draw = {eval::DrawSpec::Kind::normal, 0, 1};
  in.then = then;
  return in;
}

at::Tensor draw(const eval::ResolvedInput& in, uint64_t seed = 7) {
  return eval::worker::draw_inputs({in}, seed, at::Device(at::kCPU)).at(0);
}

}  // namespace

TEST_SUITE("eval::worker::draw_inputs") {
  TEST_CASE("the same seed draws the same values; another seed does not") {
    CHECK(at::equal(draw(tensor("")), draw(tensor(""))));
    CHECK_FALSE(at::equal(draw(tensor(""), 7), draw(tensor(""), 8)));
  }

  TEST_CASE("a large cpu draw, filled in chunks on every core, follows the seed and keeps its distribution") {
    auto big = tensor("", {4, 1 << 19});  // 2M elements: eight chunks
    auto a = draw(big), b = draw(big);
    CHECK(at::equal(a, b));
    CHECK_FALSE(at::equal(a, draw(big, 8)));
    // No chunk repeats another: each has a generator of its own.
    auto flat = a.reshape({-1});
    CHECK_FALSE(at::equal(flat.slice(0, 0, 1 << 18), flat.slice(0, 1 << 18, 2 << 18)));
    CHECK(std::abs(a.mean().item<double>()) < 0.005);
    CHECK(a.std().item<double>() == doctest::Approx(1).epsilon(0.005));
    auto u = tensor("", {4, 1 << 19});
    u.draw = {eval::DrawSpec::Kind::uniform, -2, 3};
    auto v = draw(u);
    CHECK(v.min().item<double>() >= -2);
    CHECK(v.max().item<double>() < 3);
    CHECK(v.mean().item<double>() == doctest::Approx(0.5).epsilon(0.01));
  }

  TEST_CASE("symmetric: every matrix equals its transpose, exactly, and is not all zero") {
    at::Tensor t = draw(tensor("symmetric"));
    CHECK(at::equal(t, t.transpose(-2, -1)));
    CHECK(t.abs().sum().item<double>() > 0);
    CHECK(t.is_contiguous());
  }

  TEST_CASE("triu and tril zero the other side of the diagonal and keep the diagonal") {
    at::Tensor u = draw(tensor("triu"));
    CHECK(at::equal(u, u.triu()));
    CHECK(u.tril(-1).abs().sum().item<double>() == 0);
    CHECK(u.diagonal(0, -2, -1).abs().min().item<double>() > 0);
    at::Tensor l = draw(tensor("tril"));
    CHECK(l.triu(1).abs().sum().item<double>() == 0);
    CHECK(l.tril().abs().sum().item<double>() > 0);
  }

  TEST_CASE("softmax: rows over the last dim are positive and sum to one") {
    at::Tensor s = draw(tensor("softmax", {4, 100}));
    CHECK(s.min().item<double>() > 0);
    CHECK(at::allclose(s.sum(-1), at::ones({4})));
  }

  TEST_CASE("sign: a normal draw becomes labels of -1 and +1, about half each") {
    at::Tensor s = draw(tensor("sign", {4096}));
    CHECK(at::equal(s.abs(), at::ones({4096})));
    const double positive = (s > 0).sum().item<double>() / 4096;
    CHECK(positive > 0.45);
    CHECK(positive < 0.55);
  }

  TEST_CASE("a transform follows the draw: with it, the untransformed values are not what comes out") {
    at::Tensor plain = draw(tensor(""));
    at::Tensor upper = draw(tensor("triu"));
    CHECK(at::equal(upper, plain.triu()));
  }
}
