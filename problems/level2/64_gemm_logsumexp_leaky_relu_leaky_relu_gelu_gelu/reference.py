"""level2/64 (Gemm + LogSumExp + LeakyReLU + LeakyReLU + GELU + GELU), as KernelBench structures a
problem: s = logsumexp(linear(x), dim 1, keepdim); leaky_relu(., 0.01) twice, exact GELU twice ->
[B, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.linear = nn.Linear(IN, OUT)

    def forward(self, x):
        x = self.linear(x)
        x = torch.logsumexp(x, dim=1, keepdim=True)
        x = F.leaky_relu(x, negative_slope=0.01)
        x = F.leaky_relu(x, negative_slope=0.01)
        x = F.gelu(x)
        return F.gelu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "linear.weight", "bias": "linear.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
