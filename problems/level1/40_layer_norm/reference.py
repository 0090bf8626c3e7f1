"""level1/40 (LayerNorm), as KernelBench structures a problem: LayerNorm over the last three dims [C, H, W]
(eps 1e-5) of [B, C, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, C, H, W):
        super().__init__()
        self.ln = nn.LayerNorm((C, H, W), eps=1e-5)

    def forward(self, x):
        return self.ln(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "ln.weight", "bias": "ln.bias"}

# The full size (spec.yaml's sizes.full).
B, C, H, W = 16, 64, 256, 256


def get_inputs():
    return [torch.randn(B, C, H, W) * 2 + 1]


def get_init_inputs():
    return [C, H, W]
