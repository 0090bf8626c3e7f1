"""level1/48 (Mean reduction over a dimension), as KernelBench structures a problem: y = mean(x, dim=1) over
[B, N, D]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.mean(x, dim=1)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, N, D = 128, 4096, 4095


def get_inputs():
    return [torch.randn(B, N, D) + 2]


def get_init_inputs():
    return []
