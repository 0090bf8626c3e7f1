"""level1/79 (ConvTranspose1d, padded, strided, dilated), as KernelBench structures a problem:
ConvTranspose1d(CI->CO, k=3, s=2, p=1, dilation 2, no bias) over [B, CI, L]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv1d_transpose = nn.ConvTranspose1d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=0, dilation=2, groups=1, bias=False)

    def forward(self, x):
        return self.conv1d_transpose(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv1d_transpose.weight"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, L = 16, 32, 64, 131072


def get_inputs():
    return [torch.rand(B, CI, L)]


def get_init_inputs():
    return [CI, CO]
