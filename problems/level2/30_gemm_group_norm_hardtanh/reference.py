"""level2/30 (Gemm + GroupNorm + Hardtanh), as KernelBench structures a problem:
hardtanh(group_norm(linear(x), 16 groups), -2, 2)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)
        self.group_norm = nn.GroupNorm(num_groups=16, num_channels=OUT, eps=1e-5)
        self.hardtanh = nn.Hardtanh(min_val=-2.0, max_val=2.0)

    def forward(self, x):
        x = self.gemm(x)
        x = self.group_norm(x)
        return self.hardtanh(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "weight": "gemm.weight",
    "bias": "gemm.bias",
    "gn_weight": "group_norm.weight",
    "gn_bias": "group_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
