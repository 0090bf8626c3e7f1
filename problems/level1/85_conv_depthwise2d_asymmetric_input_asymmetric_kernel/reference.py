"""level1/85 (Depthwise Conv2d, asymmetric input, asymmetric kernel), as KernelBench structures a problem:
depthwise Conv2d(C->C, k=(3, 7), s=1, p=0, groups C, no bias) over [B, C, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.conv2d = nn.Conv2d(C, C, kernel_size=(3, 7), stride=1, padding=0, dilation=1, groups=C, bias=False)

    def forward(self, x):
        return self.conv2d(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv2d.weight"}

# The full size (spec.yaml's sizes.full).
B, C, H, W = 32, 128, 128, 256


def get_inputs():
    return [torch.rand(B, C, H, W)]


def get_init_inputs():
    return [C]
