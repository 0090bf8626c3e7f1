"""level2/44 (ConvTranspose2d + multiply + global average pool + mean), as KernelBench structures a
problem: mean over (2, 3) (keepdim), twice, of conv_transpose2d(x) * 0.5; 3x3 kernel, stride 2,
padding 1, output_padding 1 -> [B, CO, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.multiplier = 0.5

    def forward(self, x):
        x = self.conv_transpose(x)
        x = x * self.multiplier
        x = torch.mean(x, dim=[2, 3], keepdim=True)
        return torch.mean(x, dim=[2, 3], keepdim=True)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv_transpose.weight", "conv_bias": "conv_transpose.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 16, 64, 128, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
