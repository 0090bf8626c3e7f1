"""level2/88 (Gemm + GroupNorm + Swish + multiply + Swish), as KernelBench structures a problem: z =
group_norm(linear(x), 256 groups); z = swish(z) * multiply_weight; swish(z), swish(v) = v *
sigmoid(v)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)
        self.group_norm = nn.GroupNorm(num_groups=256, num_channels=OUT, eps=1e-5)
        self.multiply_weight = nn.Parameter(torch.randn(OUT))

    def forward(self, x):
        x = self.gemm(x)
        x = self.group_norm(x)
        x = x * torch.sigmoid(x)
        x = x * self.multiply_weight
        return x * torch.sigmoid(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "weight": "gemm.weight",
    "bias": "gemm.bias",
    "gn_weight": "group_norm.weight",
    "gn_bias": "group_norm.bias",
    "multiply_weight": "multiply_weight",
}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
