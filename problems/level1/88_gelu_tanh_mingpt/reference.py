"""level1/88 (MinGPT NewGELU (tanh approximation)), as KernelBench structures a problem: minGPT's tanh GELU,
0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) over [B, D]."""
import math
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, D = 8192, 8192


def get_inputs():
    return [torch.randn(B, D) * 4]


def get_init_inputs():
    return []
