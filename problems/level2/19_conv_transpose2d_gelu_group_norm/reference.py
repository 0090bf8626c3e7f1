"""level2/19 (ConvTranspose2d + GELU + GroupNorm), as KernelBench structures a problem:
group_norm(gelu(conv_transpose2d(x)), 8 groups) with a 3x3 kernel, stride 1, exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(CI, CO, kernel_size=3, stride=1)
        self.group_norm = nn.GroupNorm(num_groups=8, num_channels=CO, eps=1e-5)

    def forward(self, x):
        x = self.conv_transpose(x)
        x = F.gelu(x)
        return self.group_norm(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "gn_weight": "group_norm.weight",
    "gn_bias": "group_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 64, 64, 256, 256


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
