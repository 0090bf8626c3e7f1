"""level2/3 (ConvTranspose3d + sum + LayerNorm + AvgPool + GELU), as KernelBench structures a problem:
conv_transpose3d (3x3x3, stride 2, padding 1, output_padding 1) + sum_weight, LayerNorm over the
last dim (2W), AvgPool3d(2), exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO, W):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.sum_weight = nn.Parameter(torch.tensor(1.0))
        self.norm = nn.LayerNorm(2 * W, eps=1e-5)
        self.avg_pool = nn.AvgPool3d(kernel_size=2)
        self.gelu = nn.GELU()

    def forward(self, x):
        x = self.conv_transpose(x)
        x = x + self.sum_weight
        x = self.norm(x)
        x = self.avg_pool(x)
        return self.gelu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "sum_weight": "sum_weight",
    "norm_weight": "norm.weight",
    "norm_bias": "norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 32, 32, 64, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO, W]
