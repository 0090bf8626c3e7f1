"""level2/41 (Gemm + BatchNorm1d (training mode) + GELU + ReLU), as KernelBench structures a problem:
relu(gelu(BatchNorm1d(linear(x)))) with batch statistics, eps 1e-5, exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)
        self.batch_norm = nn.BatchNorm1d(OUT, eps=1e-5, momentum=0.1)

    def forward(self, x):
        x = self.gemm(x)
        x = self.batch_norm(x)
        x = F.gelu(x)
        return torch.relu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "weight": "gemm.weight",
    "bias": "gemm.bias",
    "bn_weight": "batch_norm.weight",
    "bn_bias": "batch_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 16384, 4096, 4096


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
