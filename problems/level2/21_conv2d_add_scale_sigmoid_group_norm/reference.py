"""level2/21 (Conv2d + add + scale + Sigmoid + GroupNorm), as KernelBench structures a problem:
group_norm(sigmoid((conv2d(x) + bias) * scale), 8 groups) with a 3x3 kernel, bias and scale [CO, 1,
1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)
        self.bias = nn.Parameter(torch.randn(CO, 1, 1))
        self.scale = nn.Parameter(torch.randn(CO, 1, 1))
        self.group_norm = nn.GroupNorm(num_groups=8, num_channels=CO, eps=1e-5)

    def forward(self, x):
        x = self.conv(x)
        x = x + self.bias
        x = x * self.scale
        x = torch.sigmoid(x)
        return self.group_norm(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv.weight",
    "conv_bias": "conv.bias",
    "bias": "bias",
    "scale": "scale",
    "gn_weight": "group_norm.weight",
    "gn_bias": "group_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 8, 32, 256, 256


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
