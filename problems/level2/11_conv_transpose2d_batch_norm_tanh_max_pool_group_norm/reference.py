"""level2/11 (ConvTranspose2d + BatchNorm + tanh + MaxPool + GroupNorm), as KernelBench structures a
problem: conv_transpose2d (5x5, stride 1, padding 1), BatchNorm2d (batch statistics), tanh,
MaxPool2d(2, 2), GroupNorm(8 groups)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(CI, CO, kernel_size=5, stride=1, padding=1)
        self.batch_norm = nn.BatchNorm2d(CO, eps=1e-5, momentum=0.1)
        self.tanh = nn.Tanh()
        self.max_pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.group_norm = nn.GroupNorm(num_groups=8, num_channels=CO, eps=1e-5)

    def forward(self, x):
        x = self.conv_transpose(x)
        x = self.batch_norm(x)
        x = self.tanh(x)
        x = self.max_pool(x)
        return self.group_norm(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "bn_weight": "batch_norm.weight",
    "bn_bias": "batch_norm.bias",
    "gn_weight": "group_norm.weight",
    "gn_bias": "group_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 512, 64, 128, 32, 32


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
