"""level1/12 (Diagonal matrix times matrix), as KernelBench structures a problem: C = diag(A) @ B, computed
as A.unsqueeze(1) * B."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return A.unsqueeze(1) * B


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
N, M = 4096, 4096


def get_inputs():
    return [torch.rand(N), torch.rand(N, M)]


def get_init_inputs():
    return []
