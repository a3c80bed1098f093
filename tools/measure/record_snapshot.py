#!/usr/bin/env python3
"""Record a real CUDA caching-allocator snapshot, allocator statistics and a real out-of-memory
message, for the allocator lab's fixtures (tests/fixtures/torch-snapshot/).

A small decoder (2 Llama-style blocks, random weights, nothing downloaded) is trained in pure bf16
with torch.optim.AdamW for a few steps whose lengths differ (batch 2: 512, 2048, 1024, 1536
tokens), so segments cut for one step are reused, split and grown by the next. The run's
PYTORCH_CUDA_ALLOC_CONF is whatever the environment sets; run it once per setting to compare
the simulator's replay with what PyTorch really reserved under each.

Writes into --out DIR, with --tag T:
  T.stats.json   max allocated / reserved, memory_stats(), memory_summary(), the conf, versions
  T.pickle       torch.cuda.memory._dump_snapshot() (only with --snapshot)
  T.oom.txt      the message of a deliberate allocation larger than the card (only with --oom)
"""
import argparse
import json
import os
import platform
from pathlib import Path

import torch
import transformers
from transformers import LlamaConfig, LlamaForCausalLM

LENGTHS = [512, 2048, 1024, 1536]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--tag", required=True)
    ap.add_argument("--snapshot", action="store_true")
    ap.add_argument("--oom", action="store_true")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.snapshot:
        torch.cuda.memory._record_memory_history(enabled="all", context="alloc", stacks="python", max_entries=100000)
    config = LlamaConfig(hidden_size=1024, intermediate_size=2816, num_hidden_layers=2, num_attention_heads=16, num_key_value_heads=4, vocab_size=32000, use_cache=False)
    with torch.device("cuda"):
        model = LlamaForCausalLM(config).to(torch.bfloat16)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    g = torch.Generator(device="cuda").manual_seed(0)
    for n in LENGTHS:
        ids = torch.randint(0, config.vocab_size, (2, n), device="cuda", generator=g)
        loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    stats = {
        "conf": os.environ.get("PYTORCH_CUDA_ALLOC_CONF"),
        "lengths": LENGTHS,
        "batch": 2,
        "config": config.to_dict(),
        "max_allocated": torch.cuda.max_memory_allocated(),
        "max_reserved": torch.cuda.max_memory_reserved(),
        "allocated_end": torch.cuda.memory_allocated(),
        "reserved_end": torch.cuda.memory_reserved(),
        "memory_stats": {k: v for k, v in torch.cuda.memory_stats().items()},
        "memory_summary": torch.cuda.memory_summary(),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "gpu": torch.cuda.get_device_name(0),
        "python": platform.python_version(),
    }
    if a.snapshot:
        torch.cuda.memory._dump_snapshot(str(out / f"{a.tag}.pickle"))
        torch.cuda.memory._record_memory_history(enabled=None)
    if a.oom:
        total = torch.cuda.get_device_properties(0).total_memory
        try:
            torch.empty(total + 2**30, dtype=torch.uint8, device="cuda")
        except torch.cuda.OutOfMemoryError as e:
            (out / f"{a.tag}.oom.txt").write_text(str(e) + "\n")
            stats["memory_stats_after_oom"] = dict(torch.cuda.memory_stats())
    (out / f"{a.tag}.stats.json").write_text(json.dumps(stats, indent=1, default=str) + "\n")
    print(a.tag, stats["conf"], "allocated", stats["max_allocated"], "reserved", stats["max_reserved"], flush=True)


if __name__ == "__main__":
    main()
