"""level2/63 (Gemm + ReLU + divide), as KernelBench structures a problem: relu(linear(x)) / 2.0."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.linear = nn.Linear(IN, OUT)
        self.divisor = 2.0

    def forward(self, x):
        x = self.linear(x)
        x = torch.relu(x)
        return x / self.divisor


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "linear.weight", "bias": "linear.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
