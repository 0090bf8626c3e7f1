"""level2/81 (Gemm + Swish + divide + clamp + Tanh + clamp), as KernelBench structures a problem:
clamp(tanh(clamp(swish(linear(x)) / 2, -1, 1)), -1, 1), swish(z) = z * sigmoid(z)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)

    def forward(self, x):
        x = self.gemm(x)
        x = x * torch.sigmoid(x)
        x = x / 2.0
        x = torch.clamp(x, min=-1.0, max=1.0)
        x = torch.tanh(x)
        return torch.clamp(x, min=-1.0, max=1.0)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "gemm.weight", "bias": "gemm.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
