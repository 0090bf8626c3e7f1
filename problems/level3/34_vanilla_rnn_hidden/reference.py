"""level3/34 (VanillaRNNHidden), as KernelBench structures a problem: an Elman RNN over T steps,
hidden = tanh(i2h([x[t], hidden])), output[t] = h2o(hidden), starting from the input h0; returns
the stacked outputs [T, B, OUT]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, IN, H, OUT):
        super().__init__()
        self.i2h = nn.Linear(IN + H, H)
        self.h2o = nn.Linear(H, OUT)

    def forward(self, x, h0):
        hidden = h0
        outputs = []
        for t in range(x.size(0)):
            hidden = torch.tanh(self.i2h(torch.cat((x[t], hidden), dim=1)))
            outputs.append(self.h2o(hidden))
        return torch.stack(outputs, dim=0)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
T, B, IN, H, OUT = 256, 8, 1024, 256, 128


def get_inputs():
    return [torch.rand(T, B, IN), torch.rand(B, H)]


def get_init_inputs():
    return [IN, H, OUT]
