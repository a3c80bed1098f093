/**
 * Names of the architecture fields (the editor behind "Edit architecture fields", loaded on first
 * open): kept apart from the scenario labels so the first screen does not carry them.
 */
import type { Lang } from '../../state/store';
import type { ArchProp } from './scenario-labels';
import { zhTables } from './zh-loader';

/** Architecture field names; a key missing here falls back to the schema's external name. */
export const ARCH_LABEL_EN: Partial<Record<ArchProp, string>> = {
  family: 'Family',
  hidden: 'Hidden size',
  layers: 'Layers',
  heads: 'Attention heads',
  kvHeads: 'KV heads',
  headDim: 'Head dim',
  ffn: 'MLP intermediate size',
  vocab: 'Vocabulary',
  gatedMlp: 'Gated MLP (SwiGLU)',
  norm: 'Norm',
  normsPerLayer: 'Norms per layer',
  tiedEmbeddings: 'Tied embeddings',
  qkvBias: 'q/k/v bias',
  oBias: 'Attention output bias',
  mlpBias: 'MLP bias',
  remoteCode: 'Own modeling code (trust_remote_code)',
  alibi: 'ALiBi positions',
  normHead: 'Normalised LM head (Baichuan2)',
  mlpAct: 'MLP activation',
  residDropout: 'Residual dropout',
  maxContext: 'Max context',
  'moe.experts': 'Experts',
  'moe.expertsPerToken': 'Experts per token',
  'moe.expertFfn': 'Expert MLP size',
  'moe.sharedExperts': 'Shared experts',
  'moe.sharedFfn': 'Shared expert MLP size',
  'moe.denseLayers': 'Leading dense layers',
  'moe.layerFreq': 'MoE every n-th layer',
};

/** An architecture field's name, if it has one here. */
export function archLabel(lang: Lang, prop: ArchProp): string | undefined {
  const zh = lang === 'zh' ? zhTables() : null;
  return zh?.ARCH_LABEL_ZH[prop] ?? ARCH_LABEL_EN[prop];
}
