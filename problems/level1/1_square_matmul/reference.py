"""level1/1 (Square matrix multiplication), as KernelBench structures a problem: C = A @ B for square N x N
matrices."""
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
    return [torch.randn(N, N) * 0.125, torch.randn(N, N) * 0.125]


def get_init_inputs():
    return []
