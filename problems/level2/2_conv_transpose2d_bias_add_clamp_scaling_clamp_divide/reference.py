"""level2/2 (ConvTranspose2d + bias add + clamp + scaling + clamp + divide), as KernelBench structures
a problem: clamp(clamp(conv_transpose2d(x) + bias, 0, 1) * 2, 0, 1) / 2 with a 3x3 kernel, stride
2, padding 1, output_padding 1, bias [CO, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.bias = nn.Parameter(torch.randn(CO, 1, 1))
        self.scaling_factor = 2.0

    def forward(self, x):
        x = self.conv_transpose(x)
        x = torch.clamp(x + self.bias, min=0.0, max=1.0)
        x = x * self.scaling_factor
        x = torch.clamp(x, min=0.0, max=1.0)
        return x / self.scaling_factor


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "bias": "bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 64, 64, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
