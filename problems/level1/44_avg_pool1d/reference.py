"""level1/44 (AvgPool1d), as KernelBench structures a problem: AvgPool1d(kernel 8, stride 1, padding 4,
count_include_pad) over [B, C, L]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.avg_pool = nn.AvgPool1d(kernel_size=8, stride=1, padding=4, ceil_mode=False, count_include_pad=True)

    def forward(self, x):
        return self.avg_pool(x)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, C, L = 64, 128, 65536


def get_inputs():
    return [torch.rand(B, C, L)]


def get_init_inputs():
    return []
