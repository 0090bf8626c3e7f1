"""level2/66 (Matmul + dropout + softmax), as KernelBench structures a problem: softmax(linear(x) *
(keep * 1.25), dim 1): dropout with p = 0.2, its keep mask given as an input."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.matmul = nn.Linear(IN, OUT)
        self.dropout_p = 0.2

    def forward(self, x, keep):
        x = self.matmul(x)
        x = x * (keep * (1.0 / (1.0 - self.dropout_p)))
        return torch.softmax(x, dim=1)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "matmul.weight", "bias": "matmul.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 128, 16384, 16384


def get_inputs():
    return [torch.randn(B, IN), (torch.rand(B, OUT) < 0.8).float()]


def get_init_inputs():
    return [IN, OUT]
