import type { TermId } from '../../core/types';

/** One colour per term, readable on both light and dark backgrounds (same order as the chart stack). */
export const TERM_COLOR: Record<TermId, string> = {
  weights: '#4e79a7',
  'lora-adapters': '#59a14f',
  'kv-cache': '#f28e2b',
  activations: '#e15759',
  logits: '#ff9da7',
  workspace: '#b07aa1',
  gradients: '#76b7b2',
  optimizer: '#edc948',
  'master-weights': '#9c755f',
  'dequant-buffer': '#86bcb6',
  'load-copy': '#b6992d',
  'comm-buffers': '#d37295',
  'zero-grad-buffers': '#c05780',
  'zero-gathered-params': '#e49ab8',
  'zero-step-grads': '#4b9a95',
  'cuda-context': '#8c8c8c',
  'allocator-reserve': '#bab0ac',
  'engine-reserve': '#a0cbe8',
};
