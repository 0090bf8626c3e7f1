"""level1/6 (Matrix multiplication with a large K), as KernelBench structures a problem: C = A @ B with a
large inner dimension K."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
M, K, N = 256, 524288, 256


def get_inputs():
    return [torch.randn(M, K) * 0.026, torch.randn(K, N) * 0.026]


def get_init_inputs():
    return []
