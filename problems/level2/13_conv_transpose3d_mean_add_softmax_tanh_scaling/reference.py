"""level2/13 (ConvTranspose3d + mean + add + softmax + tanh + scaling), as KernelBench structures a
problem: conv_transpose3d (3x3x3, stride 1, padding 1), mean over depth (keepdim), + bias [1, CO,
1, 1, 1], softmax over channels, tanh, * 2.0."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=1, padding=1)
        self.bias = nn.Parameter(torch.randn(1, CO, 1, 1, 1))
        self.scaling_factor = 2.0

    def forward(self, x):
        x = self.conv_transpose(x)
        x = x.mean(dim=2, keepdim=True)
        x = x + self.bias
        x = torch.softmax(x, dim=1)
        x = torch.tanh(x)
        return x * self.scaling_factor


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "bias": "bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 16, 16, 64, 32, 128, 128


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
