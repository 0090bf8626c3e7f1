"""level3/9 (ResNet18), as KernelBench structures a problem: 7x7 stride-2 conv -> BN -> ReLU -> 3x3
stride-2 max pool, four stages of two BasicBlocks (64, 128, 256, 512; the first block of stages
2-4 has stride 2 and a 1x1 conv + BN downsample), global average pooling, Linear(512 -> NC);
convs without bias, BatchNorm2d with batch statistics."""
import torch
import torch.nn as nn


class BasicBlock(nn.Module):
    def __init__(self, ci, co, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(ci, co, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(co)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(co, co, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(co)
        self.downsample = None
        if stride != 1 or ci != co:
            self.downsample = nn.Sequential(
                nn.Conv2d(ci, co, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(co),
            )

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


class Model(nn.Module):
    def __init__(self, NC):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = nn.Sequential(BasicBlock(64, 64, 1), BasicBlock(64, 64, 1))
        self.layer2 = nn.Sequential(BasicBlock(64, 128, 2), BasicBlock(128, 128, 1))
        self.layer3 = nn.Sequential(BasicBlock(128, 256, 2), BasicBlock(256, 256, 1))
        self.layer4 = nn.Sequential(BasicBlock(256, 512, 2), BasicBlock(512, 512, 1))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512, NC)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = torch.flatten(self.avgpool(x), 1)
        return self.fc(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, W, NC = 2, 224, 224, 1000


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return [NC]
