"""level2/68 (Gemm + min + subtract), as KernelBench structures a problem: z = linear(x); minimum(z,
constant) - constant, constant a 0-dim parameter."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.linear = nn.Linear(IN, OUT)
        self.constant = nn.Parameter(torch.tensor(2.0))

    def forward(self, x):
        x = self.linear(x)
        x = torch.min(x, self.constant)
        return x - self.constant


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "linear.weight", "bias": "linear.bias", "constant": "constant"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 128, 16384, 16384


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
