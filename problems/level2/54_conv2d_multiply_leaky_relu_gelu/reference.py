"""level2/54 (Conv2d + multiply + LeakyReLU + GELU), as KernelBench structures a problem:
gelu(leaky_relu(conv2d(x) * multiplier, 0.01)) with a 3x3 kernel, multiplier [CO, 1, 1], exact
GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)
        self.multiplier = nn.Parameter(torch.randn(CO, 1, 1))
        self.leaky_relu = nn.LeakyReLU(negative_slope=0.01)

    def forward(self, x):
        x = self.conv(x)
        x = x * self.multiplier
        x = self.leaky_relu(x)
        return F.gelu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias", "multiplier": "multiplier"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 64, 64, 64, 256, 256


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
