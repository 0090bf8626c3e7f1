"""level1/51 (Argmax over a dimension), as KernelBench structures a problem: y = argmax(x, dim=1) over [B,
N, D]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.argmax(x, dim=1)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, N, D = 128, 4096, 4095


def get_inputs():
    return [torch.randn(B, N, D) - 4]


def get_init_inputs():
    return []
