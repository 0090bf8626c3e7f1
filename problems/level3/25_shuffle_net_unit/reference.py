"""level3/25 (ShuffleNetUnit), as KernelBench structures a problem: grouped 1x1 conv (3 groups) ->
BN -> ReLU, 3x3 depthwise conv (padding 1) -> BN, channel shuffle (3 groups), grouped 1x1 conv ->
BN -> ReLU, plus a 1x1 conv + BN shortcut of x; convs without bias, BatchNorm2d with batch statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

GROUPS = 3


class ChannelShuffle(nn.Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, x):
        b, c, h, w = x.size()
        return x.view(b, self.groups, c // self.groups, h, w).transpose(1, 2).contiguous().view(b, c, h, w)


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        mid = CO // 4
        self.conv1 = nn.Conv2d(CI, mid, kernel_size=1, stride=1, padding=0, groups=GROUPS, bias=False)
        self.bn1 = nn.BatchNorm2d(mid)
        self.conv2 = nn.Conv2d(mid, mid, kernel_size=3, stride=1, padding=1, groups=mid, bias=False)
        self.bn2 = nn.BatchNorm2d(mid)
        self.conv3 = nn.Conv2d(mid, CO, kernel_size=1, stride=1, padding=0, groups=GROUPS, bias=False)
        self.bn3 = nn.BatchNorm2d(CO)
        self.shuffle = ChannelShuffle(GROUPS)
        self.shortcut = nn.Sequential(
            nn.Conv2d(CI, CO, kernel_size=1, stride=1, padding=0, bias=False),
            nn.BatchNorm2d(CO),
        )

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = self.shuffle(out)
        out = F.relu(self.bn3(self.conv3(out)))
        return out + self.shortcut(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 10, 240, 480, 224, 224


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
