"""Reading `checkerbot-lab datagen` files (the record layout is in daemon/lab/src/training_record.rs).

Each record: planes 0-3 as bits (least significant first), the policy target as bytes
(round(255 * p)), the search's win probability and the game's result, both f32 for the side to
move. Files without a header, so several runs can be concatenated.
"""

import numpy as np


def record_dtype(side: int = 8, policy: int = 280) -> np.dtype:
    return np.dtype(
        [
            ("planes", "u1", (4 * side * side // 8,)),
            ("policy", "u1", (policy,)),
            ("search", "<f4"),
            ("result", "<f4"),
        ]
    )


def read_records(paths, side: int = 8, policy: int = 280) -> np.ndarray:
    """The records of all `paths`, concatenated, as a structured array of `record_dtype`."""
    dtype = record_dtype(side, policy)
    parts = []
    for path in paths:
        raw = np.fromfile(path, dtype=np.uint8)
        whole = raw.size - raw.size % dtype.itemsize
        if whole != raw.size:
            # A run that was stopped (or is still writing) ends in a partial record.
            print(f"{path}: ignoring a partial record of {raw.size - whole} bytes at the end")
        parts.append(raw[:whole].view(dtype))
    return np.concatenate(parts)


def load(paths, side: int = 8, policy: int = 280):
    """Arrays (planes float32 [n,5,side,side], policy float32 [n,P], search, result)."""
    records = read_records(paths, side, policy)
    n = len(records)
    bits = np.unpackbits(records["planes"], axis=1, bitorder="little")
    planes = np.ones((n, 5, side, side), dtype=np.float32)
    planes[:, :4] = bits.reshape(n, 4, side, side)
    target = records["policy"].astype(np.float32)
    target /= np.maximum(target.sum(axis=1, keepdims=True), 1e-6)
    return planes, target, records["search"].copy(), records["result"].copy()
