"""level2/34 (ConvTranspose3d + LayerNorm + GELU + scaling), as KernelBench structures a problem:
gelu(layer_norm(conv_transpose3d(x))) * 1.0, ConvTranspose3d 4x4x4, stride 2, padding 1;
LayerNorm(CO) over the last dim (width 2W = CO), exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=4, stride=2, padding=1)
        self.layer_norm = nn.LayerNorm(CO, eps=1e-5)
        self.scaling_factor = 1.0

    def forward(self, x):
        x = self.conv_transpose(x)
        x = self.layer_norm(x)
        x = F.gelu(x)
        return x * self.scaling_factor


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "ln_weight": "layer_norm.weight",
    "ln_bias": "layer_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 32, 32, 64, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
