"""level2/61 (ConvTranspose3d + ReLU + GroupNorm), as KernelBench structures a problem:
group_norm(relu(conv_transpose3d(x)), 8 groups) with a 3x3x3 kernel, stride 1, no padding, no conv
bias."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, bias=False)
        self.relu = nn.ReLU()
        self.group_norm = nn.GroupNorm(num_groups=8, num_channels=CO, eps=1e-5)

    def forward(self, x):
        x = self.conv_transpose(x)
        x = self.relu(x)
        return self.group_norm(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "gn_weight": "group_norm.weight",
    "gn_bias": "group_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 16, 64, 128, 32, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
