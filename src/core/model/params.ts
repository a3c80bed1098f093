/**
 * countParams: exact parameter counts by role from a ModelArch.
 * Formulas: docs/reference/formulas.md §1.1 (dense decoder; checked against Llama-2-7b 6,738,415,616 and
 * Llama-3-8B 8,030,261,248), §1.2 (MoE total/active; Mixtral 46,702,792,704 / 12,879,925,248),
 * §1.3 (MLA; DeepSeek-V3 671,026,419,200). Structure equals Megatron-LM
 * `megatron/training/theoretical_memory_usage.py` plus the biases and norms it ignores.
 */
import type { ModelArch, ParamBreakdown } from '../types';
import { blockKinds, linearElements, moeLayerCount, outerParams } from './tensors';

/** Parameter counts by role (total, per-token active, embedding, head, block Linears, other). */
export function countParams(arch: ModelArch): ParamBreakdown {
  const outer = outerParams(arch);
  let blockLinear = 0;
  let blockOther = 0;
  let perLayer = 0;
  let largestLinear = 0;
  let inactive = 0;
  for (const kind of blockKinds(arch)) {
    const lin = linearElements(kind);
    blockLinear += kind.count * lin;
    blockOther += kind.count * kind.other;
    perLayer = Math.max(perLayer, lin + kind.other);
    for (const t of kind.linears) largestLinear = Math.max(largestLinear, t.din * t.dout);
  }
  if (arch.moe) {
    const moe = blockKinds(arch).find((k) => k.kind === 'moe');
    const idle = arch.moe.experts - arch.moe.expertsPerToken;
    if (moe) inactive = moeLayerCount(arch) * idle * moe.expertParams;
  }
  const other = blockOther + outer.other;
  const total = outer.embedding + outer.lmHead + blockLinear + other;
  return {
    total,
    active: total - inactive,
    embedding: outer.embedding,
    lmHead: outer.lmHead,
    blockLinear,
    other,
    largestLinear,
    perLayer,
  };
}
