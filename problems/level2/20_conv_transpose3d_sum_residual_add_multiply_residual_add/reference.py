"""level2/20 (ConvTranspose3d + sum + residual add + multiply + residual add), as KernelBench
structures a problem: r = conv_transpose3d(x) (3x3x3, stride 2, padding 1, output_padding 1); ((r +
bias) + r) * r + r, bias [CO, 1, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.bias = nn.Parameter(torch.randn(CO, 1, 1, 1))

    def forward(self, x):
        x = self.conv_transpose(x)
        original_x = x.clone().detach()
        x = x + self.bias
        x = x + original_x
        x = x * original_x
        return x + original_x


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "bias": "bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 16, 32, 64, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
