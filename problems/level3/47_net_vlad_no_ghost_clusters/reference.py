"""level3/47 (NetVladWithNoGhostClusters), as KernelBench structures a problem: NetVLAD with K
clusters: assignment = softmax(BatchNorm1d(x @ clusters)) (batch statistics), residuals
against clusters2 aggregated per cluster, intra-normalized over D, flattened and L2-normalized."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, D, K):
        super().__init__()
        self.cluster_size = K
        self.feature_size = D
        clusters = K
        self.clusters = nn.Parameter(torch.randn(D, clusters) / D ** 0.5)
        self.batch_norm = nn.BatchNorm1d(clusters)
        self.clusters2 = nn.Parameter(torch.randn(1, D, K) / D ** 0.5)

    def forward(self, x):
        N, D, K = x.size(1), self.feature_size, self.cluster_size
        assignment = torch.matmul(x.view(-1, D), self.clusters)  # [B*N, clusters]
        assignment = self.batch_norm(assignment)
        assignment = F.softmax(assignment, dim=1)
        assignment = assignment.view(-1, N, K)  # [B, N, K]
        a = assignment.sum(dim=1, keepdim=True) * self.clusters2  # [B, D, K]
        vlad = torch.matmul(assignment.transpose(1, 2), x)  # [B, K, D]
        vlad = vlad.transpose(1, 2) - a  # [B, D, K]
        vlad = F.normalize(vlad)  # over D
        vlad = vlad.reshape(-1, D * K)
        return F.normalize(vlad)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, N, D, K = 2048, 100, 512, 32


def get_inputs():
    return [torch.rand(B, N, D)]


def get_init_inputs():
    return [D, K]
