/**
 * Scenario checks before estimating: ranges from the shared schema (scenario/schema.ts) and
 * combinations no runtime supports. Each problem is a FieldError on the key to fix.
 */
import { brokenRules, otherKey, type RuleArch } from './scenario/conflicts';
import { SCENARIO_FIELDS } from './scenario/schema';
import type { FieldError, ModelArch, Scenario } from './types';
import { MAX_DIM } from './model/fields';

const err = (key: string, code: string, message: string, params?: Record<string, number | string>): FieldError => (params ? { key, code, message, params } : { key, code, message });

/** Ranges and enum values of every scalar key (NaN, Infinity and out-of-range numbers included). */
export function checkRanges(s: Scenario): FieldError[] {
  const out: FieldError[] = [];
  for (const f of SCENARIO_FIELDS) {
    const v = s[f.prop] as unknown;
    const k = f.kind;
    if (k.type === 'int' || k.type === 'float') {
      if (v === null && k.type === 'int' && k.nullToken !== undefined) continue;
      const ok = typeof v === 'number' && Number.isFinite(v) && v >= k.min && v <= k.max && (k.type === 'float' || Number.isInteger(v));
      if (!ok) out.push(err(f.prop, 'out-of-range', `${f.name}: expected ${k.type === 'int' ? 'a whole number' : 'a number'} from ${k.min} to ${k.max}`, { min: k.min, max: k.max }));
    } else if (k.type === 'enum') {
      if (!k.values.includes(String(v))) out.push(err(f.prop, 'invalid-value', `${f.name}: expected one of ${k.values.join(', ')}`));
    }
  }
  if (!Array.isArray(s.loraTargets)) out.push(err('loraTargets', 'invalid-value', 'lora-targets: expected a list'));
  if (s.params !== null && !(typeof s.params === 'number' && Number.isFinite(s.params) && s.params >= 1 && s.params <= 1e15)) {
    out.push(err('params', 'out-of-range', 'params: expected a parameter count from 1 to 1e15'));
  }
  return out;
}

/**
 * Combinations that no runtime accepts: every rule of the one table (scenario/conflicts.ts) that
 * `s` breaks, the shape rules once `arch` is known. Run after checkRanges passed.
 */
export function checkCombinations(s: Scenario, arch: RuleArch = null, only?: 'arch'): FieldError[] {
  return brokenRules(s, arch, only).map((r) => err(r.showOn ?? r.key, r.id, r.words(s, arch), { with: otherKey(r, s), ...r.params?.(s, arch) }));
}

/** Shape checks once the architecture is known. */
export function checkArch(s: Scenario, arch: ModelArch): FieldError[] {
  const out: FieldError[] = [];
  const dims: (keyof ModelArch)[] = ['hidden', 'layers', 'heads', 'kvHeads', 'headDim', 'ffn', 'vocab'];
  for (const k of dims) {
    const v = arch[k];
    if (!(typeof v === 'number' && Number.isFinite(v) && v >= 1 && v <= MAX_DIM)) out.push(err('arch', 'arch-dim', `arch.${k}: expected a positive whole number`, { field: k }));
  }
  if (out.length > 0) return out;
  const bad = badNumber(arch, 'arch');
  if (bad) return [err('arch', 'arch-number', `${bad}: expected a finite, non-negative number`, { field: bad })];
  if (arch.kvHeads > arch.heads) out.push(err('arch', 'arch-kv-heads', 'arch.kvHeads cannot exceed arch.heads'));
  const h = arch.hybrid;
  if (h) {
    // the layer pattern (hybrid-config.ts) fixes which layer is which: a bare layer count cannot change it
    const pattern = h.blocks.reduce((n, b) => n + b.count, 0);
    if (pattern !== arch.layers) out.push(err('layers', 'hybrid-layers', `layers (${arch.layers}) cannot differ from the ${pattern} layers of this hybrid model's layer pattern`, { layers: pattern }));
    if (s.mode === 'inference' && s.engine === 'llama.cpp') {
      out.push(
        err('engine', 'llamacpp-hybrid', `llama.cpp's recurrent-state cache (llama-memory-recurrent) for ${arch.family} is not modelled yet: choose the transformers or vLLM engine`, {
          family: arch.family,
        }),
      );
    }
    // vLLM's model registry (vllm/model_executor/models/registry.py) has no RWKV model
    if (s.mode === 'inference' && s.engine === 'vllm' && h.mixer === 'rwkv7') {
      out.push(err('engine', 'vllm-rwkv7', 'vLLM has no RWKV-7 model (its model registry lists none): choose the transformers engine, which runs it through flash-linear-attention'));
    }
  }
  return out;
}

/** Path of the first nested number (MoE, MLA, sliding window, …) that is NaN, infinite or negative. */
function badNumber(v: unknown, path: string): string | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 && v <= 2 ** 40 ? null : path;
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const b = badNumber(x, `${path}.${k}`);
      if (b) return b;
    }
  }
  return null;
}
