"""level2/60 (ConvTranspose3d + Swish + GroupNorm + HardSwish), as KernelBench structures a problem:
hardswish(group_norm(swish(conv_transpose3d(x)), 4 groups)); 3x3x3 kernel, stride 2, padding 1."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1)
        self.group_norm = nn.GroupNorm(num_groups=4, num_channels=CO, eps=1e-5)

    def forward(self, x):
        x = self.conv_transpose(x)
        x = torch.sigmoid(x) * x
        x = self.group_norm(x)
        return F.hardswish(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "gn_weight": "group_norm.weight",
    "gn_bias": "group_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 3, 16, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
