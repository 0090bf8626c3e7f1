"""level1/10 (3-D tensor times matrix), as KernelBench structures a problem: C = matmul(A, B) with a 3-D A
[BATCH, M, K] and a matrix B [K, N]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
BATCH, M, K, N = 16, 1024, 2048, 768


def get_inputs():
    return [torch.randn(BATCH, M, K) * 0.149, torch.randn(K, N) * 0.149]


def get_init_inputs():
    return []
