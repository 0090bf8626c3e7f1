"""level1/93 (Masked cumulative sum), as KernelBench structures a problem: y = cumsum(x * mask, dim=1) with
a boolean mask over [B, N]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, mask):
        return torch.cumsum(x * mask, dim=1)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, N = 32768, 32768


def get_inputs():
    return [torch.randn(B, N) * 0.0078125, torch.rand(B, N) > 0.5]


def get_init_inputs():
    return []
