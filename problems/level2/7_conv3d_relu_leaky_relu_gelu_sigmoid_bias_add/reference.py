"""level2/7 (Conv3d + ReLU + LeakyReLU + GELU + sigmoid + bias add), as KernelBench structures a
problem: sigmoid(gelu(leaky_relu(relu(conv3d(x)), 0.01))) + bias, 3x3x3 kernel, exact GELU, bias
[CO, 1, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv3d(CI, CO, kernel_size=3)
        self.bias = nn.Parameter(torch.randn(CO, 1, 1, 1))

    def forward(self, x):
        x = self.conv(x)
        x = torch.relu(x)
        x = F.leaky_relu(x, negative_slope=0.01)
        x = F.gelu(x)
        x = torch.sigmoid(x)
        return x + self.bias


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias", "bias": "bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 64, 8, 32, 32, 64, 64


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
