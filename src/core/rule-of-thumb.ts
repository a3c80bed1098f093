/**
 * The guides' rule of thumb, beside the full estimate: every parameter at one width b (the
 * precision table: fp64 8, fp32 4, fp16/bf16 2, int8 1, int4 0.5 B), and for training
 *   weights P·b + gradients P·b + AdamW's two moments 2·P·b + batch · (h + i) · seq · L · b
 * (training/quick.ts classicTraining). Llama-2-7b in int8 at batch 50, seq 2048: 6.74 + 6.74 +
 * 13.48 GB + 50 × 0.99 GB ≈ 76.4 GB. At inference the rule is the weights alone.
 * Each of its terms is set against the estimate's terms of the same kind, with the reason they differ.
 */
import { bytesPerParamNominal } from './formats/weights';
import { resolveGpu } from './gpus';
import { classicMaxBatch, classicTraining } from './training/quick';
import type { Estimate, Message, ModelArch, Result, Scenario, TermId } from './types';

export const RULE_DTYPES = ['fp64', 'fp32', 'fp16', 'bf16', 'int8', 'int4'] as const;
export type RuleDtype = (typeof RULE_DTYPES)[number];

export type RuleTermId = 'weights' | 'gradients' | 'optimizer' | 'activations';

export interface RuleTerm {
  id: RuleTermId;
  bytes: number;
  formula: string;
  values: Record<string, number>;
}

/** One kind of memory: the rule's bytes, the estimate's, and why they differ ('other' = what the rule leaves out). */
export interface RuleComparison {
  id: RuleTermId | 'other';
  rule: number;
  estimate: number;
  /** the estimate's terms counted here */
  terms: TermId[];
  /** code `rule.why.<id>` (the page translates it) */
  reason: Message;
}

export interface RuleOfThumb {
  dtype: RuleDtype;
  bytesPerParam: number;
  bytes: number;
  terms: RuleTerm[];
  /** largest batch whose rule-of-thumb total fits the scenario's GPU; null without a GPU or at inference */
  largestBatch: number | null;
  comparison: RuleComparison[];
}

/** The estimate's terms of each kind the rule prices (master weights go with the optimizer, as in ZeRO's K = 12). */
const KIND: Record<RuleTermId, TermId[]> = {
  weights: ['weights', 'lora-adapters'],
  gradients: ['gradients', 'zero-grad-buffers', 'zero-step-grads'],
  optimizer: ['optimizer', 'master-weights'],
  activations: ['activations'],
};

/** Why each kind differs (English; the page translates by the code rule.why.<id>). */
const RULE_REASONS: Record<RuleTermId | 'other', string> = {
  weights: 'The rule prices every weight at one width; the estimate uses the scenario’s storage format, and LoRA / QLoRA keep a frozen base.',
  gradients: 'The rule gives every weight a gradient at that width; the estimate counts gradients of the trained parameters only, in the training dtype.',
  optimizer: 'The rule keeps AdamW’s two moments at the weight width; PyTorch keeps them in the parameter dtype (fp32 under AMP), plus an fp32 master copy in mixed precision.',
  activations: 'The rule saves (h + i) values per token per layer; the estimate counts what autograd saves: attention inputs and outputs, norms, the MLP’s gate / up / activation outputs.',
  other: 'The rule leaves out the logits and loss, the KV cache, workspaces, the allocator’s cached blocks and the CUDA context.',
};

export function isRuleDtype(x: string): x is RuleDtype {
  return (RULE_DTYPES as readonly string[]).includes(x);
}

const nonNeg = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);

/** The rule of thumb for `s` on its resolved architecture, set against the estimate `e`. */
export function ruleOfThumb(s: Scenario, arch: ModelArch, e: Estimate, dtype: string): Result<RuleOfThumb> {
  if (!isRuleDtype(dtype)) {
    return {
      ok: false,
      errors: [
        {
          key: 'rule-of-thumb',
          code: 'invalid-value',
          message: `rule-of-thumb: '${dtype.slice(0, 20)}' is not a dtype; expected one of ${RULE_DTYPES.join(', ')}`,
          params: { allowed: RULE_DTYPES.join(', ') },
        },
      ],
    };
  }
  const b = bytesPerParamNominal(dtype);
  const P = e.params.total;
  const training = s.mode === 'training';
  const perSample = training ? nonNeg(arch.hidden + arch.ffn) * nonNeg(s.seq) * nonNeg(arch.layers) * b : 0;
  const c = classicTraining({ params: P, bytesPerParam: b, perSampleBytes: perSample, batch: s.batch });
  const terms: RuleTerm[] = [{ id: 'weights', bytes: c.weights, formula: 'P · b', values: { P, b } }];
  if (training) {
    terms.push(
      { id: 'gradients', bytes: c.gradients, formula: 'P · b', values: { P, b } },
      { id: 'optimizer', bytes: c.optimizer, formula: '2 · P · b', values: { P, b } },
      { id: 'activations', bytes: c.activations, formula: 'batch · (h + i) · seq · L · b', values: { batch: s.batch, h: arch.hidden, i: arch.ffn, seq: s.seq, L: arch.layers, b } },
    );
  }
  const bytes = terms.reduce((a, t) => a + t.bytes, 0);
  const gpu = s.gpu ? resolveGpu(s.gpu) : undefined;
  const largestBatch = training && gpu ? classicMaxBatch({ params: P, bytesPerParam: b, perSampleBytes: perSample }, gpu.capacityBytes) : null;
  const counted = new Set<TermId>();
  const comparison: RuleComparison[] = terms.map((t) => {
    const ids = KIND[t.id].filter((id) => e.terms.some((x) => x.id === id));
    for (const id of ids) counted.add(id);
    const estimate = e.terms.filter((x) => ids.includes(x.id)).reduce((a, x) => a + x.bytes, 0);
    return { id: t.id, rule: t.bytes, estimate, terms: ids, reason: { code: `rule.why.${t.id}`, text: RULE_REASONS[t.id] } };
  });
  const rest = e.terms.filter((x) => !counted.has(x.id));
  // what the rule leaves out: the remaining terms (loss, workspaces, reserved cache, context) — their
  // sum, as for the kinds above; the device total is a peak, not the sum of every term
  const other = rest.reduce((a, x) => a + x.bytes, 0);
  comparison.push({ id: 'other', rule: 0, estimate: other, terms: rest.map((x) => x.id), reason: { code: 'rule.why.other', text: RULE_REASONS.other } });
  return { ok: true, value: { dtype, bytesPerParam: b, bytes, terms, largestBatch, comparison } };
}
