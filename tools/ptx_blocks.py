#!/usr/bin/env python3
"""The basic blocks of one kernel in a PTX file, to count the instructions of a path through
it (a save, a summary sample) where no GPU is at hand to time it.

Blocks are split at labels and after branches. Each is printed with its index, label,
number of instructions, the same without register moves (`mov`, most of which register
allocation removes) and the branch that ends it:

    tools/ptx_blocks.py output_cost.ptx summaries

With --path, the instructions of the blocks listed (a block repeats as often as the path
takes it) are summed instead:

    tools/ptx_blocks.py output_cost.ptx summaries --path 23,24,25,29

The kernel is the first `.entry` whose name contains the given text.
"""
import argparse
import re
import sys


def blocks_of(ptx: str, kernel: str):
    entries = [e for e in re.split(r"\n(?=\.visible \.entry )", ptx)
               if e.startswith(".visible .entry") and kernel in e.split("(")[0]]
    if not entries:
        sys.exit(f"no kernel whose name contains {kernel!r}")
    blocks, current = [], None

    def begin(label):
        nonlocal current
        current = {"label": label, "instructions": [], "branch": ""}
        blocks.append(current)

    for line in entries[0].split("\n"):
        text = line.strip()
        label = re.match(r"^(\$L__\w+):", text)
        if label:
            begin(label.group(1))
            continue
        if not text or text.startswith(("//", ".", "{", "}")):
            continue
        if current is None:
            begin("entry")
        current["instructions"].append(text)
        if re.search(r"\bbra(\.uni)?\s", text) or text.startswith("ret"):
            current["branch"] = text
            begin("")
    return [b for b in blocks if b["instructions"]]


def without_moves(block) -> int:
    return sum(1 for i in block["instructions"] if not i.startswith("mov."))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ptx")
    parser.add_argument("kernel")
    parser.add_argument("--path", help="block indices, comma-separated")
    args = parser.parse_args()
    with open(args.ptx) as f:
        blocks = blocks_of(f.read(), args.kernel)
    if args.path:
        path = [blocks[int(i)] for i in args.path.split(",")]
        print(f"{sum(len(b['instructions']) for b in path)} instructions, "
              f"{sum(without_moves(b) for b in path)} without mov")
        return 0
    for index, b in enumerate(blocks):
        print(f"{index:5d} {b['label']:14s} {len(b['instructions']):5d} {without_moves(b):5d}  "
              f"{b['branch']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
