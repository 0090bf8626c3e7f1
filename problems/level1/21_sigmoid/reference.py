"""level1/21 (Sigmoid), as KernelBench structures a problem: y = sigmoid(x) over [B, D]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sigmoid(x)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, D = 4096, 393216


def get_inputs():
    return [torch.randn(B, D) * 32]


def get_init_inputs():
    return []
