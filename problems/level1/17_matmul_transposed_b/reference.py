"""level1/17 (Matrix multiplication with transposed B), as KernelBench structures a problem: C = A @ B.T
with A [M, K], B [N, K]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B.T)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
M, K, N = 2048, 8192, 4096


def get_inputs():
    return [torch.randn(M, K) * 0.105, torch.randn(N, K) * 0.105]


def get_init_inputs():
    return []
