"""level1/75 (ConvTranspose2d, asymmetric input and kernel, strided, grouped, padded, dilated), as
KernelBench structures a problem: ConvTranspose2d(CI->CO, k=(3, 5), s=(2, 3), p=(1, 2), dilation (2, 1),
groups 4, no bias)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose2d = nn.ConvTranspose2d(CI, CO, kernel_size=(3, 5), stride=(2, 3), padding=(1, 2), output_padding=(0, 0), dilation=(2, 1), groups=4, bias=False)

    def forward(self, x):
        return self.conv_transpose2d(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv_transpose2d.weight"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 16, 32, 64, 128, 256


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
