"""level1/7 (Matrix multiplication with a small K), as KernelBench structures a problem: C = A @ B with a
small inner dimension K."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
M, K, N = 32768, 64, 32768


def get_inputs():
    return [torch.rand(M, K), torch.rand(K, N)]


def get_init_inputs():
    return []
