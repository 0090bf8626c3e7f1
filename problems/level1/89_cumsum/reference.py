"""level1/89 (Cumulative sum), as KernelBench structures a problem: y = cumsum(x, dim=1) over [B, N]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.cumsum(x, dim=1)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, N = 32768, 32768


def get_inputs():
    return [torch.randn(B, N) * 0.0078125]


def get_init_inputs():
    return []
