// Honest (cpu): the work split over threads of its own, every one joined
// before forward returns (the static checks warn; the verdict is the output's).
#include <torch/torch.h>

#include <thread>
#include <vector>

torch::Tensor forward(torch::Tensor x) {
  auto in = x.contiguous();
  auto out = torch::empty_like(in);
  const float* src = in.data_ptr<float>();
  float* dst = out.data_ptr<float>();
  const int64_t n = in.numel();
  const int parts = 2;
  std::vector<std::thread> workers;
  for (int p = 0; p < parts; ++p)
    workers.emplace_back([=] {
      for (int64_t i = n * p / parts; i < n * (p + 1) / parts; ++i) dst[i] = src[i] > 0.f ? src[i] : 0.f;
    });
  for (auto& w : workers) w.join();
  return out;
}
