"""level2/71 (Conv2d + divide + LeakyReLU), as KernelBench structures a problem: leaky_relu(conv2d(x)
/ 2, 0.01) with a 3x3 kernel, stride 1, no padding."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)
        self.divisor = 2.0

    def forward(self, x):
        x = self.conv(x)
        x = x / self.divisor
        return F.leaky_relu(x, negative_slope=0.01)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 8, 64, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
