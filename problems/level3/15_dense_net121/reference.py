"""level3/15 (DenseNet121), as KernelBench structures a problem: 7x7 stride-2 conv (3 -> C0) -> BN
-> ReLU -> 3x3 stride-2 max pool, four dense blocks of 6, 12, 24, 16 layers (BN -> ReLU -> 3x3 conv to
G, no bottleneck, each output concatenated to the layer's input), transitions (BN -> ReLU -> 1x1
conv halving the channels -> AvgPool2d(2, 2)) between blocks, then BN -> ReLU -> global average
pooling -> Linear(-> NC); convs without bias, BatchNorm2d with batch statistics, Dropout p = 0."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BLOCK_LAYERS = (6, 12, 24, 16)


class DenseBlock(nn.Module):
    def __init__(self, num_layers, num_features, growth_rate):
        super().__init__()
        self.layers = nn.ModuleList([
            nn.Sequential(
                nn.BatchNorm2d(num_features + i * growth_rate),
                nn.ReLU(inplace=True),
                nn.Conv2d(num_features + i * growth_rate, growth_rate, kernel_size=3, padding=1, bias=False),
                nn.Dropout(0.0),
            )
            for i in range(num_layers)
        ])

    def forward(self, x):
        features = [x]
        for layer in self.layers:
            features.append(layer(x))
            x = torch.cat(features, 1)
        return x


class TransitionLayer(nn.Module):
    def __init__(self, ci, co):
        super().__init__()
        self.transition = nn.Sequential(
            nn.BatchNorm2d(ci),
            nn.ReLU(inplace=True),
            nn.Conv2d(ci, co, kernel_size=1, bias=False),
            nn.AvgPool2d(kernel_size=2, stride=2),
        )

    def forward(self, x):
        return self.transition(x)


class Model(nn.Module):
    def __init__(self, C0, G, NC):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, C0, kernel_size=7, stride=2, padding=3, bias=False),
            nn.BatchNorm2d(C0),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
        )
        c = C0
        self.dense_blocks = nn.ModuleList()
        self.transition_layers = nn.ModuleList()
        for i, n in enumerate(BLOCK_LAYERS):
            self.dense_blocks.append(DenseBlock(n, c, G))
            c = c + n * G
            if i != len(BLOCK_LAYERS) - 1:
                self.transition_layers.append(TransitionLayer(c, c // 2))
                c = c // 2
        self.final_bn = nn.BatchNorm2d(c)
        self.classifier = nn.Linear(c, NC)

    def forward(self, x):
        x = self.features(x)
        for i, block in enumerate(self.dense_blocks):
            x = block(x)
            if i != len(self.dense_blocks) - 1:
                x = self.transition_layers[i](x)
        x = F.relu(self.final_bn(x), inplace=True)
        x = F.adaptive_avg_pool2d(x, (1, 1)).view(x.size(0), -1)
        return self.classifier(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, W, C0, G, NC = 10, 224, 224, 64, 32, 10


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return [C0, G, NC]
