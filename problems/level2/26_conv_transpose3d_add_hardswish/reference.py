"""level2/26 (ConvTranspose3d + add + HardSwish), as KernelBench structures a problem: y =
conv_transpose3d(x) (3x3x3, stride 2, padding 1, output_padding 1) + add_input; y * hardswish(y)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=1)

    def forward(self, x, add_input):
        x = self.conv_transpose(x)
        x = x + add_input
        return x * F.hardswish(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv_transpose.weight", "conv_bias": "conv_transpose.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 32, 64, 16, 16, 16


def get_inputs():
    return [torch.randn(B, CI, D, H, W), torch.randn(B, CO, 2*D, 2*H, 2*W)]


def get_init_inputs():
    return [CI, CO]
