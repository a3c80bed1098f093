import type { ModelArch } from '../types';

/**
 * The block traits a shape takes when nothing says otherwise: Llama's (Meta's llama `model.py`:
 * SwiGLU MLP, RMSNorm before attention and MLP, untied head, no biases). Used by the bare-count
 * guess (quick.ts), a custom architecture's defaults (scenario/arch.ts) and resolveModel.
 */
export const LLAMA_STYLE = {
  gatedMlp: true,
  norm: 'rmsnorm',
  normsPerLayer: 2,
  tiedEmbeddings: false,
  qkvBias: false,
  oBias: false,
  mlpBias: false,
} as const satisfies Partial<ModelArch>;
