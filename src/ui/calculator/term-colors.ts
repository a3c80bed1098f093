import type { TermId } from '../../core/types';

/**
 * One colour per term, from the Okabe–Ito and Paul Tol "muted" palettes (both designed to stay apart
 * under the common colour-vision deficiencies). Terms that share a chart get different hues or clearly
 * different lightness; the overheads (context, allocator slack) are greys. Legend and table text stay
 * in the page's text colour: these colours fill swatches, bars and areas only.
 */
export const TERM_COLOR: Record<TermId, string> = {
  weights: '#0072b2', // Okabe–Ito blue
  'lora-adapters': '#117733', // Tol green
  'kv-cache': '#e69f00', // Okabe–Ito orange
  'kv-held': '#eecc66', // Tol light yellow-orange
  'recurrent-state': '#aa3377', // Tol purple-red
  activations: '#d55e00', // Okabe–Ito vermillion
  'vision-encoder': '#ffaabb', // Tol light pink
  logits: '#56b4e9', // Okabe–Ito sky blue
  workspace: '#882255', // Tol wine
  gradients: '#009e73', // Okabe–Ito bluish green
  optimizer: '#f0e442', // Okabe–Ito yellow
  'master-weights': '#cc79a7', // Okabe–Ito reddish purple
  'dequant-buffer': '#999933', // Tol olive
  'load-copy': '#ddcc77', // Tol sand
  'model-buffers': '#994455', // Tol dark red-purple
  'comm-buffers': '#332288', // Tol indigo
  'zero-grad-buffers': '#44aa99', // Tol teal
  'zero-gathered-params': '#88ccee', // Tol cyan
  'zero-step-grads': '#661100', // Tol dark red
  'cuda-context': '#7f7f7f',
  'allocator-reserve': '#c4c4c4',
  'engine-reserve': '#aa4499', // Tol purple
  'text-encoding': '#bbcc33', // Tol light pear
  denoising: '#ee8866', // Tol light orange
  'vae-decode': '#77aadd', // Tol light blue
};
