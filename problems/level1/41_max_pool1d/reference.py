"""level1/41 (MaxPool1d (dilated)), as KernelBench structures a problem: MaxPool1d(kernel 8, stride 1,
padding 4, dilation 3) over [B, C, L]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.maxpool = nn.MaxPool1d(kernel_size=8, stride=1, padding=4, dilation=3, return_indices=False, ceil_mode=False)

    def forward(self, x):
        return self.maxpool(x)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, C, L = 64, 192, 65536


def get_inputs():
    return [torch.randn(B, C, L)]


def get_init_inputs():
    return []
