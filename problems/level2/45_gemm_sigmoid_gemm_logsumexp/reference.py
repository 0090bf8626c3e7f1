"""level2/45 (Gemm + Sigmoid + Gemm + LogSumExp), as KernelBench structures a problem: logsumexp over
dim 1 of linear2(sigmoid(linear1(x))) -> [B]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, HID, OUT):
        super().__init__()
        self.linear1 = nn.Linear(IN, HID)
        self.linear2 = nn.Linear(HID, OUT)

    def forward(self, x):
        x = self.linear1(x)
        x = torch.sigmoid(x)
        x = self.linear2(x)
        return torch.logsumexp(x, dim=1)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "w1": "linear1.weight",
    "b1": "linear1.bias",
    "w2": "linear2.weight",
    "b2": "linear2.bias",
}

# The full size (spec.yaml's sizes.full).
B, IN, HID, OUT = 16384, 2048, 4096, 1024


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, HID, OUT]
