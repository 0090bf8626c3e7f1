"""level1/91 (Reverse cumulative sum), as KernelBench structures a problem: y = flip(cumsum(flip(x, 1), 1),
1), a reverse cumulative sum over [B, N]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.flip(torch.cumsum(torch.flip(x, [1]), dim=1), [1])


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, N = 32768, 32768


def get_inputs():
    return [torch.randn(B, N) * 0.0078125]


def get_init_inputs():
    return []
