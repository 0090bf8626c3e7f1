"""level3/33 (VanillaRNN), as KernelBench structures a problem: one step of an Elman RNN,
hidden = tanh(i2h([x, initial_hidden])), output = h2o(hidden); the initial hidden state is an input."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, IN, H, OUT):
        super().__init__()
        self.i2h = nn.Linear(IN + H, H)
        self.h2o = nn.Linear(H, OUT)

    def forward(self, x, initial_hidden):
        hidden = torch.tanh(self.i2h(torch.cat((x, initial_hidden), dim=1)))
        return self.h2o(hidden)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, IN, H, OUT = 256, 16384, 16384, 8192


def get_inputs():
    return [torch.rand(B, IN), torch.rand(B, H)]


def get_init_inputs():
    return [IN, H, OUT]
