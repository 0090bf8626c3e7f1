"""level2/56 (Matmul + Sigmoid + Sum), as KernelBench structures a problem: sum over dim 1 (keepdim)
of sigmoid(linear(x)) -> [B, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, HID):
        super().__init__()
        self.linear = nn.Linear(IN, HID)

    def forward(self, x):
        x = self.linear(x)
        x = torch.sigmoid(x)
        return torch.sum(x, dim=1, keepdim=True)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "linear.weight", "bias": "linear.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, HID = 128, 32768, 32768


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, HID]
