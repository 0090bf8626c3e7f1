"""level2/96 (ConvTranspose3d + multiply + MaxPool3d + global average pool + clamp), as KernelBench
structures a problem: clamp(adaptive_avg_pool3d(max_pool3d(conv_transpose3d(x) * 0.5, 2), 1), 0,
1); 3x3x3 kernel, stride 2, padding 1."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1)
        self.scale = 0.5
        self.maxpool = nn.MaxPool3d(kernel_size=2)
        self.global_avg_pool = nn.AdaptiveAvgPool3d((1, 1, 1))

    def forward(self, x):
        x = self.conv_transpose(x)
        x = x * self.scale
        x = self.maxpool(x)
        x = self.global_avg_pool(x)
        return torch.clamp(x, min=0.0, max=1.0)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv_transpose.weight", "conv_bias": "conv_transpose.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 3, 16, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
