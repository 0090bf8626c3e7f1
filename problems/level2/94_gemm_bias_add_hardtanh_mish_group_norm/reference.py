"""level2/94 (Gemm + bias add + Hardtanh + Mish + GroupNorm), as KernelBench structures a problem:
group_norm(mish(hardtanh(linear(x) + bias, -1, 1)), 256 groups), bias [OUT]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)
        self.bias = nn.Parameter(torch.randn(OUT))
        self.hardtanh = nn.Hardtanh()
        self.mish = nn.Mish()
        self.groupnorm = nn.GroupNorm(num_groups=256, num_channels=OUT, eps=1e-5)

    def forward(self, x):
        x = self.gemm(x)
        x = x + self.bias
        x = self.hardtanh(x)
        x = self.mish(x)
        return self.groupnorm(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "gemm_weight": "gemm.weight",
    "gemm_bias": "gemm.bias",
    "bias": "bias",
    "gn_weight": "groupnorm.weight",
    "gn_bias": "groupnorm.bias",
}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
