"""level2/76 (Gemm + bias add + ReLU), as KernelBench structures a problem: relu(x @ weight^T + bias):
a Linear without bias, then a separate [OUT] bias."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT, bias=False)
        self.bias = nn.Parameter(torch.randn(OUT))

    def forward(self, x):
        x = self.gemm(x)
        x = x + self.bias
        return torch.relu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "gemm.weight", "bias": "bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
