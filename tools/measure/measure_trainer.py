#!/usr/bin/env python3
"""Measure real PyTorch peaks of Hugging Face Trainer fine-tuning runs (LoRA and full), fixed and
variable sample lengths, for the calculator's validation suite.

Every model is built from its config in data/models.json (the calculator's own catalogue) with
random weights: nothing is downloaded. Each scenario runs transformers.Trainer for a few steps
(PEFT LoRA or full fine-tuning) and records, after every optimizer step, the running
torch.cuda.max_memory_allocated / max_memory_reserved, so variable-length runs show how the
caching allocator's reserved memory climbs step by step.

Settings beyond the shape: `precision` bf16 (bf16 weights, Trainer bf16=True), amp-bf16 (fp32 weights,
bf16=True), amp-fp16 (fp16 weights, fp16=True: autocast and a loss scaler), fp32; `reentrant` (the
torch.utils.checkpoint variant); `hf_config` (build from this config.json rather than the catalogue's).

Lengths: 'fixed' = every sample `seq` tokens; 'varied' = sample lengths drawn from a lognormal of
mean `len_mean` and sigma `len_spread` (mu = ln(mean) - sigma^2/2), rounded, clipped to [1, seq]
(truncation at max_length), padded per batch to the longest (no packing), as a plain
DataCollatorForSeq2Seq-style collator does. The calculator's lengths=varied key models the same
distribution (src/core/timeline/lengths.ts).

Output (under --out DIR): rows.json, written again after every scenario, one object per run:
  id, preset, mode 'training', settings {...}, env {...}, measured {allocated, reserved,
  device_used, context_used, weights_allocated, per_step: [[allocated, reserved], ...]}
or measured {error: first line} when a run fails (OOM included).

With --trace, each run also records the caching allocator's history
(torch.cuda.memory._record_memory_history, Python stacks) and writes DIR/ID.trace.json.gz: every
event of the device trace but free_requested (one stream: free_completed follows it) as [action, addr, size, stream, stack], where stack indexes `stacks`
(up to five innermost Python frames, file:line:function, nn.Module's call wrappers left out), and
`step_marks`: the wall-clock time (µs since the epoch, as the trace's time_us) at the end of each
optimizer step, and `times`: each event's time_us. Recording changes no
allocation, only adds host time.

Usage (one CUDA GPU, torch + transformers + peft installed, nothing else on the GPU):
  python3 tools/measure/measure_trainer.py --out DIR [--deadline SECONDS] [--only ID,ID] [--trace]
"""
import gzip
import argparse
import gc
import json
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import torch
import transformers
from transformers import AutoConfig, AutoModelForCausalLM, Trainer, TrainerCallback, TrainingArguments

try:
    import peft
except ImportError:  # LoRA rows are skipped without it
    peft = None

try:
    import pynvml

    pynvml.nvmlInit()
    _NVML = pynvml.nvmlDeviceGetHandleByIndex(0)
except Exception:  # noqa: BLE001 - NVML is optional
    _NVML = None

ROOT = Path(__file__).resolve().parents[2]
MODELS = {row["id"]: row["config"] for row in json.loads((ROOT / "data" / "models.json").read_text())}
MiB = 2**20
# seed of the sample lengths (MEASURE_SEED overrides it: a second draw shows how much reserved memory depends on the order)
LENGTH_SEED = int(os.environ.get("MEASURE_SEED", "1234"))


def nvml_used():
    return None if _NVML is None else int(pynvml.nvmlDeviceGetMemoryInfo(_NVML).used)


def build(preset: str, dtype: torch.dtype, attn: str, hf_config: dict = None):
    """The model from its catalogue config (data/models.json), or from `hf_config` for a model the
    catalogue lacks (the row keeps that config in settings.hf_config, which the validation pastes)."""
    # a null (head_dim: null) means "the default": leave it to the config class
    cfg = {k: v for k, v in (hf_config or MODELS[preset]).items() if v is not None and k not in ("architectures", "torch_dtype", "dtype", "transformers_version")}
    model_type = cfg.pop("model_type")
    # transformers 5 takes RoPE settings as rope_parameters; the scaling rule (Llama 3.1's 'llama3')
    # changes only the inverse frequencies, not the memory, so the plain rule stands in for it.
    theta = cfg.pop("rope_theta", None) or 10000.0
    cfg.pop("rope_scaling", None)
    config = AutoConfig.for_model(model_type, rope_parameters={"rope_type": "default", "rope_theta": float(theta)}, **cfg)
    config.use_cache = False
    with torch.device("cuda"):
        try:
            model = AutoModelForCausalLM.from_config(config, dtype=dtype, attn_implementation=attn)
        except TypeError:
            model = AutoModelForCausalLM.from_config(config, torch_dtype=dtype, attn_implementation=attn)
    return model, config


def sample_lengths(n: int, seq: int, kind: str, mean: float, spread: float, seed: int) -> list:
    if kind == "fixed":
        return [seq] * n
    rng = np.random.default_rng(seed)
    mu = math.log(mean) - spread * spread / 2
    return [int(min(seq, max(1, round(x)))) for x in rng.lognormal(mu, spread, n)]


class LengthsDataset(torch.utils.data.Dataset):
    def __init__(self, lengths, vocab, seed):
        self.lengths = lengths
        self.vocab = vocab
        self.seed = seed

    def __len__(self):
        return len(self.lengths)

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(self.seed + i)
        ids = torch.randint(3, self.vocab, (self.lengths[i],), generator=g).tolist()
        return {"input_ids": ids, "labels": ids}


# padded length of every batch the collator built, in the order the Trainer asked for them
BATCH_LENGTHS = []


def collate(batch):
    """Pad to the longest sample of the batch (right padding, labels -100 on padding)."""
    n = max(len(b["input_ids"]) for b in batch)
    BATCH_LENGTHS.append(n)
    ids = torch.zeros((len(batch), n), dtype=torch.long)
    labels = torch.full((len(batch), n), -100, dtype=torch.long)
    mask = torch.zeros((len(batch), n), dtype=torch.long)
    for r, b in enumerate(batch):
        k = len(b["input_ids"])
        ids[r, :k] = torch.tensor(b["input_ids"])
        labels[r, :k] = torch.tensor(b["labels"])
        mask[r, :k] = 1
    return {"input_ids": ids, "labels": labels, "attention_mask": mask}


class Peaks(TrainerCallback):
    def __init__(self, trace: bool = False):
        self.per_step = []
        self.trace = trace
        self.step_marks = []

    def on_step_end(self, args, state, control, **kwargs):
        torch.cuda.synchronize()
        self.per_step.append([torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved()])
        if self.trace:
            self.step_marks.append(time.time_ns() // 1000)


SKIP_FRAMES = ("torch/nn/modules/module.py", "torch/utils/_contextlib.py")


def write_trace(path: Path, step_marks: list) -> int:
    """The recorded device trace, compacted: [action, addr, size, stream, stack index] per event."""
    snap = torch.cuda.memory._snapshot()
    stacks, index, events, times = [], {}, [], []
    for e in snap["device_traces"][0]:
        if e["action"] == "free_requested":  # one stream: free_completed follows at once
            continue
        frames = [f for f in (e.get("frames") or []) if not f["filename"].endswith(SKIP_FRAMES)][:5]
        sig = " < ".join(f"{'/'.join(f['filename'].split('/')[-2:])}:{f['line']}:{f['name']}" for f in frames)
        if sig not in index:
            index[sig] = len(stacks)
            stacks.append(sig)
        events.append([e["action"], e["addr"], e["size"], e.get("stream", 0), index[sig]])
        times.append(e.get("time_us", 0))
    with gzip.open(path, "wt") as fh:
        json.dump({"events": events, "times": times, "stacks": stacks, "step_marks": step_marks}, fh, separators=(",", ":"))
    return len(events)


def clean():
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    if hasattr(torch._C, "_cuda_clearCublasWorkspaces"):
        torch._C._cuda_clearCublasWorkspaces()  # as a fresh process has none yet
    torch.cuda.reset_peak_memory_stats()


def run(s: dict, workdir: str, trace_path: Path = None) -> dict:
    clean()
    if trace_path is not None:
        torch.cuda.memory._record_memory_history(enabled="all", context="alloc", stacks="python", max_entries=3_000_000)
    left_over = torch.cuda.memory_allocated()
    context_used = nvml_used()
    # amp-fp16: the model loaded in fp16 as 2023 recipes load it, Trainer(fp16=True) autocasts and
    # scales the loss; PEFT keeps the adapters in fp32 (get_peft_model autocast_adapter_dtype)
    dtype = {"bf16": torch.bfloat16, "amp-fp16": torch.float16}.get(s["precision"], torch.float32)
    model, config = build(s["preset"], dtype, s["attn"], **({"hf_config": s["hf_config"]} if s.get("hf_config") else {}))
    weights_allocated = torch.cuda.memory_allocated()
    if s["method"] == "lora":
        targets = "all-linear" if s["targets"] == "all-linear" else [f"{t}_proj" for t in s["targets"].split(",")]
        lcfg = peft.LoraConfig(r=s["rank"], lora_alpha=2 * s["rank"], lora_dropout=s["dropout"], target_modules=targets, task_type="CAUSAL_LM")
        model = peft.get_peft_model(model, lcfg)
    steps = s["steps"]
    accum = s.get("accum", 1)
    lengths = sample_lengths(steps * accum * s["batch"], s["seq"], s["lengths"], s.get("len_mean") or s["seq"] / 2, s.get("len_spread", 0.6), seed=LENGTH_SEED)
    args = TrainingArguments(
        output_dir=workdir,
        per_device_train_batch_size=s["batch"],
        gradient_accumulation_steps=accum,
        max_steps=steps,
        learning_rate=1e-4,
        bf16=s["precision"] in ("bf16", "amp-bf16"),
        fp16=s["precision"] == "amp-fp16",
        gradient_checkpointing=s["ckpt"],
        # transformers 4.35-4.x defaulted to the reentrant torch.utils.checkpoint, 5.x to the other
        gradient_checkpointing_kwargs={"use_reentrant": bool(s.get("reentrant"))} if s["ckpt"] else None,
        logging_strategy="no",
        save_strategy="no",
        report_to="none",
        disable_tqdm=True,
        remove_unused_columns=False,
        dataloader_num_workers=0,
        seed=42,
    )
    peaks = Peaks(trace=trace_path is not None)
    BATCH_LENGTHS.clear()
    trainer = Trainer(model=model, args=args, train_dataset=LengthsDataset(lengths, config.vocab_size, 99), data_collator=collate, callbacks=[peaks])
    try:
        trainer.train()
        torch.cuda.synchronize()
        out = {
            "allocated": torch.cuda.max_memory_allocated(),
            "reserved": torch.cuda.max_memory_reserved(),
            "device_used": nvml_used(),
            "context_used": context_used,
            "weights_allocated": weights_allocated,
            "left_over_before": left_over,
            "per_step": peaks.per_step,
            "optim": str(trainer.args.optim),
            "lengths_drawn": lengths if s["lengths"] == "varied" else None,
            # the padded length of each step, in the order run (the dataloader may build one batch ahead)
            "step_lengths": BATCH_LENGTHS[: steps * accum] if s["lengths"] == "varied" else None,
            "trainable_params": sum(p.numel() for p in model.parameters() if p.requires_grad),
            "total_params": sum(p.numel() for p in model.parameters()),
        }
        if trace_path is not None:
            out["trace_events"] = write_trace(trace_path, peaks.step_marks)
    finally:
        try:
            trainer.accelerator.free_memory()
        except Exception:  # noqa: BLE001
            pass
        del trainer, model
        if trace_path is not None:
            torch.cuda.memory._record_memory_history(enabled=None)
        clean()
    return out


def T(preset, method, seq, batch, ckpt, lengths="fixed", steps=3, precision="bf16", targets="all-linear", rank=16, dropout=0.05, len_mean=None, len_spread=0.6, attn="sdpa", accum=1, reentrant=False, hf_config=None):
    row = dict(preset=preset, method=method, seq=seq, batch=batch, ckpt=ckpt, lengths=lengths, steps=steps, precision=precision, targets=targets, rank=rank, dropout=dropout, len_mean=len_mean, len_spread=len_spread, attn=attn, accum=accum, reentrant=reentrant)
    return {**row, "hf_config": hf_config} if hf_config else row


L1, Q15, L8, Q7, Q3 = "meta-llama/Llama-3.2-1B", "Qwen/Qwen2.5-1.5B", "meta-llama/Llama-3.1-8B", "Qwen/Qwen2.5-7B", "Qwen/Qwen3-8B"
G2XL, L27 = "openai-community/gpt2-xl", "meta-llama/Llama-2-7b-hf"
# EleutherAI/gpt-j-6b config.json (not in the catalogue): gelu_new, one LayerNorm per layer feeding
# attention and MLP in parallel, rotary on 64 of each head's 256 dims, untied head
# microsoft/phi-2's shape: parallel block from one LayerNorm, partial rotary, gelu_new, resid_pdrop 0.1
PHI_2 = {"model_type": "phi", "hidden_size": 2560, "intermediate_size": 10240, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32, "vocab_size": 51200, "max_position_embeddings": 2048, "partial_rotary_factor": 0.4, "hidden_act": "gelu_new", "layer_norm_eps": 1e-05, "resid_pdrop": 0.1, "embd_pdrop": 0.0, "attention_dropout": 0.0, "qk_layernorm": False, "tie_word_embeddings": False, "rope_theta": 10000.0}
# facebook/opt-1.3b config.json (not in the catalogue): a plain MLP with ReLU (nn.ReLU saves its
# output, which fc2 saves too), pre-LayerNorm, dropout 0.1 after attention and after fc2, tied head
OPT_1_3B = {"model_type": "opt", "hidden_size": 2048, "ffn_dim": 8192, "num_hidden_layers": 24, "num_attention_heads": 32, "vocab_size": 50272, "max_position_embeddings": 2048, "do_layer_norm_before": True, "word_embed_proj_dim": 2048, "dropout": 0.1, "attention_dropout": 0.0, "activation_dropout": 0.0, "activation_function": "relu", "enable_bias": True, "layer_norm_elementwise_affine": True, "tie_word_embeddings": True, "pad_token_id": 1, "bos_token_id": 2, "eos_token_id": 2}
GPTJ_6B = {"model_type": "gptj", "n_embd": 4096, "n_layer": 28, "n_head": 16, "n_inner": None, "rotary_dim": 64, "n_positions": 2048, "vocab_size": 50400, "activation_function": "gelu_new", "layer_norm_epsilon": 1e-05, "attn_pdrop": 0.0, "embd_pdrop": 0.0, "resid_pdrop": 0.0, "tie_word_embeddings": False}

# Ordered by priority: each class gets rows early, in case the time runs out.
SCENARIOS = [
    T(L1, "lora", 2048, 1, False),
    T(L8, "lora", 2048, 1, True),
    T(L1, "lora", 4096, 1, True, lengths="varied", steps=40),
    T(Q15, "lora", 4096, 1, False),
    T(L8, "lora", 4096, 2, True, lengths="varied", steps=30),
    T("Qwen/Qwen2.5-0.5B", "full", 2048, 2, True, lengths="varied", steps=30, precision="amp-bf16"),
    T(L1, "lora", 8192, 1, True),
    T(L8, "lora", 1024, 4, False),
    T(Q7, "lora", 2048, 1, True, targets="q,v", dropout=0.0),
    T(Q15, "lora", 2048, 4, True, lengths="varied", steps=40),
    T(L1, "full", 2048, 1, False, precision="amp-bf16"),
    T(L1, "lora", 512, 8, False),
    T(Q3, "lora", 8192, 1, True),
    T(L8, "lora", 8192, 1, True, lengths="varied", steps=30),
    T(L1, "full", 4096, 2, True, lengths="varied", steps=30, precision="bf16"),
    T(Q15, "lora", 8192, 1, False),
    T(L8, "lora", 4096, 1, False),
    T(L1, "lora", 8192, 1, False, lengths="varied", steps=40),
    T(Q7, "lora", 4096, 2, True, lengths="varied", steps=30),
    T(L1, "lora", 2048, 1, True),
    T(Q15, "lora", 1024, 2, True, targets="q,v", dropout=0.0),
    T("Qwen/Qwen2.5-0.5B", "full", 4096, 1, False, precision="amp-bf16"),
    T("mistralai/Mistral-7B-v0.1", "lora", 2048, 4, True, lengths="varied", steps=30),
    T(L1, "lora", 1024, 4, False, targets="q,v", rank=8, dropout=0.0),
    T("meta-llama/Llama-3.2-3B", "full", 2048, 1, True, precision="bf16"),
    T("google/gemma-2-2b", "lora", 2048, 2, True, attn="eager"),
    # long runs: does reserved memory keep climbing after the longest batch, and does the recorded order replay?
    T(L1, "lora", 2048, 2, True, lengths="varied", steps=300),
    T(L1, "lora", 2048, 2, True, lengths="varied", steps=300, len_mean=384, len_spread=0.9),
    # tied embeddings with gradients held between micro-steps (training/tied-grad.ts): the head's gradient waits through backward
    T(L1, "full", 1024, 1, True, precision="bf16", accum=2),
    T("Qwen/Qwen2.5-0.5B", "full", 2048, 2, True, precision="amp-bf16", accum=2),
    # what 2023-24 recipes ran and the rows above do not: the reentrant checkpoint (t001 without it),
    # multi-query Falcon whose SDPA runs the math kernel, fused qkv / gate_up adapters, GPT-2's
    # dropouts (0.1 on attention, residuals and embeddings), an fp16 model under fp16 AMP
    T(L8, "lora", 2048, 1, True, reentrant=True),
    T("tiiuae/falcon-7b", "lora", 2048, 1, False),
    T("microsoft/Phi-3-mini-4k-instruct", "lora", 2048, 2, True),
    T(G2XL, "full", 1024, 4, False, precision="amp-bf16"),
    T(L1, "lora", 2048, 2, False, precision="amp-fp16"),
    # GPT-2's Python-composed gelu_new (training/act-saves.ts) elsewhere than t033's AMP: frozen
    # Linears under the Trainer's autocast over bf16 weights (with eager attention's softmax, which
    # autocast runs in fp32), full fine-tuning in bf16 and in fp32 (no autocast)
    T(G2XL, "lora", 1024, 4, False),
    T(G2XL, "lora", 1024, 2, False, attn="eager"),
    T("openai-community/gpt2", "full", 1024, 8, False),
    T(G2XL, "full", 512, 4, False, precision="fp32"),
    # full checkpointing over a LayerNorm under autocast: the recomputed layer's norm saves an fp32
    # cast of the checkpoint's bf16 input, not the input itself (activations.ts inputSavedAsIs)
    T(G2XL, "full", 1024, 4, True),
    T(G2XL, "lora", 1024, 4, True),
    # 2023's common LoRA recipe: Llama-2-7B loaded in fp16 under fp16 AMP (loss scaling), q / v or
    # all-linear adapters, with and without checkpointing, fixed and varied lengths
    T(L27, "lora", 4096, 1, True, precision="amp-fp16", targets="q,v", rank=8),
    T(L27, "lora", 2048, 4, True, lengths="varied", steps=40, precision="amp-fp16"),
    T(L27, "lora", 1024, 4, False, precision="amp-fp16", targets="q,v", rank=8),
    # gelu_new in a second family (training/act-saves.ts), GPT-J's own eager attention (fp32 q / k)
    T("EleutherAI/gpt-j-6b", "lora", 1024, 2, False, attn="eager", hf_config=GPTJ_6B),
    T("EleutherAI/gpt-j-6b", "lora", 2048, 1, True, attn="eager", hf_config=GPTJ_6B),
    # a parallel block whose config turns the residual dropout on (resid_pdrop 0.1, unlike the class default)
    T("microsoft/phi-2", "lora", 2048, 2, False, hf_config=PHI_2),
    T("microsoft/phi-2", "full", 1024, 4, True, hf_config=PHI_2),
    # ReLU MLPs (OPT): full fine-tuning in AMP and bf16, and LoRA
    T("facebook/opt-1.3b", "full", 2048, 2, False, precision="amp-bf16", hf_config=OPT_1_3B),
    T("facebook/opt-1.3b", "lora", 2048, 4, False, hf_config=OPT_1_3B),
    T("facebook/opt-1.3b", "full", 2048, 4, False, precision="bf16", hf_config=OPT_1_3B),
    # instruction-like lengths far below max_length: records keep coming (t027 is the 1B case)
    T(L8, "lora", 4096, 2, True, lengths="varied", steps=200, len_mean=512, len_spread=0.9),
    T(L1, "lora", 2048, 2, True, lengths="varied", steps=60, accum=4, len_mean=300, len_spread=0.9),
    # more orders of short samples (run each with its own MEASURE_SEED): where in the drawn orders' spread do real runs land?
    T(L1, "lora", 2048, 2, True, lengths="varied", steps=150, len_mean=384, len_spread=0.9),
    T(Q15, "lora", 4096, 2, True, lengths="varied", steps=150, len_mean=600, len_spread=0.9),
    T(L1, "full", 2048, 4, True, lengths="varied", steps=120, precision="bf16", len_mean=300, len_spread=0.9),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--deadline", type=float, default=1e9, help="seconds after start: start no scenario after this")
    ap.add_argument("--only", default="")
    ap.add_argument("--trace", action="store_true", help="record the allocator's history of each run: DIR/ID.trace.json.gz")
    a = ap.parse_args()
    t_start = time.time()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    env = {
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "peft": getattr(peft, "__version__", None),
        "cuda": torch.version.cuda,
        "gpu": torch.cuda.get_device_name(0),
        "gpu_total_bytes": torch.cuda.get_device_properties(0).total_memory,
        "python": platform.python_version(),
        "driver": pynvml.nvmlSystemGetDriverVersion() if _NVML is not None else None,
        "alloc_conf": os.environ.get("PYTORCH_CUDA_ALLOC_CONF"),
        "length_seed": LENGTH_SEED,
    }
    only = set(a.only.split(",")) if a.only else None
    rows = []
    for i, s in enumerate(SCENARIOS):
        rid = f"t{i:03d}"
        if only and rid not in only:
            continue
        if time.time() - t_start > a.deadline:
            print(f"{rid} skipped: deadline", file=sys.stderr, flush=True)
            continue
        t0 = time.time()
        try:
            m = run(s, "/tmp/measure-trainer-tmp", out / f"{rid}.trace.json.gz" if a.trace else None)
        except Exception as e:  # noqa: BLE001 - record and go on
            m = {"error": (type(e).__name__ + ": " + str(e)).splitlines()[0][:400]}
            clean()
        m["seconds"] = round(time.time() - t0, 1)
        rows.append({"id": rid, "source": "tools/measure/measure_trainer.py", "mode": "training", "settings": s, "env": env, "measured": m})
        (out / "rows.json").write_text(json.dumps(rows, indent=1, default=str) + "\n")
        brief = {k: (round(v / MiB) if isinstance(v, int) and k != "trainable_params" and k != "total_params" else v) for k, v in m.items() if k not in ("per_step", "lengths_drawn", "step_lengths")}
        print(f"{rid} {s['preset']} {s['method']} seq={s['seq']} b={s['batch']} ckpt={s['ckpt']} {s['lengths']} -> {brief}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
