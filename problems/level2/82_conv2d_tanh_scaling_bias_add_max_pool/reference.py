"""level2/82 (Conv2d + Tanh + scaling + bias add + MaxPool2d), as KernelBench structures a problem:
max_pool2d(tanh(conv2d(x)) * 2.0 + bias, 4) with a 3x3 kernel, stride 1, no padding, bias [CO, 1,
1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)
        self.scaling_factor = 2.0
        self.bias = nn.Parameter(torch.randn(CO, 1, 1))
        self.max_pool = nn.MaxPool2d(kernel_size=4)

    def forward(self, x):
        x = self.conv(x)
        x = torch.tanh(x)
        x = x * self.scaling_factor
        x = x + self.bias
        return self.max_pool(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias", "bias": "bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 8, 64, 256, 256


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
