"""level1/78 (ConvTranspose2d, asymmetric input, asymmetric kernel, padded), as KernelBench structures a
problem: ConvTranspose2d(CI->CO, k=(3, 7), s=1, p=(1, 3), no bias) over [B, CI, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose2d = nn.ConvTranspose2d(CI, CO, kernel_size=(3, 7), stride=(1, 1), padding=(1, 3), output_padding=0, dilation=1, groups=1, bias=False)

    def forward(self, x):
        return self.conv_transpose2d(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv_transpose2d.weight"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 8, 32, 32, 512, 1024


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
