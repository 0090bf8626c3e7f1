"""level2/90 (Conv3d + LeakyReLU + sum + clamp + GELU), as KernelBench structures a problem:
gelu(clamp(leaky_relu(conv3d(x), 0.2) + sum_tensor, -1, 1)), 3x3x3 kernel, sum_tensor [CO, 1, 1,
1], exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv3d(CI, CO, kernel_size=3)
        self.sum_tensor = nn.Parameter(torch.randn(CO, 1, 1, 1))

    def forward(self, x):
        x = self.conv(x)
        x = F.leaky_relu(x, negative_slope=0.2)
        x = x + self.sum_tensor
        x = torch.clamp(x, min=-1.0, max=1.0)
        return F.gelu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias", "sum_tensor": "sum_tensor"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 8, 64, 16, 64, 64


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
