"""level2/93 (ConvTranspose2d + add + min + GELU + multiply), as KernelBench structures a problem:
gelu(minimum(conv_transpose2d(x) + 0.5, 0)) * 2.0; 4x4 kernel, stride 2, no padding; exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(CI, CO, kernel_size=4, stride=2)
        self.add_value = 0.5
        self.multiply_value = 2.0

    def forward(self, x):
        x = self.conv_transpose(x)
        x = x + self.add_value
        x = torch.minimum(x, torch.zeros((), dtype=x.dtype, device=x.device))
        x = F.gelu(x)
        return x * self.multiply_value


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv_transpose.weight", "conv_bias": "conv_transpose.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 64, 128, 64, 64


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
