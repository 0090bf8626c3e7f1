"""level2/84 (Gemm + BatchNorm (training) + scaling + Softmax), as KernelBench structures a problem:
softmax(scale * BatchNorm1d(linear(x)), dim 1), batch statistics, scale [1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)
        self.bn = nn.BatchNorm1d(OUT, eps=1e-5, momentum=0.1)
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        x = self.gemm(x)
        x = self.bn(x)
        x = self.scale * x
        return torch.softmax(x, dim=1)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "weight": "gemm.weight",
    "bias": "gemm.bias",
    "bn_weight": "bn.weight",
    "bn_bias": "bn.bias",
    "scale": "scale",
}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
