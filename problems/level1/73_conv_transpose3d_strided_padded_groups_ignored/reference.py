"""level1/73 (ConvTranspose3d, asymmetric input, square kernel, strided, padded ("grouped" in name only)),
as KernelBench structures a problem: ConvTranspose3d(CI->CO, k=3, s=2, p=1, no bias); groups 1 and
output_padding 0, as KernelBench's layer really gets."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose3d = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=0, dilation=1, groups=1, bias=False)

    def forward(self, x):
        return self.conv_transpose3d(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv_transpose3d.weight"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 4, 32, 32, 32, 64, 128


def get_inputs():
    return [torch.rand(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
