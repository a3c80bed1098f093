/**
 * The recurrent-state term of hybrid models (model/hybrid.ts): conv + SSM / delta-rule state of
 * every mixer layer, a fixed size per sequence. transformers allocates it for the batch with the
 * cache (`HybridMambaAttentionDynamicCache.__init__` in models/jamba/modeling_jamba.py and
 * models/bamba/modeling_bamba.py; `Qwen3NextDynamicCache` fills it at prefill); vLLM takes one
 * state slot per running sequence from the same pool as the KV blocks
 * (`v1/kv_cache_interface.py` MambaSpec, one block per request and mamba layer).
 */
import type { Ctx } from '../estimate-context';
import { term } from '../estimate-context';
import { add, mul, sym } from '../formula';
import { mixerLayers, type StateSize } from '../model/hybrid';
import type { TensorGroup } from '../runtime';
import type { HybridArch, Term } from '../types';

const SOURCE: Record<'transformers' | 'vllm', string> = {
  transformers: 'transformers models/jamba/modeling_jamba.py HybridMambaAttentionDynamicCache (conv d_conv columns), models/bamba/modeling_bamba.py, models/qwen3_next Qwen3NextDynamicCache',
  vllm: 'vllm model_executor/layers/mamba/mamba_utils.py MambaStateShapeCalculator (conv k − 1 columns); v1/kv_cache_interface.py MambaSpec (one slot per sequence)',
};

/**
 * The term: n_mix·(conv·e + ssm·e_ssm)·seqs, per GPU. `seqs` = the sequences whose state this GPU
 * holds (the batch, times the pipeline stage's share of layers; vLLM: the slots the pool grants).
 */
export function stateTerm(ctx: Ctx, m: HybridArch, st: StateSize, e: number, seqs: number, engine: 'transformers' | 'vllm'): Term {
  const eSsm = m.stateFp32 ? 4 : e;
  const perLayer = add(mul(sym('conv', st.conv), sym('e', e)), mul(sym('ssm', st.ssm), sym('e_ssm', eSsm)));
  return term(ctx, 'recurrent-state', mul(sym('n_mix', mixerLayers(m)), perLayer, sym('seqs', seqs)), {
    values: { mixer: m.mixer, k: m.convKernel, t: ctx.s.tp },
    source: SOURCE[engine],
    confidence: 'derived',
  });
}

/** Two tensors (conv, SSM) per mixer layer for the allocator's segment rounding. */
export function stateTensors(m: HybridArch, st: StateSize, sequences: number, e: number): TensorGroup[] {
  const n = mixerLayers(m);
  return [
    { bytes: st.conv * e * sequences, count: n },
    { bytes: st.ssm * (m.stateFp32 ? 4 : e) * sequences, count: n },
  ];
}
