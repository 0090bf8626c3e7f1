"""level2/14 (Gemm + divide + sum + scaling), as KernelBench structures a problem: sum(x @ weight^T /
2, dim 1, keepdim) * 1.5 with a raw [HID, IN] weight and no bias."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, HID):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(HID, IN))
        self.scaling_factor = 1.5

    def forward(self, x):
        x = torch.matmul(x, self.weight.T)
        x = x / 2
        x = torch.sum(x, dim=1, keepdim=True)
        return x * self.scaling_factor


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "weight"}

# The full size (spec.yaml's sizes.full).
B, IN, HID = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, HID]
