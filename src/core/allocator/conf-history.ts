/**
 * Which PyTorch release first accepts each PYTORCH_CUDA_ALLOC_CONF option the advice offers, and
 * the lowest release of each OOM message family the decoder names (oom-decoder.ts `version`).
 * Restated with the same sources in docs/reference/allocator.md §8.1. A release older than an
 * option's first one rejects it when the allocator starts ("Unrecognized CachingAllocator option"), so advice
 * never offers it there.
 */

/** The options advice can offer. */
export type AdvisedOption = 'max_split_size_mb' | 'roundup_power2_divisions' | 'garbage_collection_threshold' | 'expandable_segments';

export interface OptionSince {
  /** first release known to accept it, "major.minor" */
  release: string;
  source: string;
}

/**
 * First releases. Release branches are cut about a month before each release: 1.11 released
 * 2022-03-10, 2.0 on 2023-03-15, 2.1 on 2023-10-04, so a PR merged in between lands in the next.
 */
export const OPTION_SINCE: Record<AdvisedOption, OptionSince> = {
  // #44742 ("Don't split oversize cached blocks", commit 67dcd623) brought the option, its PYTORCH_CUDA_ALLOC_CONF
  // notes and the "max_split_size" / "oversize_*" entries of the torch.cuda.memory_stats docstring (torch/cuda/memory.py).
  // The release docs built from each tag (pytorch/pytorch.github.io): docs/1.9.0/notes/cuda.html ends "Memory
  // management" at PYTORCH_NO_CUDA_MEMORY_CACHING and docs/1.9.0/generated/torch.cuda.memory_stats.html at
  // num_ooms; docs/1.10.0 has both, as has the 1.10 OOM message ("try setting max_split_size_mb", §7.2).
  max_split_size_mb: {
    release: '1.10',
    source: 'pytorch/pytorch #44742; absent from the 1.9.0 release docs (notes/cuda.html, generated/torch.cuda.memory_stats.html in pytorch/pytorch.github.io), present in 1.10.0',
  },
  roundup_power2_divisions: { release: '1.12', source: 'pytorch/pytorch #74213 (merged 2022-03, after the 1.11 branch cut); per-interval [a:b,…] form #87290 (2.0)' },
  garbage_collection_threshold: { release: '1.12', source: 'pytorch/pytorch #74261 (merged 2022-03, after the 1.11 branch cut)' },
  // #96995 was in review on 2023-04-13 and merged by 2023-04-24 (#99933: "Now that expandable_segments has been merged
  // from OSS"), after 2.0 was released (2023-03-15): 2.1 is the first release with it.
  expandable_segments: { release: '2.1', source: 'pytorch/pytorch #96995 "Expandable blocks in allocator" (in review 2023-04-13; merged by 2023-04-24 per #99933), after the 2.0 release' },
};

/**
 * The lowest release each OOM message family can come from (codes of oom-decoder.ts, without
 * "version."); null where the family reaches back to releases older than every option.
 */
const FAMILY_FLOOR: Record<string, string | null> = {
  'le-1.3': null,
  'le-1.9': null,
  '1.10-2.0': '1.10',
  '2.1': '2.1',
  '2.2-2.7': '2.2',
  'ge-2.4': '2.4',
  'ge-2.8': '2.8',
  main: '2.8',
};

/** Families whose wording shows an option already on: #173051 drops the expandable_segments hint when it is on. */
const SHOWN_ON: Record<string, readonly AdvisedOption[]> = { main: ['expandable_segments'] };

/** "2.10" > "2.9": compares major.minor numerically. */
export function releaseAtLeast(release: string, floor: string): boolean {
  const [a = 0, b = 0] = release.split('.').map(Number);
  const [c = 0, d = 0] = floor.split('.').map(Number);
  return a !== c ? a > c : b >= d;
}

/** What a message family says about an option: it exists, the run already had it on, it needs a newer release, or the family is unknown. */
export type OptionStatus = 'available' | 'already-on' | 'too-old' | 'unknown';

/** The status of `option` for a decoder version code such as 'version.1.10-2.0' (or without the prefix). */
export function optionStatus(option: AdvisedOption, versionCode: string | null): OptionStatus {
  if (versionCode === null) return 'unknown';
  const family = versionCode.replace(/^version\./, '');
  if (!Object.hasOwn(FAMILY_FLOOR, family)) return 'unknown';
  if (SHOWN_ON[family]?.includes(option)) return 'already-on';
  const floor = FAMILY_FLOOR[family] ?? null;
  return floor !== null && releaseAtLeast(floor, OPTION_SINCE[option].release) ? 'available' : 'too-old';
}
