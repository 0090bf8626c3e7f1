"""level2/16 (ConvTranspose2d + Mish + add + Hardtanh + scaling), as KernelBench structures a problem:
hardtanh(mish(conv_transpose2d(x)) + 0.5, -1, 1) * 2 with a 3x3 kernel, stride 2, padding 1,
output_padding 1."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.add_value = 0.5
        self.scale = 2.0

    def forward(self, x):
        x = self.conv_transpose(x)
        x = F.mish(x)
        x = x + self.add_value
        x = F.hardtanh(x, min_val=-1.0, max_val=1.0)
        return x * self.scale


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv_transpose.weight", "conv_bias": "conv_transpose.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 64, 64, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
