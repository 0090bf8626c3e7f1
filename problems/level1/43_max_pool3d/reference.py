"""level1/43 (MaxPool3d (dilated, strided)), as KernelBench structures a problem: MaxPool3d(kernel 3, stride
2, padding 1, dilation 3) over [B, C, D, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.maxpool = nn.MaxPool3d(kernel_size=3, stride=2, padding=1, dilation=3, return_indices=False, ceil_mode=False)

    def forward(self, x):
        return self.maxpool(x)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, C, D, H, W = 16, 32, 128, 128, 128


def get_inputs():
    return [torch.randn(B, C, D, H, W)]


def get_init_inputs():
    return []
