"""level1/13 (Matrix multiplication of symmetric matrices), as KernelBench structures a problem: C = A @ B
for (symmetric) square matrices."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
N = 4096


def get_inputs():
    return [torch.randn(N, N) * 0.177, torch.randn(N, N) * 0.177]


def get_init_inputs():
    return []
