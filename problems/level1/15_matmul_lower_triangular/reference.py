"""level1/15 (Matrix multiplication of lower-triangular matrices), as KernelBench structures a problem: C =
tril(A @ B) for square matrices."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.tril(torch.matmul(A, B))


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
N = 4096


def get_inputs():
    return [torch.randn(N, N) * 0.15, torch.randn(N, N) * 0.15]


def get_init_inputs():
    return []
