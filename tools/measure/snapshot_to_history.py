#!/usr/bin/env python3
"""Turn a torch.cuda.memory._dump_snapshot() pickle (gzip or plain) into the memory-history JSON
the allocator CLI and lab import (src/core/allocator/history-import.ts): device_traces with
{action, addr, size, stream} per entry, frames dropped. Plain Python: the pickle holds only
dicts, lists, strings and numbers, so torch is not needed to read it.

Usage: python3 tools/measure/snapshot_to_history.py SNAPSHOT.pickle[.gz] OUT.json[.gz]
"""
import gzip
import json
import pickle
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    opener = gzip.open if src.endswith(".gz") else open
    with opener(src, "rb") as f:
        snap = pickle.load(f)  # a snapshot we recorded ourselves (tools/measure/record_snapshot.py)
    traces = [[{k: e[k] for k in ("action", "addr", "size", "stream")} for e in dev] for dev in snap["device_traces"]]
    text = json.dumps({"device_traces": traces}, separators=(",", ":"))
    with (gzip.open(dst, "wt") if dst.endswith(".gz") else open(dst, "w")) as f:
        f.write(text)


if __name__ == "__main__":
    main()
