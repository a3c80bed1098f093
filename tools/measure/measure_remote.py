#!/usr/bin/env python3
"""Measure real PyTorch peaks of inference with the 2023 chat models that ship their own modeling
file (trust_remote_code: Qwen-7B, ChatGLM3-6B, Baichuan2-13B), phase by phase, plus a few
transformers-native scenarios the other scripts do not run (eager attention, Phi-3, Falcon).

The remote models' code is not in this repository (it is theirs, under their licences). Put each
model's Hub files (config.json and the *.py beside it) in REMOTE/<dir>/ and pass --remote REMOTE:
  REMOTE/qwen7b/         Qwen/Qwen-7B            (configuration_qwen.py, modeling_qwen.py, ...)
  REMOTE/chatglm3_6b/    THUDM/chatglm3-6b       (configuration_chatglm.py, modeling_chatglm.py)
  REMOTE/baichuan2_13b/  baichuan-inc/Baichuan2-13B-Chat (configuration_baichuan.py, modeling_baichuan.py, ...)
Each directory is imported as a package, so the files' relative imports work. The configs of
Qwen-7B and ChatGLM3-6B come from data/models.json (the presets the calculator uses); Baichuan2's
from REMOTE/baichuan2_13b/config.json. Weights are random (nothing is downloaded), built on the GPU
in bf16 as from_pretrained(torch_dtype=bfloat16) builds them (default dtype bf16 during __init__).

Decoding is the loop transformers' generate runs for these files (greedy): a forward over the
prompt with an all-ones attention mask, then one token at a time with the files' own past tuples;
after each forward the last position's logits are copied to fp32 and the output is dropped
(generation/utils.py _sample). ChatGLM gets return_last_logit=True and position ids as its
prepare_inputs_for_generation passes them.

Recorded per row: the weights' and buffers' bytes, memory_allocated after building, after the
prompt pass (the past held) and at the end (`after_decode` also holds the last step's input tuple,
still referenced by the loop's arguments); the peak allocated / reserved of the prompt pass and of
the decode steps separately (the allocator's peak statistics are reset between phases, the cache is
emptied once after building, as a checkpoint load leaves no cached blocks behind), and the cache's
own bytes (sum over the past tensors).

Rows: r… the remote models' generate loop; l… the same models fine-tuned by measure_trainer.run
(PEFT LoRA or full fine-tuning, Trainer) with the file's model; n… transformers-native generate() (measure_generate.run).
--trace ID,… also writes those rows' whole allocator history (OUT/ID.trace.json.gz, the format
measure_trainer.py --trace writes).

Usage (one CUDA GPU; torch, transformers, peft, einops):
  python3 tools/measure/measure_remote.py --remote DIR --out DIR [--deadline SECONDS] [--only ID,…] [--trace ID,…]
"""
import argparse
import contextlib
import importlib
import json
import platform
import sys
import time
from pathlib import Path

import torch
import transformers

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure_trainer import MODELS, clean, write_trace  # noqa: E402
import measure_generate  # noqa: E402


def shim_transformers():
    """Names the 2023 files import that transformers 5 moved or dropped; none changes an allocation."""
    import transformers.utils as tu
    import transformers.generation.utils as gu
    from transformers import PreTrainedModel

    if not hasattr(tu, "ContextManagers"):
        class ContextManagers:  # the old helper: enter every context manager of a list
            def __init__(self, managers):
                self.managers, self.stack = managers, contextlib.ExitStack()

            def __enter__(self):
                for m in self.managers:
                    self.stack.enter_context(m)

            def __exit__(self, *exc):
                self.stack.__exit__(*exc)

        tu.ContextManagers = ContextManagers
    for name in ("GenerationConfig", "LogitsProcessorList", "StoppingCriteriaList", "ModelOutput", "GenerateOutput"):
        if not hasattr(gu, name):
            setattr(gu, name, getattr(transformers, name, None) or getattr(tu, name, object))
    if not hasattr(PreTrainedModel, "get_head_mask"):
        PreTrainedModel.get_head_mask = lambda self, head_mask, n, is_attention_chunked=False: [None] * n


def nbytes(tensors) -> int:
    return sum(t.numel() * t.element_size() for t in tensors)


def past_bytes(past) -> int:
    seen, total = set(), 0
    stack = [past]
    while stack:
        x = stack.pop()
        if isinstance(x, torch.Tensor):
            if x.data_ptr() not in seen:
                seen.add(x.data_ptr())
                total += x.numel() * x.element_size()
        elif isinstance(x, (tuple, list)):
            stack.extend(x)
    return total


REMOTE = {
    # key: (dir, config module, config class, modeling module, model class, config source)
    "Qwen/Qwen-7B": ("qwen7b", "configuration_qwen", "QWenConfig", "modeling_qwen", "QWenLMHeadModel", "preset"),
    "THUDM/chatglm3-6b": ("chatglm3_6b", "configuration_chatglm", "ChatGLMConfig", "modeling_chatglm", "ChatGLMForConditionalGeneration", "preset"),
    "baichuan-inc/Baichuan2-13B-Chat": ("baichuan2_13b", "configuration_baichuan", "BaichuanConfig", "modeling_baichuan", "BaichuanForCausalLM", "file"),
}


def build_remote(key: str, remote: Path, extra: dict):
    d, cmod, ccls, mmod, mcls, src = REMOTE[key]
    if str(remote) not in sys.path:
        sys.path.insert(0, str(remote))
    cfg_class = getattr(importlib.import_module(f"{d}.{cmod}"), ccls)
    model_class = getattr(importlib.import_module(f"{d}.{mmod}"), mcls)
    raw = MODELS[key] if src == "preset" else json.loads((remote / d / "config.json").read_text())
    fields = {k: v for k, v in raw.items() if k not in ("architectures", "auto_map", "torch_dtype", "dtype", "transformers_version", "_name_or_path", "model_type")}
    fields.update(extra)
    config = cfg_class(**fields)
    if not hasattr(config, "max_length"):  # PretrainedConfig's old default, which ChatGLM reads
        config.max_length = 20
    for name in ("torch_dtype", "dtype"):
        with contextlib.suppress(Exception):
            setattr(config, name, torch.bfloat16)
    if key == "Qwen/Qwen-7B":
        config.bf16, config.fp16, config.fp32 = True, False, False
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.bfloat16)
    try:
        with torch.device("cuda"):
            kwargs = {"device": "cuda"} if "chatglm" in key else {}
            model = model_class(config, **kwargs)
    finally:
        torch.set_default_dtype(old)
    with torch.no_grad():
        for p in model.parameters():  # ChatGLM's skip_init leaves them empty
            if p.is_floating_point():
                p.normal_(0.0, 0.02)
    model.eval()
    return model, config


def run_remote(key: str, remote: Path, prompt: int, gen: int, extra: dict, batch: int = 1) -> dict:
    clean()
    model, config = build_remote(key, remote, extra)
    torch.cuda.synchronize()
    m = {
        "build_peak": torch.cuda.max_memory_allocated(),
        "params_bytes": nbytes(model.parameters()),
        "buffers_bytes": nbytes(model.buffers()),
        "after_build": torch.cuda.memory_allocated(),
    }
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    vocab = getattr(config, "padded_vocab_size", None) or config.vocab_size
    ids = torch.randint(3, min(vocab, 60000), (batch, prompt), device="cuda")
    glm = "chatglm" in key
    past, generated = None, 0
    try:
        with torch.no_grad():
            for step in range(gen):
                total = prompt + step
                inp = ids if step == 0 else nxt[:, None]
                kw = {"input_ids": inp, "past_key_values": past, "use_cache": True, "attention_mask": torch.ones((batch, total), dtype=torch.long, device="cuda")}
                if glm:
                    start = 0 if step == 0 else total - 1
                    kw["position_ids"] = torch.arange(start, total, device="cuda")[None, :].expand(batch, -1)
                    kw["return_last_logit"] = True
                out = model(**kw)
                nxt = out.logits[:, -1, :].to(dtype=torch.float32, copy=True).argmax(-1)
                past = out.past_key_values
                del out
                generated += 1
                if step == 0:
                    torch.cuda.synchronize()
                    m["prefill"] = {"allocated": torch.cuda.max_memory_allocated(), "reserved": torch.cuda.max_memory_reserved()}
                    m["after_prefill"] = torch.cuda.memory_allocated()
                    m["past_after_prefill"] = past_bytes(past)
                    torch.cuda.reset_peak_memory_stats()
        torch.cuda.synchronize()
        m["decode"] = {"allocated": torch.cuda.max_memory_allocated(), "reserved": torch.cuda.max_memory_reserved()}
        m["after_decode"] = torch.cuda.memory_allocated()
        m["past_after_decode"] = past_bytes(past)
        m["allocated"] = max(m["prefill"]["allocated"], m["decode"]["allocated"])
        m["reserved"] = max(m["prefill"]["reserved"], m["decode"]["reserved"])
        m["generated"] = generated
        return m
    finally:
        del model, past
        clean()


# rows whose whole allocator history is written to OUT/ID.trace.json.gz (--trace), for
# `npm run allocator` and the step timeline to be compared against
TRACE_ROWS = {"ids": set(), "out": None}


def traced(on: bool, fn, rid: str = "") -> dict:
    """fn()'s row; with `on`, also the blocks alive at the run's allocated peak (allocator history,
    Python stacks): the 12 largest, each with its size and innermost frames outside torch."""
    whole = rid in TRACE_ROWS["ids"]
    if not on and not whole:
        return fn()
    torch.cuda.memory._record_memory_history(enabled="all", context="alloc", stacks="python", max_entries=3_000_000)
    try:
        m = fn()
        snap = torch.cuda.memory._snapshot()
        if whole:
            m["trace_events"] = write_trace(TRACE_ROWS["out"] / f"{rid}.trace.json.gz", [])
    finally:
        torch.cuda.memory._record_memory_history(enabled=None)
    live, total, best, at_peak = {}, 0, -1, {}
    for e in snap["device_traces"][0]:
        if e["action"] == "alloc":
            live[e["addr"]] = e
            total += e["size"]
            if total > best:
                best, at_peak = total, dict(live)
        elif e["action"] == "free_completed" and e["addr"] in live:
            total -= live.pop(e["addr"])["size"]

    def where(e):
        frames = [f for f in (e.get("frames") or []) if "/torch/" not in f["filename"]][:3]
        return " < ".join(f"{f['filename'].split('/')[-1]}:{f['line']}:{f['name']}" for f in frames)

    top = sorted(at_peak.values(), key=lambda e: -e["size"])[:12]
    m["peak_traced"] = best
    m["peak_blocks"] = [[e["size"], where(e)] for e in top]
    return m


# (key, prompt, gen, config overrides[, batch]) — the remote-code scenarios
REMOTE_ROWS = [
    ("THUDM/chatglm3-6b", 2048, 64, {}),
    ("Qwen/Qwen-7B", 2048, 64, {}),
    ("baichuan-inc/Baichuan2-13B-Chat", 2048, 32, {}),
    ("THUDM/chatglm3-6b", 8192, 32, {}),
    ("Qwen/Qwen-7B", 8192, 32, {}),
    ("Qwen/Qwen-7B", 2048, 64, {"use_cache_quantization": True, "use_cache_kernel": False}),
    ("baichuan-inc/Baichuan2-13B-Chat", 4000, 32, {}),
    ("Qwen/Qwen-7B", 1024, 32, {}, 4),
    ("THUDM/chatglm3-6b", 1024, 32, {}, 4),
    ("baichuan-inc/Baichuan2-13B-Chat", 1024, 32, {}, 4),
]
# (preset, prompt, attn[, dtype, gen, trace]) — transformers-native generate() rows (measure_generate.run)
NATIVE_ROWS = [
    ("microsoft/Phi-3-mini-4k-instruct", 2048, "sdpa"),
    ("microsoft/Phi-3-mini-4k-instruct", 2048, "eager"),
    ("tiiuae/falcon-7b", 2048, "sdpa"),
    ("meta-llama/Llama-3.2-1B", 4096, "eager"),
    ("Qwen/Qwen2.5-1.5B", 2048, "eager"),
    ("tiiuae/falcon-7b", 2048, "sdpa", torch.bfloat16, 4, True),
    ("meta-llama/Llama-3.2-1B", 4096, "eager", torch.float16, 4, False),
    ("tiiuae/falcon-7b", 2048, "eager", torch.bfloat16, 4, True),
]


# Trainer runs of the remote models (measure_trainer.run with the remote file's model): LoRA with
# all-linear adapters, or full fine-tuning; bf16, fixed lengths, no checkpointing (their files
# predate transformers 5's checkpointing hooks), use_cache off as fine-tuning recipes set it.
# (key, seq[, method]); l004 trains ChatGLM3's RMSNorm weights, whose fp32 x̂ the rule says they keep
TRAIN_ROWS = [
    ("THUDM/chatglm3-6b", 1024),
    ("Qwen/Qwen-7B", 1024),
    ("baichuan-inc/Baichuan2-13B-Chat", 1024),
    ("THUDM/chatglm3-6b", 4096),
    ("THUDM/chatglm3-6b", 1024, "full"),
]


def train_remote(key: str, seq: int, remote: Path, method: str = "lora") -> dict:
    import measure_trainer

    def build(preset, dtype, attn):
        model, config = build_remote(key, remote, {"use_cache": False})
        if not hasattr(config, "vocab_size") or config.vocab_size is None:
            config.vocab_size = config.padded_vocab_size
        model.train()
        return model, config

    measure_trainer.build = build
    s = measure_trainer.T(key, method, seq, 1, False)
    return measure_trainer.run(s, "/tmp/measure-remote-tmp")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--remote", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--deadline", type=float, default=1e9)
    ap.add_argument("--only", default="", help="comma-separated row ids (r000, n002, ...)")
    ap.add_argument("--trace", default="", help="comma-separated row ids whose allocator history is written to OUT/ID.trace.json.gz")
    a = ap.parse_args()
    t_start = time.time()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    env = {"torch": torch.__version__, "transformers": transformers.__version__, "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(0), "python": platform.python_version()}
    shim_transformers()
    rows = []

    only = set(a.only.split(",")) if a.only else None
    TRACE_ROWS["ids"], TRACE_ROWS["out"] = set(a.trace.split(",")) if a.trace else set(), out

    def record(rid, settings, fn):
        if only is not None and rid not in only:
            return
        if time.time() - t_start > a.deadline:
            print(rid, "skipped: deadline", file=sys.stderr, flush=True)
            return
        t0 = time.time()
        try:
            m = fn()
        except Exception as e:  # noqa: BLE001 - record and go on
            m = {"error": (type(e).__name__ + ": " + str(e)).splitlines()[0][:400]}
            clean()
        m["seconds"] = round(time.time() - t0, 1)
        rows.append({"id": rid, "source": "tools/measure/measure_remote.py", "settings": settings, "env": env, "measured": m})
        (out / "remote.json").write_text(json.dumps(rows, indent=1) + "\n")
        print(rid, json.dumps(settings), json.dumps(m), file=sys.stderr, flush=True)


    for i, (key, prompt, gen, extra, *more) in enumerate(REMOTE_ROWS):
        batch = more[0] if more else 1
        settings = {"model": key, "prompt": prompt, "gen": gen, "batch": batch, "dtype": "bf16", "config": extra}
        record(f"r{i:03d}", settings, lambda: traced("chatglm" in key and prompt > 4096, lambda: run_remote(key, Path(a.remote), prompt, gen, extra, batch), f"r{i:03d}"))
    for i, (key, seq, *more) in enumerate(TRAIN_ROWS):
        method = more[0] if more else "lora"
        settings = dict(__import__("measure_trainer").T(key, method, seq, 1, False))
        record(f"l{i:03d}", settings, lambda: train_remote(key, seq, Path(a.remote), method))
    for i, (preset, prompt, attn, *more) in enumerate(NATIVE_ROWS):
        dtype, gen, trace = (more + [torch.bfloat16, measure_generate.GEN, False][len(more):])[:3]
        settings = {"preset": preset, "prompt": prompt, "gen": gen, "batch": 1, "dtype": str(dtype).split(".")[-1].replace("bfloat16", "bf16").replace("float16", "fp16"), "attn": attn}
        record(f"n{i:03d}", settings, lambda: traced(trace, lambda: measure_generate.run(preset, prompt, attn, dtype, gen), f"n{i:03d}"))


if __name__ == "__main__":
    main()
