"""level2/53 (Gemm + scaling + Hardtanh + GELU), as KernelBench structures a problem:
gelu(hardtanh(linear(x) * 0.5, -2, 2)), exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)
        self.scaling_factor = 0.5
        self.hardtanh = nn.Hardtanh(min_val=-2.0, max_val=2.0)
        self.gelu = nn.GELU()

    def forward(self, x):
        x = self.gemm(x)
        x = x * self.scaling_factor
        x = self.hardtanh(x)
        return self.gelu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "gemm.weight", "bias": "gemm.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 2048, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
