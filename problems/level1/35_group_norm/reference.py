"""level1/35 (GroupNorm), as KernelBench structures a problem: GroupNorm(8 groups, C channels, eps 1e-5)
over [B, C, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups=8, num_channels=C, eps=1e-5)

    def forward(self, x):
        return self.gn(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "gn.weight", "bias": "gn.bias"}

# The full size (spec.yaml's sizes.full).
B, C, H, W = 112, 64, 512, 512


def get_inputs():
    return [torch.randn(B, C, H, W) * 2 + 1]


def get_init_inputs():
    return [C]
