"""level1/8 (Matrix multiplication with irregular shapes), as KernelBench structures a problem: C = A @ B
with irregular M, K, N."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
M, K, N = 8205, 2949, 5921


def get_inputs():
    return [torch.randn(M, K) * 0.136, torch.randn(K, N) * 0.136]


def get_init_inputs():
    return []
