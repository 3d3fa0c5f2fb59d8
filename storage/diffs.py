"""Compact differences between two JSON values, so undo can keep every version of a game.

A tap changes one die, so the difference between two versions of a 10 KB record is a few
dozen bytes: `diff(new, old)` is the list of operations that turns `new` back into `old`.
Operations, applied in order:
  ["set", path, value]  set a key, or a list item (index == length appends); [] = the root
  ["del", path]         remove a key
  ["trunc", path, n]    cut a list to its first n items
"""
from __future__ import annotations

from typing import Any

Ops = list[list[Any]]


def diff(src: Any, dst: Any) -> Ops:
    """Operations that turn `src` into `dst`, False and 0 told apart even deep in a list."""
    ops: Ops = []
    _diff(src, dst, [], ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: Python's == takes [0] for [False] (hypothesis found one), a diff must not."""
    if a != b:  # the quick answer, in C, for most of a record
        return False
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return all(_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return all(_same(x, y) for x, y in zip(a, b))
    return True


def _diff(src: Any, dst: Any, path: list, ops: Ops) -> None:
    if type(src) is not type(dst):
        ops.append(["set", path, dst])
    elif isinstance(src, dict):
        for key in src:
            if key not in dst:
                ops.append(["del", path + [key]])
        for key, value in dst.items():
            if key not in src:
                ops.append(["set", path + [key], value])
            elif not _same(src[key], value):
                _diff(src[key], value, path + [key], ops)
    elif isinstance(src, list):
        common = min(len(src), len(dst))
        for i in range(common):
            if not _same(src[i], dst[i]):
                _diff(src[i], dst[i], path + [i], ops)
        if len(src) > len(dst):
            ops.append(["trunc", path, len(dst)])
        for i in range(common, len(dst)):
            ops.append(["set", path + [i], dst[i]])
    elif src != dst:
        ops.append(["set", path, dst])


def apply(value: Any, ops: Ops) -> Any:
    """`value` changed by `ops`; `value` itself is left untouched (containers are copied
    along each path, the rest is shared)."""
    for op in ops:
        value = _apply_one(value, op)
    return value


def _apply_one(root: Any, op: list) -> Any:
    kind, path = op[0], op[1]
    if not path:  # the root itself
        if kind == "set":
            return op[2]
        if kind == "trunc":
            return root[: op[2]]
        raise ValueError(f"cannot {kind} the root")
    top = _copy(root)
    node = top
    for key in path[:-1]:
        node[key] = _copy(node[key])
        node = node[key]
    key = path[-1]
    if kind == "set":
        if isinstance(node, list) and key == len(node):
            node.append(op[2])
        else:
            node[key] = op[2]
    elif kind == "del":
        del node[key]
    elif kind == "trunc":
        node[key] = node[key][: op[2]]
    else:
        raise ValueError(f"unknown diff operation {kind!r}")
    return top


def _copy(node: Any) -> Any:
    if isinstance(node, dict):
        return dict(node)
    if isinstance(node, list):
        return list(node)
    raise ValueError("a diff path goes through a value that is neither an object nor a list")


def check_ops(ops: Any) -> None:
    """Raise ValueError unless `ops` has the shape of a diff (used when a file is checked)."""
    if not isinstance(ops, list):
        raise ValueError("a diff is a list of operations")
    for op in ops:
        if not (isinstance(op, list) and len(op) >= 2 and isinstance(op[1], list)
                and all(type(k) in (str, int) for k in op[1])):
            raise ValueError(f"malformed diff operation {op!r:.60}")
        if op[0] == "set" and len(op) == 3:
            continue
        if op[0] == "del" and len(op) == 2 and op[1]:
            continue
        if op[0] == "trunc" and len(op) == 3 and type(op[2]) is int and op[2] >= 0:
            continue
        raise ValueError(f"malformed diff operation {op!r:.60}")
