"""level2/42 (ConvTranspose2d + global average pool + bias add + logsumexp + sum + multiply), as
KernelBench structures a problem: 10 * sum over (2, 3) of logsumexp over channels (keepdim) of
(mean over (2, 3) (keepdim) of conv_transpose2d(x) + bias); 3x3 kernel, stride 1; bias [CO, 1, 1]
-> [B, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(CI, CO, kernel_size=3)
        self.bias = nn.Parameter(torch.randn(CO, 1, 1))

    def forward(self, x):
        x = self.conv_transpose(x)
        x = torch.mean(x, dim=(2, 3), keepdim=True)
        x = x + self.bias
        x = torch.logsumexp(x, dim=1, keepdim=True)
        x = torch.sum(x, dim=(2, 3))
        return x * 10.0


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "bias": "bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 16, 64, 128, 512, 512


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
