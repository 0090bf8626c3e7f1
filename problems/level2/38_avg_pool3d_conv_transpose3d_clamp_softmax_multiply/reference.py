"""level2/38 (AvgPool3d + ConvTranspose3d + clamp + spatial softmax + multiply), as KernelBench
structures a problem: softmax over D*H*W of clamp(conv_transpose3d(avg_pool3d(x, 2)), 0, 1) * scale
[1, CO, 1, 1, 1]; ConvTranspose3d 3x3x3, stride 2, padding 1, output_padding 1."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.avg_pool = nn.AvgPool3d(kernel_size=2)
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.clamp_min = 0.0
        self.clamp_max = 1.0
        self.scale = nn.Parameter(torch.ones(1, CO, 1, 1, 1))

    def forward(self, x):
        x = self.avg_pool(x)
        x = self.conv_transpose(x)
        x = torch.clamp(x, self.clamp_min, self.clamp_max)
        b, c, d, h, w = x.shape
        x = torch.softmax(x.view(b, c, -1), dim=2).view(b, c, d, h, w)
        return x * self.scale


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "scale": "scale",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 32, 32, 64, 32, 64, 64


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
