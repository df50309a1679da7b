#!/usr/bin/env python3
"""Exports a train.py checkpoint to ONNX with the metadata checkerbot requires.

    target/venv-train/bin/python training/export.py target/train/russian-gen2.pt models/russian-gen2.onnx

Inputs and outputs follow models/README.md (encoding version 1): input `planes` f32
[batch, 5, side, side], outputs `policy` f32 [batch, P] (logits; P is 280, 570 or 1012 for
side 8, 10 or 12) and `value` f32 [batch, 1]
(sigmoid applied), batch dimension free; metadata `checkerbot.variant` and
`checkerbot.encoding`. When onnxruntime is installed the exported file is checked against
PyTorch on random positions.
"""

import argparse
import os
import warnings

import numpy as np
import onnx
import torch

from net import Exported, board_side, build

ENCODING = 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoint")
    ap.add_argument("out")
    ap.add_argument("--variant", default="russian")
    ap.add_argument("--opset", type=int, default=17)
    args = ap.parse_args()

    saved = torch.load(args.checkpoint, map_location="cpu")
    config = saved["config"]
    net = build(config)
    net.load_state_dict(saved["state"])
    model = Exported(net).eval()
    side = config["side"]
    if side != board_side(args.variant):
        raise SystemExit(f"{args.checkpoint} is for a {side}x{side} board, {args.variant} is played on {board_side(args.variant)}x{board_side(args.variant)}")
    example = torch.zeros(2, 5, side, side)
    # The TorchScript exporter is deprecated in favour of torch.export, which needs onnxscript;
    # it still writes exactly the graph needed here.
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    torch.onnx.export(
        model,
        (example,),
        args.out,
        input_names=["planes"],
        output_names=["policy", "value"],
        dynamic_axes={"planes": {0: "batch"}, "policy": {0: "batch"}, "value": {0: "batch"}},
        opset_version=args.opset,
        dynamo=False,
    )
    proto = onnx.load(args.out)
    for key, value in (("checkerbot.variant", args.variant), ("checkerbot.encoding", str(ENCODING))):
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    shape = {k: v for k, v in config.items() if k not in ("side", "policy")}
    proto.doc_string = f"checkerbot {args.variant} policy/value network {shape}, encoding {ENCODING}"
    onnx.checker.check_model(proto)
    onnx.save(proto, args.out)
    print(f"{args.out}: {os.path.getsize(args.out)} bytes")

    try:
        import onnxruntime as ort
    except ImportError:
        print("onnxruntime not installed: not checked")
        return
    rng = np.random.default_rng(0)
    x = np.ones((32, 5, side, side), dtype=np.float32)
    x[:, :4] = rng.random((32, 4, side, side)) < 0.15
    session = ort.InferenceSession(args.out, providers=["CPUExecutionProvider"])
    policy, value = session.run(["policy", "value"], {"planes": x})
    with torch.no_grad():
        tp, tv = model(torch.from_numpy(x))
    worst = max(np.abs(policy - tp.numpy()).max(), np.abs(value - tv.numpy()).max())
    print(f"onnxruntime vs torch on 32 positions: largest difference {worst:.2e}")
    if worst > 1e-3:
        raise SystemExit("the exported model differs from the checkpoint")


if __name__ == "__main__":
    main()
