"""level2/40 (Gemm + scaling + residual add), as KernelBench structures a problem: v = linear(x); v *
0.5 + v (the residual a detached copy of v)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.matmul = nn.Linear(IN, OUT)
        self.scaling_factor = 0.5

    def forward(self, x):
        x = self.matmul(x)
        original_x = x.clone().detach()
        x = x * self.scaling_factor
        return x + original_x


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "matmul.weight", "bias": "matmul.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 16384, 4096, 4096


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
