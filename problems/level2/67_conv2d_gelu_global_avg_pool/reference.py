"""level2/67 (Conv2d + GELU + global average pool), as KernelBench structures a problem:
adaptive_avg_pool2d(gelu(conv2d(x)), 1) squeezed to [B, CO], 3x3 kernel, exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)

    def forward(self, x):
        x = self.conv(x)
        x = F.gelu(x)
        x = F.adaptive_avg_pool2d(x, 1)
        return x.squeeze(-1).squeeze(-1)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 8, 64, 256, 256


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
