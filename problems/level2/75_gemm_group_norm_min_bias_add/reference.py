"""level2/75 (Gemm + GroupNorm + min + bias add (broadcast quirk)), as KernelBench structures a
problem: min over dim 1 (keepdim) of group_norm(linear(x), 512 groups), plus bias [1, OUT, 1, 1]
(broadcast to [1, OUT, B, 1])."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)
        self.group_norm = nn.GroupNorm(num_groups=512, num_channels=OUT, eps=1e-5)
        self.bias = nn.Parameter(torch.randn(1, OUT, 1, 1))

    def forward(self, x):
        x = self.gemm(x)
        x = self.group_norm(x)
        x = torch.min(x, dim=1, keepdim=True)[0]
        return x + self.bias


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "weight": "gemm.weight",
    "bias_linear": "gemm.bias",
    "gn_weight": "group_norm.weight",
    "gn_bias": "group_norm.bias",
    "bias": "bias",
}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
