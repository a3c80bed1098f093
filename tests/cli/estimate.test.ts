import { describe, expect, test } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/estimate';
import { ALL_KEYS, serializeScenario } from '../../src/core/scenario';
import type { Scenario } from '../../src/core/types';
import fixture from '../state/fixtures/links.v2.json';
import { DEFAULT_SCENARIO } from '../../src/core/scenario/schema';

const GIB = 2 ** 30;
const json = async (argv: string[]) => {
  const r = await main(argv);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};
const termBytes = (out: { terms: { id: string; bytes: number }[] }, id: string) => out.terms.find((t) => t.id === id)!.bytes;

// Llama-2-7b: 6,738,415,616 parameters (Meta model card / HF safetensors index; data/models.json).
const LLAMA2 = ['--model', 'meta-llama/Llama-2-7b-hf'];
const LLAMA2_PARAMS = 6_738_415_616;

describe('estimate CLI values', () => {
  test('quick 7b fp32: weights = 7e9 · 4 B = 26.08 GiB', async () => {
    const out = await json(['--params', '7b', '--weights', 'fp32', '--json']);
    expect(termBytes(out, 'weights')).toBe(28e9);
    expect((termBytes(out, 'weights') / GIB).toFixed(2)).toBe('26.08');
    expect(out.params.total).toBe(7e9);
  });

  test('Llama-2-7b nf4: published count; weights from QLoRA double-quant bits (docs/reference/formulas.md §2)', async () => {
    const out = await json([...LLAMA2, '--mode', 'inference', '--weights', 'nf4', '--batch', '1', '--prompt', '2048', '--gen', '256', '--json']);
    expect(out.params).toEqual({ total: LLAMA2_PARAMS, trainable: 0, active: LLAMA2_PARAMS });
    // block Linears 32·(4·4096² + 3·4096·11008) at 4 + 0.127 bits; embedding + head 2·32000·4096 and norms 65·4096 stay bf16
    const linear = 32 * (4 * 4096 ** 2 + 3 * 4096 * 11008);
    const expected = (linear * 4.127) / 8 + (2 * 32000 * 4096 + 65 * 4096) * 2;
    expect(termBytes(out, 'weights') / expected).toBeCloseTo(1, 2);
    // KV cache 2 · L · g · d · (prompt + gen) · b · 2 B (docs/reference/formulas.md §3)
    expect(termBytes(out, 'kv-cache')).toBe(2 * 32 * 32 * 128 * (2048 + 256) * 1 * 2);
    expect(out.allocatedBytes).toBeLessThanOrEqual(out.reservedBytes);
    expect(out.reservedBytes).toBeLessThanOrEqual(out.deviceBytes);
  });

  test('--gpu adds the fit against the nvidia-smi total (RTX 4090: 24564 MiB, RLinf #255)', async () => {
    const out = await json([...LLAMA2, '--weights', 'nf4', '--gpu', 'rtx-4090', '--json']);
    expect(out.gpu.id).toBe('rtx-4090');
    expect(out.gpu.capacityBytes).toBe(24564 * 2 ** 20);
    expect(out.gpu.headroomBytes).toBe(out.gpu.capacityBytes - out.deviceBytes);
    expect(out.gpu.fits).toBe(true);
    const big = await json(['--model', 'meta-llama/Llama-2-70b-hf', '--gpu', 'rtx-4090', '--json']);
    expect(big.gpu.fits).toBe(false); // 69B params · 2 B > 24 GiB
    // typed short names resolve to the catalogue id (A100 80GB: 81920 MiB, modal-labs PR #2797)
    const a100 = await json([...LLAMA2, '--gpu', 'a100-80gb', '--json']);
    expect(a100.gpu.id).toBe('a100-80gb-sxm4');
    expect(a100.gpu.capacityBytes).toBe(81920 * 2 ** 20);
    expect((await json([...LLAMA2, '--gpu', '4090', '--json'])).gpu.id).toBe('rtx-4090');
  });

  test('vLLM fit needs the KV pool to hold the batch: the CLI verdict is the core fitsWithin', async () => {
    // Llama-3.1-8B: 32 layers, 8 KV heads of 128 → 2·32·8·128·2 B = 128 KiB per token (bf16).
    // 64 sequences × (8192 + 1024) tokens = 589,824 tokens = 72 GiB of KV: no 24 GiB card holds it,
    // although vLLM's device total is its gpu_memory_utilization fill and so below capacity.
    const out = await json(['--model', 'meta-llama/Llama-3.1-8B', '--engine', 'vllm', '--batch', '64', '--prompt', '8192', '--gen', '1024', '--gpu', 'rtx-4090', '--json']);
    expect(out.deviceBytes).toBeLessThanOrEqual(out.gpu.capacityBytes);
    expect(64 * (8192 + 1024) * 2 * 32 * 8 * 128 * 2).toBe(72 * GIB);
    expect(out.gpu.fits).toBe(false);
  });

  test('--recommend, --solve and the speed bounds in JSON', async () => {
    const rec = await json(['--model', 'meta-llama/Llama-3.1-8B', '--prompt', '8192', '--gen', '256', '--recommend', '--json']);
    const r4090 = rec.recommend.find((g: { id: string }) => g.id === 'rtx-4090');
    expect(r4090).toMatchObject({ id: 'rtx-4090', fits: true, count: 1, capacityBytes: 24564 * 2 ** 20 });
    expect(rec.recommend.filter((g: { capacityBytes: number; fits: boolean }) => g.capacityBytes < 17 * GIB && g.fits)).toEqual([]);
    // each card's mark: "no" exactly where it does not fit, else fits or tight (at the 80 % band's upper end)
    for (const g of rec.recommend as { fits: boolean; mark: string }[]) expect(g.fits ? ['fits', 'tight'] : ['no']).toContain(g.mark);
    // Llama-2-7b: max_position_embeddings 4096, 256 of them generated
    const solved = await json(['--model', 'meta-llama/Llama-2-7b-hf', '--weights', 'fp16', '--gpu', 'a100-80gb', '--solve', '--json']);
    expect(solved.solve.maxContext).toBe(4096 - 256);
    expect(solved.solve.memoryAllowsLongerContext).toBe(true);
    expect(solved.solve.minGpus).toEqual({ gpus: 1, tp: 1, pp: 1 });
    // H100 SXM 3,350 GB/s over 8,030,261,248 · 2 B of weights + (2048 + 128) · 128 KiB of KV
    expect(Math.round(solved.speed.decodeTokensPerSecond)).toBe(Math.round(2039e9 / (6_738_415_616 * 2 + (2048 + 128) * 2 * 32 * 32 * 128 * 2)));
    const h100 = await json(['--model', 'meta-llama/Llama-3.1-8B', '--gpu', 'h100-sxm', '--json']);
    expect(Math.round(h100.speed.decodeTokensPerSecond)).toBe(Math.round(3350e9 / (8_030_261_248 * 2 + (2048 + 128) * 2 * 32 * 8 * 128 * 2)));
    expect(h100.speed.stepSeconds).toBeNull();
    const r = await main(['--model', 'meta-llama/Llama-3.1-8B', '--solve']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--solve needs --gpu');
  });

  test('readable output names the terms and the three totals in GiB and GB', async () => {
    const r = await main([...LLAMA2, '--weights', 'nf4', '--gpu', '24GiB']);
    expect(r.code).toBe(0);
    for (const s of ['weights', 'kv-cache', 'Allocated', 'Reserved', 'Device', 'GiB', 'GB', '6,738,415,616', 'fits']) expect(r.stdout).toContain(s);
  });

  test('training output names gradient accumulation and kept gradients, with the note', async () => {
    const r = await main([...LLAMA2, '--mode', 'training', '--precision', 'bf16', '--grad-accum', '4', '--grad-zero', 'zeros']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(grad-accum 4)');
    expect(r.stdout).toContain('gradients kept between steps');
    expect(r.stdout).toContain('Gradients stay allocated between backward passes');
  });

  test('training output names the memory-saving techniques; in-backward leaves only the 32000 × 4096 head gradient', async () => {
    const argv = [...LLAMA2, '--mode', 'training', '--precision', 'bf16', '--compile', 'inductor', '--loss-chunks', '8', '--optim-step', 'in-backward', '--act-offload', 'cpu', '--grad-ckpt', 'full'];
    const r = await main(argv);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Memory:   torch.compile (inductor), loss in 8 chunks, optimizer step in backward, activations offloaded to CPU');
    expect(termBytes(await json([...argv, '--json']), 'gradients')).toBe(32000 * 4096 * 2);
  });
  test('a config.json file gives the same count as the preset', async () => {
    // meta-llama/Llama-2-7b-hf config.json (the published file's architecture fields)
    const config = {
      architectures: ['LlamaForCausalLM'],
      model_type: 'llama',
      hidden_size: 4096,
      intermediate_size: 11008,
      num_attention_heads: 32,
      num_hidden_layers: 32,
      num_key_value_heads: 32,
      vocab_size: 32000,
      max_position_embeddings: 4096,
      rms_norm_eps: 1e-5,
      hidden_act: 'silu',
      tie_word_embeddings: false,
    };
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify(config));
    const out = await json(['--model', path, '--json']);
    expect(out.params.total).toBe(LLAMA2_PARAMS);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ not json');
    const r = await main(['--model', broken]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot read config .*broken\.json/);
  });

  test('a share URL or its query string as the only argument equals the flags', async () => {
    const flags = await json([...LLAMA2, '--weights', 'nf4', '--batch', '4', '--json']);
    const url = await json(['https://example.org/?v=1&model=meta-llama/Llama-2-7b-hf&weights=nf4&batch=4', '--json']);
    const query = await json(['v=1&model=meta-llama/Llama-2-7b-hf&weights=nf4&batch=4', '--json']);
    expect(url).toEqual(flags);
    expect(query).toEqual(flags);
  });

  test('--network dispatches to the layer-stack estimate (ResNet-50: 25,557,032 params, torchvision)', async () => {
    const r = await main(['--network', 'resnet-50', '--batch', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('25,557,032');
  });

  test('--help lists every schema key', async () => {
    const r = await main(['--help']);
    expect(r.code).toBe(0);
    for (const k of ALL_KEYS) expect(r.stdout).toContain(`--${k} `);
  });
});

describe('estimate CLI errors: exit 2, one line on stderr', () => {
  test.each([
    [['--bach', '4'], /unknown flag --bach \(did you mean --batch\?\)/],
    [['--weights', 'int3'], /weights: 'int3' is not valid; expected one of fp32/],
    [['--batch', '0'], /batch: 0 is out of range \[1, 65536\]/],
    [['--batch'], /--batch needs a value/],
    [['--batch', '2', '--batch', '3'], /--batch is given twice/],
    [['--model', 'meta-llama/Llama-2-7b'], /unknown preset .* did you mean meta-llama\/Llama-2-7b-hf/],
    [['--mode', 'training', '--method', 'qlora', '--weights', 'gguf-q4_k_m'], /method=qlora trains LoRA adapters over a quantized base/],
    [['--gpus', '6', '--tp', '4'], /6 GPUs cannot be split into groups of tensor parallel 4 × pipeline parallel 1 = 4/],
    [['--json=1'], /--json takes no value/],
    [['stray'], /unexpected argument 'stray'/],
  ])('%j', async (argv, message) => {
    const r = await main(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  test('warnings go to stderr without failing (Llama-2-7b context 4096)', async () => {
    const r = await main([...LLAMA2, '--prompt', '4000', '--gen', '200']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^warning: 4200 tokens exceed the model's context of 4096/);
  });

  test('generation flags warn for an embedding model, image flags for a text model; a bad resolution exits 2', async () => {
    const enc = await main(['--model', 'BAAI/bge-m3', '--prompt', '512', '--gen', '64']);
    expect(enc.code).toBe(0);
    expect(enc.stderr.trimEnd().split('\n')).toEqual(['warning: gen does not apply to an encoder-only model (xlm-roberta), which generates nothing']);
    const text = await main([...LLAMA2, '--images', '2']);
    expect(text.stderr.trimEnd()).toBe('warning: images does not apply to a model without a vision tower (llama)');
    const bad = await main(['--model', 'Qwen/Qwen2-VL-7B-Instruct', '--resolution', '0']);
    expect([bad.code, bad.stderr.trimEnd().split('\n').length]).toEqual([2, 1]);
    expect(bad.stderr).toMatch(/resolution/);
  });
});

describe('as a process', () => {
  test('npx tsx src/cli/estimate.ts prints JSON and exits 0; a bad flag exits 2', () => {
    const out = JSON.parse(execFileSync('npx', ['tsx', 'src/cli/estimate.ts', '--params', '7b', '--weights', 'fp32', '--json'], { encoding: 'utf8' }));
    expect(out.terms.find((t: { id: string }) => t.id === 'weights').bytes).toBe(28e9);
    const bad = spawnSync('npx', ['tsx', 'src/cli/estimate.ts', '--nope'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
  });
});

describe('estimate CLI: 80 % bands', () => {
  test('--json carries bands [lo, hi] for each total and the basis they rest on', async () => {
    const out = await json([...LLAMA2, '--weights', 'bf16', '--json']);
    expect(Object.keys(out.bands).sort()).toEqual(['allocatedBytes', 'deviceBytes', 'reservedBytes']);
    // inference on transformers with a named model: validated; the band spans the independent check's class
    // "current model families" (median 4 %, p90 18 %, bias +2 %): ±(4 + ¾ · 14) = ±14.5 %
    expect(out.bandBasis.kind).toBe('validated');
    expect(out.bandBasis.signedPct).toEqual([-14.5, 14.5]);
    expect(out.bandBasis.independent).toMatchObject({ date: '2026-11-25', commit: '759022c' });
    for (const k of ['allocatedBytes', 'reservedBytes', 'deviceBytes']) {
      const [lo, hi] = out.bands[k];
      expect(lo).toBeCloseTo(out[k] / 1.145, 0);
      expect(hi).toBeCloseTo(out[k] / 0.855, 0);
    }
    // a bare parameter count: guessed shape
    const quick = await json(['--params', '7b', '--json']);
    expect(quick.bandBasis.kind).toBe('guessed-shape');
    expect(quick.bands.deviceBytes[0]).toBeLessThan(quick.deviceBytes);
    expect(quick.bands.deviceBytes[1]).toBeGreaterThan(quick.deviceBytes);
  });

  test('text output states the band and says NOT VALIDATED for LoRA', async () => {
    const r = await main([...LLAMA2, '--mode', 'training', '--method', 'lora']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^80 % band: allocated [\d.]+–[\d.]+ GiB · reserved [\d.]+–[\d.]+ GiB · device [\d.]+–[\d.]+ GiB$/m);
    expect(r.stdout).toContain('signed error -50.0 % to +');
    expect(r.stdout).toContain('NOT VALIDATED');
  });
});

describe('estimate CLI --timeline', () => {
  test('JSON timeline: one point per layer and phase; two fixed-length steps of Llama-2-7b (32 layers)', async () => {
    const out = await json([...LLAMA2, '--mode', 'training', '--method', 'lora', '--seq', '512', '--timeline', '--json']);
    // per step: 32 forward layers + loss, loss/head + 32 backward layers + outer gradients, the optimizer step; plus the setup point
    expect(out.timeline.length).toBe(1 + 2 * (33 + 34 + 1));
    expect(out.timeline[1]).toMatchObject({ t: 1, step: 0, phase: 'forward' });
    expect(new Set(out.timeline.map((p: { phase: string }) => p.phase))).toEqual(new Set(['forward', 'backward', 'optimizer']));
    for (const p of out.timeline) expect(p.reserved).toBeGreaterThanOrEqual(p.allocated);
    // fixed lengths: the replay's requested peak is the closed form's allocated peak
    expect(Math.abs(out.timelinePeaks.requested / out.allocatedBytes - 1)).toBeLessThan(0.001);
    expect(out.timelinePeaks.lengths).toEqual([512, 512]);
  });

  test('lengths=varied: reserved from the replay, the same in JSON and in the timeline peaks', async () => {
    const out = await json([...LLAMA2, '--mode', 'training', '--method', 'lora', '--seq', '1024', '--lengths', 'varied', '--timeline', '--json']);
    // the records of a run: lengths rise step by step to seq (the first step at 1024 ends them), at rising step numbers
    const { lengths, runSteps } = out.timelinePeaks as { lengths: number[]; runSteps: number[] };
    expect(lengths.at(-1)).toBe(1024);
    expect(runSteps[0]).toBe(0);
    expect(runSteps).toHaveLength(lengths.length);
    lengths.slice(1).forEach((n, i) => expect(n).toBeGreaterThan(lengths[i]));
    expect(out.reservedBytes).toBe(Math.max(out.allocatedBytes, out.timelinePeaks.reserved));
    expect(termBytes(out, 'allocator-reserve')).toBe(out.reservedBytes - out.allocatedBytes);
  });

  test('text output lists each phase', async () => {
    const r = await main([...LLAMA2, '--mode', 'training', '--method', 'lora', '--seq', '512', '--timeline']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/step {2}0 seq 512 +forward +allocated [\d.]+ GiB, reserved [\d.]+ GiB/);
    expect(r.stdout).toMatch(/peak: allocated/);
  });
});

describe('--rule-of-thumb DTYPE (the guides\u2019 rule beside the estimate)', () => {
  test('Llama-2-7b training, int8, batch 50, seq 2048: ruleOfThumb.bytes = 4·P + 50·(4096 + 11008)·2048·32 ≈ 77 GB', async () => {
    const out = await json([...LLAMA2, '--mode', 'training', '--rule-of-thumb', 'int8', '--batch', '50', '--seq', '2048', '--json']);
    expect(out.ruleOfThumb.bytes).toBe(4 * LLAMA2_PARAMS + 50 * (4096 + 11008) * 2048 * 32);
    expect(Math.round(out.ruleOfThumb.bytes / 1e9)).toBe(76);
    expect(Math.abs(out.ruleOfThumb.bytes / 77e9 - 1)).toBeLessThan(0.01);
    expect(out.ruleOfThumb.terms.map((t: { id: string }) => t.id)).toEqual(['weights', 'gradients', 'optimizer', 'activations']);
    expect(out.ruleOfThumb.largestBatch).toBeNull();
    // the full estimate is still there beside it
    expect(out.allocatedBytes).toBeGreaterThan(out.ruleOfThumb.bytes);
  });

  test.each([
    ['fp64', 7e9 * 8, '52.15'],
    ['fp32', 7e9 * 4, '26.08'],
    ['fp16', 7e9 * 2, '13.04'],
    ['int8', 7e9, '6.52'],
    ['int4', 7e9 / 2, '3.26'],
  ] as const)('--params 7b --weights %s --mode inference: %d B = %s GiB of weights', async (w, bytes, gib) => {
    const out = await json(['--params', '7b', '--weights', w, '--mode', 'inference', '--json']);
    expect(termBytes(out, 'weights')).toBe(bytes);
    expect((termBytes(out, 'weights') / GIB).toFixed(2)).toBe(gib);
  });

  test('text output lists the rule and the reasons; a bad dtype exits 2', async () => {
    const r = await main([...LLAMA2, '--mode', 'training', '--rule-of-thumb', 'fp16']);
    expect(r.stdout).toMatch(/Rule of thumb \(every parameter at fp16, 2 B\)/);
    expect(r.stdout).toMatch(/master copy/);
    const bad = await main([...LLAMA2, '--rule-of-thumb', 'int3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/rule-of-thumb: 'int3' is not a dtype/);
    expect((await main(['--rule-of-thumb'])).code).toBe(2);
  });
});

describe('share links of every view of the v2 release (tests/state/fixtures/links.v2.json) through the same codec', () => {
  const links = [...fixture.calculator, ...fixture.lab, ...fixture.layers];
  test.each(links.map((l) => [l.what, l] as const))('%s', async (_what, l) => {
    const r = await main([`https://example.org/sub/?${l.link}`, '--json']);
    if (l.decoded.errors.length > 0) {
      // what the page named in its notice, the CLI refuses in one stderr line
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      return;
    }
    // the scenario that release read from the link (keys added since at their defaults), given as flags, prints the same estimate
    const flags = Object.entries(serializeScenario({ ...DEFAULT_SCENARIO, ...(l.decoded.scenario as unknown as Scenario) })).flatMap(([k, v]) => [`--${k}`, v]);
    const viaFlags = await main([...flags, '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(viaFlags.stdout);
    // the link may warn of more (keys it gives at their default, a newer version), never of less
    for (const line of viaFlags.stderr.split('\n').filter(Boolean)) expect(r.stderr).toContain(line);
  });
});

describe('llama.cpp host RAM', () => {
  test('-ngl 20 of 32: JSON engine.host and a text line; the KV of the 12 host layers by hand', async () => {
    const args = [...LLAMA2, '--engine', 'llama.cpp', '--weights', 'gguf-q4_k_m', '--prompt', '2048', '--gen', '256', '--ngl', '20'];
    const out = await json([...args, '--json']);
    expect(out.engine.host.kv).toBe(12 * 2 * 4096 * 2 * 2304);
    const r = await main(args);
    expect(r.stdout).toMatch(/^Host RAM: [\d.]+ GiB \(token embeddings and output [\d.]+, layers on the CPU [\d.]+, their KV 0\.42, buffers [\d.]+\)$/m);
  });
});

describe('estimate CLI model line', () => {
  test('a preset with architecture keys names what was edited, not the preset alone', async () => {
    const r = await main(['model=meta-llama/Llama-2-7b-hf&layers=16&kv-heads=8']);
    expect(r.code).toBe(0);
    // Llama-2-7b has 32 layers and 32 KV heads (config.json): both keys differ from it
    expect(r.stdout.split('\n')[0]).toBe('Model:    meta-llama/Llama-2-7b-hf, edited: layers 16, kv-heads 8');
    // 16 layers of 4·4096² + 3·4096·11008 + 2·4096 with 8 KV heads: q and o 4096², k and v 4096·1024 each
    const layer = 2 * 4096 ** 2 + 2 * 4096 * 1024 + 3 * 4096 * 11008 + 2 * 4096;
    expect(r.stdout).toContain(`total ${((16 * layer + 2 * 32000 * 4096 + 4096) / 1e9).toFixed(2)} B`);
  });
  test('a changed family label is named, not echoed (it is free text: "NaN" is a valid label)', async () => {
    const r = await main(['model=meta-llama/Llama-2-7b-hf&family=NaN&layers=16']);
    expect(r.stdout.split('\n')[0]).toBe('Model:    meta-llama/Llama-2-7b-hf, edited: family, layers 16');
  });
  test('an override equal to the preset is not an edit', async () => {
    const r = await main(['model=meta-llama/Llama-2-7b-hf&layers=32']);
    expect(r.stdout.split('\n')[0]).toBe('Model:    meta-llama/Llama-2-7b-hf');
  });
});
