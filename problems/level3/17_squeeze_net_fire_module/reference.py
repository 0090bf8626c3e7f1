"""level3/17 (SqueezeNetFireModule), as KernelBench structures a problem: squeeze 1x1 conv + ReLU,
then 1x1 and 3x3 (padding 1) expand convs, each + ReLU, concatenated on channels."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CS, CE1, CE3):
        super().__init__()
        self.squeeze = nn.Conv2d(CI, CS, kernel_size=1)
        self.expand1x1 = nn.Conv2d(CS, CE1, kernel_size=1)
        self.expand3x3 = nn.Conv2d(CS, CE3, kernel_size=3, padding=1)

    def forward(self, x):
        s = F.relu(self.squeeze(x))
        return torch.cat([F.relu(self.expand1x1(s)), F.relu(self.expand3x3(s))], dim=1)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, CI, CS, CE1, CE3, H, W = 128, 3, 6, 64, 64, 256, 256


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, CS, CE1, CE3]
