"""level2/5 (ConvTranspose2d + subtract + tanh), as KernelBench structures a problem:
tanh(conv_transpose2d(x) - bias) with a 4x4 kernel, stride 2, padding 1, output_padding 1, bias
[CO, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(CI, CO, kernel_size=4, stride=2, padding=1, output_padding=1)
        self.bias = nn.Parameter(torch.randn(CO, 1, 1))

    def forward(self, x):
        x = self.conv_transpose(x)
        return torch.tanh(x - self.bias)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "bias": "bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 32, 64, 64, 256, 256


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
