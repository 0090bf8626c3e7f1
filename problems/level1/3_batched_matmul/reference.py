"""level1/3 (Batched matrix multiplication), as KernelBench structures a problem: C = bmm(A, B) with A
[BATCH, M, K], B [BATCH, K, N]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.bmm(A, B)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
BATCH, M, K, N = 128, 512, 1024, 2048


def get_inputs():
    return [torch.randn(BATCH, M, K) * 0.18, torch.randn(BATCH, K, N) * 0.18]


def get_init_inputs():
    return []
