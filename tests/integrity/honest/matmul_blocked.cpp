// Honest (cpu): a blocked fp32 matrix product with fp32 accumulation.
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor A, torch::Tensor B) {
  auto a = A.contiguous(), b = B.contiguous();
  const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  auto C = torch::zeros({M, N}, a.options());
  const float* pa = a.data_ptr<float>();
  const float* pb = b.data_ptr<float>();
  float* pc = C.data_ptr<float>();
  constexpr int64_t T = 64;
#pragma omp parallel for
  for (int64_t i0 = 0; i0 < M; i0 += T)
    for (int64_t k0 = 0; k0 < K; k0 += T)
      for (int64_t i = i0; i < std::min(i0 + T, M); ++i)
        for (int64_t k = k0; k < std::min(k0 + T, K); ++k) {
          const float aik = pa[i * K + k];
          for (int64_t j = 0; j < N; ++j) pc[i * N + j] += aik * pb[k * N + j];
        }
  return C;
}
