"""level2/9 (Matmul + subtract + multiply + ReLU), as KernelBench structures a problem:
relu((linear(x) - 2.0) * 1.5)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.linear = nn.Linear(IN, OUT)

    def forward(self, x):
        x = self.linear(x)
        x = (x - 2.0) * 1.5
        return torch.relu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "linear.weight", "bias": "linear.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
