"""level2/36 (ConvTranspose2d + channel min + height sum + GELU + bias add), as KernelBench structures
a problem: gelu(sum over height (keepdim) of min over channels (keepdim) of conv_transpose2d(x)) +
bias; 3x3 kernel, stride 2, padding 1, output_padding 1, bias [1, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.bias = nn.Parameter(torch.randn(1, 1, 1))

    def forward(self, x):
        x = self.conv_transpose(x)
        x = torch.min(x, dim=1, keepdim=True)[0]
        x = torch.sum(x, dim=2, keepdim=True)
        x = F.gelu(x)
        return x + self.bias


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "bias": "bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 16, 64, 128, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
