"""level1/61 (ConvTranspose3d, square input, square kernel), as KernelBench structures a problem:
ConvTranspose3d(CI->CO, k=3, s=1, p=0, no bias) over [B, CI, D, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose3d = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=1, padding=0, output_padding=0, dilation=1, groups=1, bias=False)

    def forward(self, x):
        return self.conv_transpose3d(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv_transpose3d.weight"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 8, 48, 48, 64, 64, 64


def get_inputs():
    return [torch.rand(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
