"""level2/29 (Matmul + Mish + Mish), as KernelBench structures a problem: mish(mish(linear(x)))."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.linear = nn.Linear(IN, OUT)

    def forward(self, x):
        x = self.linear(x)
        x = F.mish(x)
        return F.mish(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "linear.weight", "bias": "linear.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
