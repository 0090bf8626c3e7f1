"""level1/92 (Exclusive cumulative sum), as KernelBench structures a problem: an exclusive cumulative sum
along dim 1: [0, cumsum(x[:, :-1], dim=1)] over [B, N]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        zeros = torch.zeros(x.size(0), 1, dtype=x.dtype, device=x.device)
        return torch.cat([zeros, torch.cumsum(x[:, :-1], dim=1)], dim=1)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, N = 32768, 32768


def get_inputs():
    return [torch.randn(B, N) * 0.0078125]


def get_init_inputs():
    return []
