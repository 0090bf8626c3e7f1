"""level1/80 (Conv2d, square input, asymmetric kernel, dilated and padded), as KernelBench structures a
problem: Conv2d(CI->CO, k=(5, 9), s=1, p=(2, 4), dilation (2, 3), no bias) over [B, CI, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv2d = nn.Conv2d(CI, CO, kernel_size=(5, 9), stride=1, padding=(2, 4), dilation=(2, 3), groups=1, bias=False)

    def forward(self, x):
        return self.conv2d(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv2d.weight"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 8, 32, 64, 512, 512


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
