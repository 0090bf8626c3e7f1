"""level2/8 (Conv3d + divide + MaxPool + global AvgPool + bias add + sum), as KernelBench structures a
problem: conv3d (3x3x3) / 2, MaxPool3d(2), global average pool, + bias [CO, 1, 1, 1], sum over
channels -> [B, 1, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv3d(CI, CO, kernel_size=3)
        self.divisor = 2.0
        self.max_pool = nn.MaxPool3d(kernel_size=2)
        self.global_avg_pool = nn.AdaptiveAvgPool3d((1, 1, 1))
        self.bias = nn.Parameter(torch.randn(CO, 1, 1, 1))

    def forward(self, x):
        x = self.conv(x)
        x = x / self.divisor
        x = self.max_pool(x)
        x = self.global_avg_pool(x)
        x = x + self.bias
        return torch.sum(x, dim=1)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias", "bias": "bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 8, 16, 16, 64, 64


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
