"""level2/72 (ConvTranspose3d + BatchNorm3d + AvgPool3d + AvgPool3d), as KernelBench structures a
problem: avg_pool3d(avg_pool3d(BatchNorm3d(conv_transpose3d(x)), 2), 2), 3x3x3 kernel, stride 2,
padding 1; batch statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1)
        self.batch_norm = nn.BatchNorm3d(CO, eps=1e-5, momentum=0.1)
        self.avg_pool1 = nn.AvgPool3d(kernel_size=2)
        self.avg_pool2 = nn.AvgPool3d(kernel_size=2)

    def forward(self, x):
        x = self.conv_transpose(x)
        x = self.batch_norm(x)
        x = self.avg_pool1(x)
        return self.avg_pool2(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "bn_weight": "batch_norm.weight",
    "bn_bias": "batch_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 64, 3, 16, 32, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
