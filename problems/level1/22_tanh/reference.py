"""level1/22 (Tanh), as KernelBench structures a problem: y = tanh(x) over [B, D]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.tanh(x)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, D = 4096, 393216


def get_inputs():
    return [torch.randn(B, D) * 32]


def get_init_inputs():
    return []
