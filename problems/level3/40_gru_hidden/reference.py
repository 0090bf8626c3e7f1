"""level3/40 (GRUHidden), as KernelBench structures a problem: a 6-layer GRU (time-major, no
dropout) from the input h0, returning h_n [6, B, H]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, IN, H):
        super().__init__()
        self.gru = nn.GRU(IN, H, num_layers=6, bias=True, batch_first=False, dropout=0.0, bidirectional=False)

    def forward(self, x, h0):
        y, h_n = self.gru(x, h0)
        return h_n


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
T, B, IN, H = 512, 10, 128, 256


def get_inputs():
    return [torch.rand(T, B, IN), torch.rand(6, B, H)]


def get_init_inputs():
    return [IN, H]
