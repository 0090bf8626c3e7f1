"""level2/85 (Conv2d + GroupNorm + scale + MaxPool2d + clamp), as KernelBench structures a problem:
clamp(max_pool2d(group_norm(conv2d(x), 16 groups) * scale, 4), 0, 1), 3x3 kernel, scale [CO, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)
        self.group_norm = nn.GroupNorm(num_groups=16, num_channels=CO, eps=1e-5)
        self.scale = nn.Parameter(torch.ones(CO, 1, 1))
        self.maxpool = nn.MaxPool2d(kernel_size=4)

    def forward(self, x):
        x = self.conv(x)
        x = self.group_norm(x)
        x = x * self.scale
        x = self.maxpool(x)
        return torch.clamp(x, 0.0, 1.0)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv.weight",
    "conv_bias": "conv.bias",
    "gn_weight": "group_norm.weight",
    "gn_bias": "group_norm.bias",
    "scale": "scale",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 8, 64, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
