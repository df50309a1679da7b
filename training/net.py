"""The policy/value network of checkerbot's models (encoding version 1, see models/README.md).

A small residual tower in the style of AlphaZero and of the reference robot (which used 6
residual blocks of 75 filters on 8x8): a 3x3 convolution stem, `blocks` residual blocks of two
3x3 convolutions with batch norm, a policy head (1x1 convolution to 4 planes, then a linear
layer to one logit per policy index) and a value head (1x1 convolution to 2 planes, a hidden
layer of 64, one logit). `forward` returns the value as a logit so that training can use a
numerically stable binary cross-entropy; the exported model applies the sigmoid (see export.py).
"""

import torch
from torch import nn

PLANES = 5

# The board's side for each variant the engine knows (`engine::Variant`); the others are 8x8.
SIDES = {"international": 10, "canadian": 12}


def board_side(variant: str) -> int:
    return SIDES.get(variant, 8)


def policy_size(side: int) -> int:
    """Ordered pairs of dark squares on a common diagonal: 280, 570, 1012 (models/README.md)."""
    pairs = 0
    for row in range(side):
        for col in range(side):
            if (row + col) % 2:
                continue
            for dr, dc in ((1, -1), (1, 1), (-1, -1), (-1, 1)):
                k = 1
                while 0 <= row + dr * k < side and 0 <= col + dc * k < side:
                    pairs += 1
                    k += 1
    return pairs


class Residual(nn.Module):
    def __init__(self, filters: int):
        super().__init__()
        self.conv1 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(filters)
        self.conv2 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(filters)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(x + y)


class Net(nn.Module):
    def __init__(self, blocks: int, filters: int, side: int = 8, policy: int = 280):
        super().__init__()
        self.config = {"arch": "resnet", "blocks": blocks, "filters": filters, "side": side, "policy": policy}
        self.stem = nn.Sequential(
            nn.Conv2d(PLANES, filters, 3, padding=1, bias=False),
            nn.BatchNorm2d(filters),
            nn.ReLU(),
        )
        self.tower = nn.Sequential(*[Residual(filters) for _ in range(blocks)])
        self.policy_conv = nn.Sequential(
            nn.Conv2d(filters, 4, 1, bias=False), nn.BatchNorm2d(4), nn.ReLU()
        )
        self.policy_fc = nn.Linear(4 * side * side, policy)
        self.value_conv = nn.Sequential(
            nn.Conv2d(filters, 2, 1, bias=False), nn.BatchNorm2d(2), nn.ReLU()
        )
        self.value_fc = nn.Sequential(
            nn.Linear(2 * side * side, 64), nn.ReLU(), nn.Linear(64, 1)
        )

    def forward(self, x):
        """Policy logits [batch, P] and value logit [batch, 1]."""
        x = self.tower(self.stem(x))
        policy = self.policy_fc(self.policy_conv(x).flatten(1))
        value = self.value_fc(self.value_conv(x).flatten(1))
        return policy, value


class Mlp(nn.Module):
    """A fully connected net over the 5 x side x side planes, flattened.

    On two shared CPU cores a convolution over an 8x8 board costs far more than its size
    suggests, while the board has only 32 playable squares: a multilayer perceptron of the same
    parameter count trains about ten times faster here and runs faster in ONNX Runtime, which
    buys MCTS playouts. The input layout is the same (light squares are always zero).
    """

    def __init__(self, hidden: int, layers: int = 3, side: int = 8, policy: int = 280):
        super().__init__()
        self.config = {"arch": "mlp", "hidden": hidden, "layers": layers, "side": side, "policy": policy}
        widths = [PLANES * side * side] + [hidden] * (layers - 1) + [hidden // 2]
        body = []
        for a, b in zip(widths, widths[1:]):
            body += [nn.Linear(a, b), nn.ReLU()]
        self.body = nn.Sequential(*body)
        self.policy = nn.Linear(widths[-1], policy)
        self.value = nn.Sequential(nn.Linear(widths[-1], 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        h = self.body(x.flatten(1))
        return self.policy(h), self.value(h)


def build(config: dict) -> nn.Module:
    """The network a checkpoint's `config` describes."""
    if config.get("arch") == "mlp":
        return Mlp(config["hidden"], config["layers"], config["side"], config["policy"])
    return Net(config["blocks"], config["filters"], config["side"], config["policy"])


class Exported(nn.Module):
    """The model as ONNX Runtime sees it: outputs `policy` (logits) and `value` (0..1)."""

    def __init__(self, net: nn.Module):
        super().__init__()
        self.net = net

    def forward(self, planes):
        policy, value = self.net(planes)
        return policy, torch.sigmoid(value)
