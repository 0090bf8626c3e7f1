"""level2/86 (Matmul + divide + GELU), as KernelBench structures a problem: gelu(linear(x) / 10.0),
exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.linear = nn.Linear(IN, OUT)
        self.divisor = 10.0

    def forward(self, x):
        x = self.linear(x)
        x = x / self.divisor
        return F.gelu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "linear.weight", "bias": "linear.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
