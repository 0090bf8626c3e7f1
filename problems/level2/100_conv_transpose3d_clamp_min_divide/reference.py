"""level2/100 (ConvTranspose3d + clamp (min) + divide), as KernelBench structures a problem:
clamp(conv_transpose3d(x), min=-1) / 2 with a 3x3x3 kernel, stride 2, padding 1."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1)
        self.min_value = -1.0
        self.divisor = 2.0

    def forward(self, x):
        x = self.conv_transpose(x)
        x = torch.clamp(x, min=self.min_value)
        return x / self.divisor


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv_transpose.weight", "conv_bias": "conv_transpose.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 16, 64, 128, 24, 48, 48


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
