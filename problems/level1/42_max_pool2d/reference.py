"""level1/42 (MaxPool2d), as KernelBench structures a problem: MaxPool2d(kernel 4, stride 1, padding 1,
dilation 1) over [B, C, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.maxpool = nn.MaxPool2d(kernel_size=4, stride=1, padding=1, dilation=1)

    def forward(self, x):
        return self.maxpool(x)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, C, H, W = 32, 64, 512, 512


def get_inputs():
    return [torch.randn(B, C, H, W)]


def get_init_inputs():
    return []
