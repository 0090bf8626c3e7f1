"""level2/80 (Gemm + max + subtract mean + GELU (output identically zero)), as KernelBench structures
a problem: m = max(linear(x), dim 1, keepdim); gelu(m - mean(m, dim 1, keepdim)) (identically 0),
exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)

    def forward(self, x):
        x = self.gemm(x)
        x = torch.max(x, dim=1, keepdim=True).values
        x = x - x.mean(dim=1, keepdim=True)
        return F.gelu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "gemm.weight", "bias": "gemm.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
