#!/usr/bin/env python3
"""Write a tiny deterministic ONNX policy/value model for checkerbot's tests.

The model is one linear layer per head over the flattened input planes:

    x      = planes.reshape(batch, PLANES * side * side)      # NCHW, row-major
    policy = x @ W + b                                        # [batch, policy_size]
    value  = sigmoid(x @ w + c)                               # [batch, 1]

with weights given by closed formulas (see `weight`), so a test can recompute the outputs in
Rust from the same formulas and compare them with what ONNX Runtime returns. Only the PyPI
`onnx` package is needed (no torch).

Options that break the model on purpose let tests check the fallbacks: a wrong variant or
encoding version in the metadata, a wrong policy size, or no metadata at all. `--calibration`
writes the value maps per level (`checkerbot.calibration`, valid or not: the text is written
as given).

Usage: make_test_model.py OUT.onnx [--variant russian] [--encoding 1] [--side 8]
                                   [--policy-size 280] [--no-metadata]
                                   [--calibration '3=1.14,0.528;4=0.909,0.959']
"""

import argparse

import onnx
from onnx import TensorProto, helper

PLANES = 5


def weight(i: int, j: int) -> float:
    """Weight from input feature i to output j: small, varied, exactly representable in f32."""
    return ((i * 31 + j * 17) % 23 - 11) / 64.0


def bias(j: int) -> float:
    return ((j * 7) % 13 - 6) / 32.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--encoding", default="1")
    parser.add_argument("--side", type=int, default=8)
    parser.add_argument("--policy-size", type=int, default=280)
    parser.add_argument("--no-metadata", action="store_true")
    parser.add_argument("--calibration")
    args = parser.parse_args()

    features = PLANES * args.side * args.side
    outputs = args.policy_size
    w_policy = [weight(i, j) for i in range(features) for j in range(outputs)]
    b_policy = [bias(j) for j in range(outputs)]
    # The value head uses output column `outputs` of the same formula.
    w_value = [weight(i, outputs) / 8.0 for i in range(features)]
    b_value = [bias(outputs)]

    initializers = [
        helper.make_tensor("W_policy", TensorProto.FLOAT, [features, outputs], w_policy),
        helper.make_tensor("b_policy", TensorProto.FLOAT, [outputs], b_policy),
        helper.make_tensor("W_value", TensorProto.FLOAT, [features, 1], w_value),
        helper.make_tensor("b_value", TensorProto.FLOAT, [1], b_value),
    ]
    nodes = [
        helper.make_node("Flatten", ["planes"], ["x"], axis=1),
        helper.make_node("Gemm", ["x", "W_policy", "b_policy"], ["policy"]),
        helper.make_node("Gemm", ["x", "W_value", "b_value"], ["value_logit"]),
        helper.make_node("Sigmoid", ["value_logit"], ["value"]),
    ]
    graph = helper.make_graph(
        nodes,
        "checkerbot_test_model",
        [helper.make_tensor_value_info("planes", TensorProto.FLOAT, ["batch", PLANES, args.side, args.side])],
        [
            helper.make_tensor_value_info("policy", TensorProto.FLOAT, ["batch", outputs]),
            helper.make_tensor_value_info("value", TensorProto.FLOAT, ["batch", 1]),
        ],
        initializers,
    )
    model = helper.make_model(
        graph,
        producer_name="checkerbot training/make_test_model.py",
        opset_imports=[helper.make_opsetid("", 17)],
    )
    # IR version 8 is read by every ONNX Runtime since 1.10; newer `onnx` defaults higher.
    model.ir_version = 8
    if not args.no_metadata:
        props = {"checkerbot.variant": args.variant, "checkerbot.encoding": args.encoding}
        if args.calibration is not None:
            props["checkerbot.calibration"] = args.calibration
        helper.set_model_props(model, props)
    onnx.checker.check_model(model)
    onnx.save(model, args.out)


if __name__ == "__main__":
    main()
