"""level2/59 (Matmul + Swish + scaling), as KernelBench structures a problem: z = linear(x); z *
sigmoid(z) * 2.0."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.matmul = nn.Linear(IN, OUT)
        self.scaling_factor = 2.0

    def forward(self, x):
        x = self.matmul(x)
        x = x * torch.sigmoid(x)
        return x * self.scaling_factor


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "matmul.weight", "bias": "matmul.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 128, 32768, 32768


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
