#!/usr/bin/env python3
"""Measure real PyTorch memory peaks for the calculator's validation suite.

Builds decoder models from a config with random weights (nothing is downloaded), runs
inference (prefill + greedy decode) and training steps, and records for each scenario:
  torch.cuda.max_memory_allocated, torch.cuda.max_memory_reserved, and the device's used
memory from NVML (what nvidia-smi shows) once the run is over (see device below).

Output: one JSON list on stdout (or --out FILE), one row per scenario run:
  id, source, model (calculator preset id), config (the config.json values used), mode,
  settings, query (the calculator's share-link query for the same scenario, so
  `npm run --silent estimate -- '<query>' --json` gives the estimate to compare), env
  (torch / transformers / CUDA / GPU / driver), and measured: {allocated, reserved, device}
  in bytes, device = NVML used memory of the whole card at the end of the run (the caching
  allocator keeps its segments, so this is the reserved peak + CUDA context + libraries;
  it includes other processes, so run on an otherwise idle GPU). A run that runs out of
  memory has measured: {oom: first line of the message}.
See docs/measuring.md for turning the rows into a validation fixture.

Usage (on a machine with one CUDA GPU, torch + transformers installed):
  python3 tools/measure/measure_llm.py --quick   # a few rows, to check the setup
  python3 tools/measure/measure_llm.py --out measured-gpu.json
"""
import argparse
import gc
import json
import platform
import sys
import time

import torch

try:
    import pynvml  # optional: device-level used memory
    pynvml.nvmlInit()
    _NVML = pynvml.nvmlDeviceGetHandleByIndex(0)
except Exception:  # noqa: BLE001 - NVML is optional
    _NVML = None

import transformers
from transformers import AutoConfig, AutoModelForCausalLM

# Configs are written out here (from the models' published config.json) so nothing is fetched.
CONFIGS = {
    "Qwen2.5-0.5B": dict(model_type="qwen2", hidden_size=896, num_hidden_layers=24,
                         num_attention_heads=14, num_key_value_heads=2, intermediate_size=4864,
                         vocab_size=151936, tie_word_embeddings=True, max_position_embeddings=32768),
    "Qwen2.5-1.5B": dict(model_type="qwen2", hidden_size=1536, num_hidden_layers=28,
                         num_attention_heads=12, num_key_value_heads=2, intermediate_size=8960,
                         vocab_size=151936, tie_word_embeddings=True, max_position_embeddings=32768),
    "Llama-3.2-1B": dict(model_type="llama", hidden_size=2048, num_hidden_layers=16,
                         num_attention_heads=32, num_key_value_heads=8, intermediate_size=8192,
                         vocab_size=128256, tie_word_embeddings=True, head_dim=64,
                         max_position_embeddings=131072),
    "Llama-2-7b": dict(model_type="llama", hidden_size=4096, num_hidden_layers=32,
                       num_attention_heads=32, num_key_value_heads=32, intermediate_size=11008,
                       vocab_size=32000, tie_word_embeddings=False, max_position_embeddings=4096),
    "gpt2": dict(model_type="gpt2", n_embd=768, n_layer=12, n_head=12, vocab_size=50257,
                 n_positions=1024, tie_word_embeddings=True),
}
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
# The calculator's preset for each config above (src/core/model/presets-data.ts).
PRESET_IDS = {
    "Qwen2.5-0.5B": "Qwen/Qwen2.5-0.5B",
    "Qwen2.5-1.5B": "Qwen/Qwen2.5-1.5B",
    "Llama-3.2-1B": "meta-llama/Llama-3.2-1B",
    "Llama-2-7b": "meta-llama/Llama-2-7b-hf",
    "gpt2": "openai-community/gpt2",
}


def device_used() -> int | None:
    if _NVML is None:
        return None
    return int(pynvml.nvmlDeviceGetMemoryInfo(_NVML).used)


def build(name: str, dtype: torch.dtype, attn: str):
    cfg = dict(CONFIGS[name])
    model_type = cfg.pop("model_type")
    config = AutoConfig.for_model(model_type, **cfg)
    with torch.device("cuda"):
        model = AutoModelForCausalLM.from_config(config, torch_dtype=dtype, attn_implementation=attn)
    return model, config


def reset():
    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()


def peaks() -> dict:
    torch.cuda.synchronize()
    return {
        "allocated": torch.cuda.max_memory_allocated(),
        "reserved": torch.cuda.max_memory_reserved(),
        "device": device_used(),
    }


def run_inference(name, dtype_name, attn, batch, prompt, gen):
    reset()
    model, config = build(name, DTYPES[dtype_name], attn)
    try:
        model.eval()
        ids = torch.randint(0, config.vocab_size, (batch, prompt), device="cuda")
        with torch.no_grad():
            model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=gen,
                           min_new_tokens=gen, do_sample=False, pad_token_id=0)
        return peaks()
    finally:
        del model


def run_training(name, precision, attn, batch, seq, ckpt, optimizer):
    reset()
    param_dtype = torch.bfloat16 if precision == "bf16" else torch.float32
    model, config = build(name, param_dtype, attn)
    opt = None
    try:
        model.train()
        if ckpt:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        opt = {"adamw": torch.optim.AdamW, "sgd": torch.optim.SGD}[optimizer](model.parameters(), lr=1e-5)
        ids = torch.randint(0, config.vocab_size, (batch, seq), device="cuda")
        for _ in range(2):  # step 2 has optimizer states allocated: the steady-state peak
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=precision == "amp-bf16"):
                loss = model(input_ids=ids, labels=ids).loss
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return peaks()
    finally:
        del model, opt


def query(mode: str, name: str, kw: dict) -> str:
    """The calculator's share-link query for the run (keys of docs/url-schema.md)."""
    q = {"v": "1", "model": PRESET_IDS[name], "mode": mode, "batch": kw["batch"], "attn": kw["attn"]}
    if mode == "inference":
        q.update(weights=kw["dtype"], kv=kw["dtype"], prompt=kw["prompt"], gen=kw["gen"])
    else:
        q.update({"seq": kw["seq"], "precision": kw["precision"], "optimizer": kw["optimizer"],
                  "grad-ckpt": "full" if kw["ckpt"] else "none",
                  "weights": "bf16" if kw["precision"] == "bf16" else "fp32"})
    return "&".join(f"{k}={v}" for k, v in q.items())


def matrix(quick: bool):
    names = ["Qwen2.5-0.5B", "Llama-3.2-1B"] if quick else list(CONFIGS)
    for name in names:
        for dtype_name in ["bf16"] if quick else ["bf16", "fp32"]:
            for attn in ["sdpa"] if quick else ["sdpa", "eager"]:
                for batch, prompt, gen in ([(1, 512, 64)] if quick else
                                           [(1, 128, 128), (1, 2048, 256), (4, 1024, 128), (1, 8192, 64)]):
                    yield ("inference", name, dict(dtype=dtype_name, attn=attn, batch=batch,
                                                   prompt=prompt, gen=gen))
        if name in ("Llama-2-7b",):
            continue  # full fine-tuning of 7B with AdamW does not fit a single 80 GB card
        for precision in ["amp-bf16"] if quick else ["amp-bf16", "bf16", "fp32"]:
            for ckpt in [False] if quick else [False, True]:
                for batch, seq in ([(1, 512)] if quick else [(1, 512), (2, 1024), (1, 2048)]):
                    yield ("training", name, dict(precision=precision, attn="sdpa", batch=batch,
                                                  seq=seq, ckpt=ckpt, optimizer="adamw"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rows = []
    env = {"torch": torch.__version__, "transformers": transformers.__version__, "cuda": torch.version.cuda,
           "gpu": torch.cuda.get_device_name(0), "python": platform.python_version(),
           "driver": pynvml.nvmlSystemGetDriverVersion() if _NVML is not None else None}
    for i, (mode, name, kw) in enumerate(matrix(args.quick)):
        t0 = time.time()
        try:
            if mode == "inference":
                m = run_inference(name, kw["dtype"], kw["attn"], kw["batch"], kw["prompt"], kw["gen"])
            else:
                m = run_training(name, kw["precision"], kw["attn"], kw["batch"], kw["seq"], kw["ckpt"],
                                 kw["optimizer"])
        except torch.cuda.OutOfMemoryError as e:
            m = {"oom": str(e).splitlines()[0]}
        rows.append({"id": f"g{i:04d}", "source": "tools/measure/measure_llm.py", "model": PRESET_IDS[name],
                     "config": CONFIGS[name], "mode": mode, "settings": kw, "query": query(mode, name, kw),
                     "env": env, "measured": m})
        print(f"{mode} {name} {kw} -> {m} ({time.time() - t0:.1f}s)", file=sys.stderr, flush=True)
    text = json.dumps(rows, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
