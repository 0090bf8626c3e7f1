"""level2/33 (Gemm + scale + BatchNorm1d (training mode)), as KernelBench structures a problem:
BatchNorm1d (batch statistics, eps 1e-5) of linear(x) * scale, scale [OUT]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)
        self.scale = nn.Parameter(torch.randn(OUT))
        self.bn = nn.BatchNorm1d(OUT, eps=1e-5, momentum=0.1)

    def forward(self, x):
        x = self.gemm(x)
        x = x * self.scale
        return self.bn(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "weight": "gemm.weight",
    "bias": "gemm.bias",
    "scale": "scale",
    "bn_weight": "bn.weight",
    "bn_bias": "bn.bias",
}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
