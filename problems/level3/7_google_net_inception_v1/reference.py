"""level3/7 (GoogleNetInceptionV1), as KernelBench structures a problem: 7x7 stride-2 conv -> ReLU
-> max pool -> 1x1 conv -> ReLU -> 3x3 conv -> ReLU -> max pool, inception stages 3 (2 modules), 4
(5) and 5 (2) with 3x3 stride-2 max pools between, global average pooling, Linear(1024 -> NC).
Inception modules have no activations; every max pool is 3x3 with padding 1; Dropout p = 0."""
import torch
import torch.nn as nn
import torch.nn.functional as F

# (ci, c1, r3, c3, r5, c5, cp) of each module, stage by stage.
STAGE3 = [(192, 64, 96, 128, 16, 32, 32), (256, 128, 128, 192, 32, 96, 64)]
STAGE4 = [(480, 192, 96, 208, 16, 48, 64), (512, 160, 112, 224, 24, 64, 64),
          (512, 128, 128, 256, 24, 64, 64), (512, 112, 144, 288, 32, 64, 64),
          (528, 256, 160, 320, 32, 128, 128)]
STAGE5 = [(832, 256, 160, 320, 32, 128, 128), (832, 384, 192, 384, 48, 128, 128)]


class InceptionModule(nn.Module):
    def __init__(self, ci, c1, r3, c3, r5, c5, cp):
        super().__init__()
        self.branch1x1 = nn.Conv2d(ci, c1, kernel_size=1)
        self.branch3x3 = nn.Sequential(nn.Conv2d(ci, r3, kernel_size=1), nn.Conv2d(r3, c3, kernel_size=3, padding=1))
        self.branch5x5 = nn.Sequential(nn.Conv2d(ci, r5, kernel_size=1), nn.Conv2d(r5, c5, kernel_size=5, padding=2))
        self.branch_pool = nn.Sequential(nn.MaxPool2d(kernel_size=3, stride=1, padding=1), nn.Conv2d(ci, cp, kernel_size=1))

    def forward(self, x):
        return torch.cat([self.branch1x1(x), self.branch3x3(x), self.branch5x5(x), self.branch_pool(x)], 1)


class Model(nn.Module):
    def __init__(self, NC):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3)
        self.maxpool1 = nn.MaxPool2d(3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(64, 64, kernel_size=1)
        self.conv3 = nn.Conv2d(64, 192, kernel_size=3, padding=1)
        self.maxpool2 = nn.MaxPool2d(3, stride=2, padding=1)
        self.inception3 = nn.Sequential(*[InceptionModule(*m) for m in STAGE3])
        self.maxpool3 = nn.MaxPool2d(3, stride=2, padding=1)
        self.inception4 = nn.Sequential(*[InceptionModule(*m) for m in STAGE4])
        self.maxpool4 = nn.MaxPool2d(3, stride=2, padding=1)
        self.inception5 = nn.Sequential(*[InceptionModule(*m) for m in STAGE5])
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(0.0)
        self.fc = nn.Linear(1024, NC)

    def forward(self, x):
        x = self.maxpool1(F.relu(self.conv1(x)))
        x = F.relu(self.conv2(x))
        x = self.maxpool2(F.relu(self.conv3(x)))
        x = self.inception3(x)
        x = self.inception4(self.maxpool3(x))
        x = self.inception5(self.maxpool4(x))
        x = torch.flatten(self.avgpool(x), 1)
        return self.fc(self.dropout(x))


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, W, NC = 10, 224, 224, 1000


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return [NC]
