"""level2/17 (Conv2d + InstanceNorm + divide), as KernelBench structures a problem:
instance_norm(conv2d(x)) / 2 with a 3x3 kernel, stride 1, no padding, InstanceNorm2d without
affine."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)
        self.instance_norm = nn.InstanceNorm2d(CO, eps=1e-5)
        self.divide_by = 2.0

    def forward(self, x):
        x = self.conv(x)
        x = self.instance_norm(x)
        return x / self.divide_by


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 64, 128, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
