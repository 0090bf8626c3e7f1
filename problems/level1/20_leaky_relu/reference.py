"""level1/20 (LeakyReLU), as KernelBench structures a problem: y = leaky_relu(x, negative_slope=0.01) over
[B, D]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.leaky_relu(x, negative_slope=0.01)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, D = 4096, 393216


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return []
