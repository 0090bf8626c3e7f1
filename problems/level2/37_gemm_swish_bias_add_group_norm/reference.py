"""level2/37 (Gemm + Swish + bias add + GroupNorm), as KernelBench structures a problem:
group_norm(sigmoid(v) * v + bias, 64 groups) with v = linear(x)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.matmul = nn.Linear(IN, OUT)
        self.bias = nn.Parameter(torch.randn(OUT))
        self.group_norm = nn.GroupNorm(num_groups=64, num_channels=OUT, eps=1e-5)

    def forward(self, x):
        x = self.matmul(x)
        x = torch.sigmoid(x) * x
        x = x + self.bias
        return self.group_norm(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "weight": "matmul.weight",
    "linear_bias": "matmul.bias",
    "bias": "bias",
    "gn_weight": "group_norm.weight",
    "gn_bias": "group_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 32768, 1024, 4096


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
