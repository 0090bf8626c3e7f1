"""level2/12 (Gemm + multiply + LeakyReLU), as KernelBench structures a problem: leaky_relu(linear(x)
* 2.0, negative_slope=0.1)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)
        self.multiplier = 2.0
        self.leaky_relu = nn.LeakyReLU(negative_slope=0.1)

    def forward(self, x):
        x = self.gemm(x)
        x = x * self.multiplier
        return self.leaky_relu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "gemm.weight", "bias": "gemm.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
