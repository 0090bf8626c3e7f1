"""level2/23 (Conv3d + GroupNorm + mean), as KernelBench structures a problem: mean over (C, D, H, W)
of group_norm(conv3d(x), 8 groups) with a 3x3x3 kernel -> [B]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv3d(CI, CO, kernel_size=3)
        self.group_norm = nn.GroupNorm(num_groups=8, num_channels=CO, eps=1e-5)

    def forward(self, x):
        x = self.conv(x)
        x = self.group_norm(x)
        return x.mean(dim=[1, 2, 3, 4])


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv.weight",
    "conv_bias": "conv.bias",
    "gn_weight": "group_norm.weight",
    "gn_bias": "group_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 3, 24, 24, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
