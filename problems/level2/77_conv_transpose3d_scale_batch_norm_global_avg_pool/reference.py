"""level2/77 (ConvTranspose3d + scale + BatchNorm (training) + global average pool), as KernelBench
structures a problem: adaptive_avg_pool3d(BatchNorm3d(2.0 * conv_transpose3d(x)), 1); 5x5x5 kernel,
stride 1, no padding; batch statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=5)
        self.scale_factor = 2.0
        self.batch_norm = nn.BatchNorm3d(CO, eps=1e-5, momentum=0.1)
        self.global_avg_pool = nn.AdaptiveAvgPool3d((1, 1, 1))

    def forward(self, x):
        x = self.conv_transpose(x)
        x = x * self.scale_factor
        x = self.batch_norm(x)
        return self.global_avg_pool(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "bn_weight": "batch_norm.weight",
    "bn_bias": "batch_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 16, 64, 128, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
