"""level1/72 (ConvTranspose3d, asymmetric input and kernel, strided, padded, grouped), as KernelBench
structures a problem: ConvTranspose3d(CI->CO, k=(3, 5, 7), s=2, p=(1, 2, 3), output_padding 1, groups 4, no
bias)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose3d = nn.ConvTranspose3d(CI, CO, kernel_size=(3, 5, 7), stride=(2, 2, 2), padding=(1, 2, 3), output_padding=(1, 1, 1), dilation=1, groups=4, bias=False)

    def forward(self, x):
        return self.conv_transpose3d(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv_transpose3d.weight"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 8, 32, 32, 12, 24, 48


def get_inputs():
    return [torch.rand(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
