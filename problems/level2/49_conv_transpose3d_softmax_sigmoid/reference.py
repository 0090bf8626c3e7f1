"""level2/49 (ConvTranspose3d + Softmax + Sigmoid), as KernelBench structures a problem:
sigmoid(softmax over channels of conv_transpose3d(x)); 3x3x3 kernel, stride 2, padding 1,
output_padding 1."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.softmax = nn.Softmax(dim=1)
        self.sigmoid = nn.Sigmoid()

    def forward(self, x):
        x = self.conv_transpose(x)
        x = self.softmax(x)
        return self.sigmoid(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv_transpose.weight", "conv_bias": "conv_transpose.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 16, 32, 64, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
