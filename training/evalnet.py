"""The learned evaluation for the alpha-beta search: a small NNUE-style network.

The search evaluates millions of positions a second, so this network is tiny and built so that
its first layer can be kept up to date as moves are made (see engine/evalnet in Rust):

- Each position is seen twice, from each player's seat (`features` [batch, 2, 4 * side * side]:
  row 0 the side to move's view, row 1 the opponent's), with the planes 0-3 of
  `network::encoding` (own men, own kings, opponent's men, opponent's kings; the board turned
  for Black), flattened.
- The feature transformer `ft` (one weight matrix for both views) maps each view to `hidden`
  values, clipped to [0, 1]. A move changes a few features, so the search updates these sums
  instead of recomputing them.
- The two halves, side to move first, go through `l1` (clipped to [0, 1]) and `out`, which gives
  the side to move's winning chances as a logit.

The ONNX graph is written by hand (`to_onnx`) so that its initializers have fixed names and
layouts the Rust reader relies on: `ft.weight` [F, H], `ft.bias` [H], `l1.weight` [2H, L],
`l1.bias` [L], `out.weight` [L, 1], `out.bias` [1] (each already transposed for MatMul).
"""

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torch import nn

# Bumped when the graph's layout or the features' meaning changes; the Rust reader refuses
# other versions.
EVAL_VERSION = 1


def features_from_planes(planes4: np.ndarray) -> np.ndarray:
    """[n, 4, side, side] planes (side to move's view) -> [n, 2, 4 * side * side] features.

    The opponent's view turns the board by 180 degrees (cell index i -> cells - 1 - i) and swaps
    own and opponent's planes, exactly as `network::encoding` shows the board to the other side.
    """
    n, _, side, _ = planes4.shape
    cells = side * side
    own = planes4.reshape(n, 4, cells)
    other = own[:, [2, 3, 0, 1], ::-1]
    return np.stack([own.reshape(n, 4 * cells), other.reshape(n, 4 * cells)], axis=1)


class EvalNet(nn.Module):
    def __init__(self, side: int = 8, hidden: int = 32, inner: int = 16):
        super().__init__()
        self.config = {"arch": "evalnet", "side": side, "hidden": hidden, "inner": inner}
        self.ft = nn.Linear(4 * side * side, hidden)
        self.l1 = nn.Linear(2 * hidden, inner)
        self.out = nn.Linear(inner, 1)

    def forward(self, features):
        """features [batch, 2, F] -> the side to move's winning chances as a logit [batch, 1]."""
        x = torch.clamp(self.ft(features), 0.0, 1.0).flatten(1)
        x = torch.clamp(self.l1(x), 0.0, 1.0)
        return self.out(x)


def to_onnx(net: EvalNet, variant: str) -> onnx.ModelProto:
    c = net.config
    f, h, l = 4 * c["side"] * c["side"], c["hidden"], c["inner"]
    w = {k: v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}
    inits = [
        numpy_helper.from_array(np.ascontiguousarray(w["ft.weight"].T), "ft.weight"),
        numpy_helper.from_array(w["ft.bias"], "ft.bias"),
        numpy_helper.from_array(np.ascontiguousarray(w["l1.weight"].T), "l1.weight"),
        numpy_helper.from_array(w["l1.bias"], "l1.bias"),
        numpy_helper.from_array(np.ascontiguousarray(w["out.weight"].T), "out.weight"),
        numpy_helper.from_array(w["out.bias"], "out.bias"),
        numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
        numpy_helper.from_array(np.array(1.0, np.float32), "one"),
        numpy_helper.from_array(np.array([-1, 2 * h], np.int64), "flat"),
    ]
    nodes = [
        helper.make_node("MatMul", ["features", "ft.weight"], ["ft_mm"]),
        helper.make_node("Add", ["ft_mm", "ft.bias"], ["ft_sum"]),
        helper.make_node("Clip", ["ft_sum", "zero", "one"], ["ft_act"]),
        helper.make_node("Reshape", ["ft_act", "flat"], ["joined"]),
        helper.make_node("MatMul", ["joined", "l1.weight"], ["l1_mm"]),
        helper.make_node("Add", ["l1_mm", "l1.bias"], ["l1_sum"]),
        helper.make_node("Clip", ["l1_sum", "zero", "one"], ["l1_act"]),
        helper.make_node("MatMul", ["l1_act", "out.weight"], ["out_mm"]),
        helper.make_node("Add", ["out_mm", "out.bias"], ["score"]),
    ]
    graph = helper.make_graph(
        nodes,
        "evalnet",
        [helper.make_tensor_value_info("features", TensorProto.FLOAT, ["batch", 2, f])],
        [helper.make_tensor_value_info("score", TensorProto.FLOAT, ["batch", 1])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    for key, value in (
        ("checkerbot.variant", variant),
        ("checkerbot.kind", "evaluation"),
        ("checkerbot.eval_version", str(EVAL_VERSION)),
    ):
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    model.doc_string = f"checkerbot {variant} evaluation network {c}, version {EVAL_VERSION}"
    onnx.checker.check_model(model)
    return model
