"""level2/74 (ConvTranspose3d + LeakyReLU + multiply + LeakyReLU + MaxPool3d), as KernelBench
structures a problem: max_pool3d(leaky_relu(leaky_relu(conv_transpose3d(x), 0.2) * multiplier,
0.2), 2); 3x3x3 kernel, stride 2, padding 1, output_padding 1; multiplier [CO, 1, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.multiplier = nn.Parameter(torch.randn(CO, 1, 1, 1))
        self.leaky_relu = nn.LeakyReLU(negative_slope=0.2)
        self.max_pool = nn.MaxPool3d(kernel_size=2)

    def forward(self, x):
        x = self.conv_transpose(x)
        x = self.leaky_relu(x)
        x = x * self.multiplier
        x = self.leaky_relu(x)
        return self.max_pool(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "multiplier": "multiplier",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 16, 16, 32, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
