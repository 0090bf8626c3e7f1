"""level1/18 (Matrix multiplication with both operands transposed), as KernelBench structures a problem: C =
A.T @ B.T with A [K, M], B [N, K]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A.T, B.T)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
M, K, N = 2048, 8192, 4096


def get_inputs():
    return [torch.randn(K, M) * 0.105, torch.randn(N, K) * 0.105]


def get_init_inputs():
    return []
