"""level1/4 (Matrix-vector multiplication), as KernelBench structures a problem: C = A @ B with A [M, K] and
a column vector B [K, 1]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
M, K = 2048, 1048576


def get_inputs():
    return [torch.randn(M, K) * 0.022, torch.randn(K, 1) * 0.022]


def get_init_inputs():
    return []
