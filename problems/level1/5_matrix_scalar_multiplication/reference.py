"""level1/5 (Matrix-scalar multiplication), as KernelBench structures a problem: C = A * s for a matrix A
and a Python scalar s."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, s):
        return A * s


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
M, N = 65536, 16384


def get_inputs():
    return [torch.rand(M, N), 3.14]


def get_init_inputs():
    return []
