"""level2/73 (Conv2d + BatchNorm (training) + scaling), as KernelBench structures a problem: 2.0 *
BatchNorm2d(conv2d(x)) with a 3x3 kernel, stride 1, no padding; batch statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)
        self.bn = nn.BatchNorm2d(CO, eps=1e-5, momentum=0.1)
        self.scaling_factor = 2.0

    def forward(self, x):
        x = self.conv(x)
        x = self.bn(x)
        return x * self.scaling_factor


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv.weight",
    "conv_bias": "conv.bias",
    "bn_weight": "bn.weight",
    "bn_bias": "bn.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 8, 64, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
