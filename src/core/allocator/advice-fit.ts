/**
 * Fits advice to the run it is for: an allocator option the run's PyTorch release lacks becomes
 * "upgrade to ≥ X" (conf-history.ts, docs/reference/allocator.md §8.1), and an option the user's
 * PYTORCH_CUDA_ALLOC_CONF already sets is dropped or changed (a max_split_size_mb too large for
 * the failing request is lowered). Export lines keep the user's other options.
 */
import { MiB } from '../units';
import { expandableAdvice, maxSplitAdvice, type Advice } from './advice';
import type { AllocatorConfig } from './config';
import { OPTION_SINCE, optionStatus, type AdvisedOption } from './conf-history';

export interface AdviceContext {
  /** the decoder's version code ('version.2.1', …); null when the text does not show the release */
  version: string | null;
  /** the user's current setting as typed and as parsed; null when not given */
  conf: { text: string; value: AllocatorConfig } | null;
}

export const NO_CONTEXT: AdviceContext = { version: null, conf: null };

/** `text` (a PYTORCH_*_ALLOC_CONF value) with `key` set to `value`: replaced where present, else appended. */
export function withOption(text: string, key: string, value: string): string {
  const body = text
    .trim()
    .replace(/^(?:export\s+)?PYTORCH_(?:CUDA_|HIP_)?ALLOC_CONF=/, '')
    .replace(/^(['"])(.*)\1$/, '$2');
  const parts = body
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const i = parts.findIndex((p) => p.split(':')[0]?.trim() === key);
  if (i >= 0) parts[i] = `${key}:${value}`;
  else parts.push(`${key}:${value}`);
  return parts.join(',');
}

function upgrade(option: AdvisedOption, setting: string): Advice {
  const release = OPTION_SINCE[option].release;
  return {
    code: 'upgrade-pytorch',
    params: { setting, release },
    text: `Upgrade to PyTorch ≥ ${release} to use ${setting}: the message comes from an older release, which refuses the option when the allocator starts ("Unrecognized CachingAllocator option").`,
    why: `${option} first shipped in PyTorch ${release}; older releases stop with an error when PYTORCH_CUDA_ALLOC_CONF names it.`,
  };
}

function alreadySet(settings: string[]): Advice {
  const list = settings.join(', ');
  return {
    code: 'already-set',
    params: { settings: list },
    text: `Your PYTORCH_CUDA_ALLOC_CONF already has ${list}; what is left is a lower peak (smaller batch or sequence length, activation checkpointing, lower precision).`,
    why: 'Setting an option the run already had changes nothing.',
  };
}

const backendOf = (a: Advice): 'cuda' | 'hip' => (a.params.env === 'PYTORCH_HIP_ALLOC_CONF' ? 'hip' : 'cuda');

/** Expandable segments: kept, dropped (already on), or "upgrade" (release too old). */
function fitExpandable(a: Advice, ctx: AdviceContext, set: string[]): Advice | null {
  if (ctx.conf?.value.expandableSegments) {
    set.push('expandable_segments:True');
    return null;
  }
  const s = optionStatus('expandable_segments', ctx.version);
  if (s === 'already-on') return null;
  if (s === 'too-old') return upgrade('expandable_segments', 'expandable_segments:True');
  return ctx.conf ? expandableAdvice(backendOf(a), withOption(ctx.conf.text, 'expandable_segments', 'True')) : a;
}

/** max_split_size_mb: kept, dropped (the request is already oversize), lowered, or "upgrade". */
function fitMaxSplit(a: Advice, ctx: AdviceContext, set: string[], alone: boolean): Advice | null {
  const mb = Number(a.params.mb);
  if (optionStatus('max_split_size_mb', ctx.version) === 'too-old') return upgrade('max_split_size_mb', `max_split_size_mb:${mb}`);
  const current = ctx.conf?.value.maxSplitSize ?? null;
  if (current !== null && current <= mb * MiB) {
    set.push(`max_split_size_mb:${current / MiB}`);
    return null;
  }
  const value = ctx.conf ? withOption(ctx.conf.text, 'max_split_size_mb', String(mb)) : undefined;
  if (current !== null) return maxSplitAdvice(backendOf(a), mb, { value, variant: 'lower', from: current / MiB });
  return maxSplitAdvice(backendOf(a), mb, { value, variant: alone ? 'only' : undefined });
}

/** `advice` fitted to the release and the current setting (see the file comment); order kept. */
export function fitAdvice(advice: readonly Advice[], ctx: AdviceContext): Advice[] {
  const out: Advice[] = [];
  const set: string[] = [];
  for (const a of advice) {
    if (a.code === 'expandable-segments') {
      const x = fitExpandable(a, ctx, set);
      if (x) out.push(x);
    } else if (a.code === 'max-split-size') {
      // "Or set …" reads as the alternative to expandable segments; alone it is plain "Set …"
      const x = fitMaxSplit(a, ctx, set, !out.some((o) => o.code === 'expandable-segments'));
      if (x) out.push(x);
    } else out.push(a);
  }
  if (set.length) out.push(alreadySet(set));
  return out;
}
