#!/usr/bin/env python3
"""Measure real PyTorch peaks of Hugging Face `generate()` (prefill + greedy decode) at long prompts,
for the calculator's validation suite (src/validation/fixtures/measured-generate.json).

Every model is built from its config in data/models.json with random weights (measure_trainer.py
`build`: nothing is downloaded), in bf16 with SDPA attention, batch 1. Each scenario records
torch.cuda.max_memory_allocated / max_memory_reserved over load + generate, the bytes the weights
took, and NVML's used memory (the whole card) before the model and at the end.

The peaks include building the model: `from_config` makes a tied model's LM head as its own V×h
weight before tying it to the embedding (a transient a checkpoint load does not make), so for
short prompts of tied models the load is the peak (src/validation/measured-generate.ts maps it).

Usage (one CUDA GPU, torch + transformers, nothing else on the GPU):
  python3 tools/measure/measure_generate.py --out DIR [--deadline SECONDS]
"""
import argparse
import json
import platform
import sys
import time
from pathlib import Path

import torch
import transformers

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure_trainer import build, clean, nvml_used  # noqa: E402

MODELS = ["meta-llama/Llama-3.2-1B", "Qwen/Qwen2.5-1.5B", "google/gemma-2-2b", "Qwen/Qwen2.5-7B", "meta-llama/Llama-3.1-8B", "Qwen/Qwen3-8B", "mistralai/Mistral-7B-v0.1"]
PROMPTS = [1024, 8192, 32768]
GEN = 64


def run(preset: str, prompt: int, attn: str = "sdpa", dtype: torch.dtype = torch.bfloat16, gen: int = GEN) -> dict:
    clean()
    context_used = nvml_used()
    model, config = build(preset, dtype, attn)
    model.config.use_cache = True
    model.eval()
    weights = torch.cuda.memory_allocated()
    ids = torch.randint(3, config.vocab_size, (1, prompt), device="cuda")
    try:
        with torch.no_grad():
            out = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=gen, min_new_tokens=gen, do_sample=False, pad_token_id=0, use_cache=True)
        torch.cuda.synchronize()
        return {
            "allocated": torch.cuda.max_memory_allocated(),
            "reserved": torch.cuda.max_memory_reserved(),
            "weights_allocated": weights,
            "device_used": nvml_used(),
            "context_used": context_used,
            "generated": int(out.shape[1] - prompt),
        }
    finally:
        del model
        clean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--deadline", type=float, default=1e9)
    a = ap.parse_args()
    t_start = time.time()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    env = {"torch": torch.__version__, "transformers": transformers.__version__, "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(0), "python": platform.python_version()}
    rows = []
    for preset in MODELS:
        for prompt in PROMPTS:
            rid = f"g{len(rows):03d}"
            if time.time() - t_start > a.deadline:
                print(f"{rid} skipped: deadline", file=sys.stderr, flush=True)
                continue
            t0 = time.time()
            try:
                m = run(preset, prompt)
            except Exception as e:  # noqa: BLE001 - record and go on
                m = {"error": (type(e).__name__ + ": " + str(e)).splitlines()[0][:400]}
                clean()
            m["seconds"] = round(time.time() - t0, 1)
            rows.append({"id": rid, "source": "tools/measure/measure_generate.py", "settings": {"preset": preset, "prompt": prompt, "gen": GEN, "batch": 1, "dtype": "bf16", "attn": "sdpa"}, "env": env, "measured": m})
            (out / "generate.json").write_text(json.dumps(rows, indent=1) + "\n")
            print(rid, preset, prompt, {k: (round(v / 2**20) if isinstance(v, int) and k not in ("generated",) else v) for k, v in m.items()}, file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
