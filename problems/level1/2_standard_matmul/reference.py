"""level1/2 (Rectangular matrix multiplication), as KernelBench structures a problem: C = A @ B with A [M,
K], B [K, N]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
M, K, N = 2048, 8192, 4096


def get_inputs():
    return [torch.randn(M, K) * 0.105, torch.randn(K, N) * 0.105]


def get_init_inputs():
    return []
