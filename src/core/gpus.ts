/**
 * The GPU catalogue: capacity as sold and as the device really reports it, bandwidth, dense
 * tensor throughput. Data generated from the reference gpus.json by tools/gen-gpus.mjs
 * (sources per row, in data/gpus.json: vendor datasheets/whitepapers; nvidia-smi totals from the
 * issues cited in each row's `source`).
 *
 * GB vs GiB: vendors sell "80 GB"; nvidia-smi shows MiB. An A100 "80GB" reports 81920 MiB
 * (= 80 GiB exactly); an H100 "80GB" reports 81559 MiB (79.65 GiB); ECC-enabled cards report
 * less than the marketed size (T4 "16 GB" -> 15360 MiB). Fit decisions use `capacityBytes`.
 */
import type { Gpu } from './gpu-types';
import { APPLE_ALIASES, GPU_DATA } from './gpus.data';
import { formatIn, GB, MiB, parseBytes, TiB } from './units';

/** The catalogue, in reference order (consumer → workstation → datacenter → others). */
export const GPUS: readonly Gpu[] = GPU_DATA;

const BY_ID = new Map(GPUS.map((g) => [g.id, g]));

/**
 * Short names people type, to catalogue ids. Only capacity matters here, so a name shared by a
 * PCIe and an SXM board maps to the SXM one, whose nvidia-smi total the catalogue has from a cited
 * source (the PCIe rows assume the same total): A100 80GB → 81920 MiB, A100 40GB → 40960 MiB,
 * H100 → 81559 MiB (modal-labs/modal-client PR #2797). Bare `a100` is the 80 GB board, the one
 * cloud catalogues list today; `a100-40gb` names the other. Names whose sizes differ with no
 * default (`v100`: 16 or 32 GB, `3080`: 10 or 12 GB) have no alias; the parser suggests the ids.
 */
export const GPU_ALIASES: Readonly<Record<string, string>> = {
  a100: 'a100-80gb-sxm4',
  'a100-80gb': 'a100-80gb-sxm4',
  'a100-80g': 'a100-80gb-sxm4',
  'a100-40gb': 'a100-40gb-sxm4',
  'a100-40g': 'a100-40gb-sxm4',
  h100: 'h100-sxm',
  'h100-80gb': 'h100-sxm',
  'h100-sxm5': 'h100-sxm',
  h200: 'h200-sxm',
  '2080ti': 'rtx-2080-ti',
  'rtx-2080ti': 'rtx-2080-ti',
  '3060': 'rtx-3060-12gb',
  'rtx-3060': 'rtx-3060-12gb',
  '3090': 'rtx-3090',
  '4080': 'rtx-4080',
  '4090': 'rtx-4090',
  '5080': 'rtx-5080',
  '5090': 'rtx-5090',
  a4000: 'rtx-a4000',
  a5000: 'rtx-a5000',
  a6000: 'rtx-a6000',
  '6000-ada': 'rtx-6000-ada-generation',
  'rtx-6000-ada': 'rtx-6000-ada-generation',
  '7900xtx': 'rx-7900-xtx',
};

/** The names above, and each Apple chip's own id for its largest memory configuration (tools/gen-gpus.mjs). */
const ALIAS = new Map(Object.entries({ ...GPU_ALIASES, ...APPLE_ALIASES }));

/**
 * How typed names are normalised before lookup: lower case, spaces and underscores as '-', the
 * vendor words 'nvidia' / 'geforce' dropped, and 'rtxNNNN' split as 'rtx-NNNN' (the ids' spelling).
 */
function normaliseGpuName(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/^(?:nvidia-|geforce-)+/, '')
    .replace(/^rtx(\d)/, 'rtx-$1');
}

/**
 * Look a GPU up by catalogue id or alias (GPU_ALIASES), case-insensitive, spaces allowed
 * ("RTX 4090", "a100-80gb"); undefined when unknown.
 */
export function findGpu(id: string): Gpu | undefined {
  // estimate() resolves the scenario's gpu on every call, almost always an exact id: skip the regexes
  const exact = BY_ID.get(id);
  if (exact) return exact;
  const n = normaliseGpuName(id);
  const rtxLess = n.startsWith('rtx-') ? n.slice(4) : n;
  const alias = ALIAS.get(n) ?? ALIAS.get(rtxLess);
  return BY_ID.get(n) ?? (alias === undefined ? undefined : BY_ID.get(alias));
}

/** Largest capacity we accept for a custom device: 64 TiB (well above any single device). */
export const MAX_CUSTOM_CAPACITY = 64 * TiB;

/**
 * A user-defined device of the given capacity in bytes (clamped to [1 MiB, 64 TiB]; non-finite
 * input becomes 1 MiB so a fit check never sees NaN).
 */
export function customGpu(capacityBytes: number): Gpu {
  const c = Number.isFinite(capacityBytes) ? Math.min(Math.max(Math.round(capacityBytes), MiB), MAX_CUSTOM_CAPACITY) : MiB;
  return {
    id: 'custom',
    name: 'Custom GPU',
    vendor: 'custom',
    category: 'custom',
    memoryStated: formatIn(c, 'GiB'),
    memoryGb: c / GB,
    reportedMib: null,
    capacityBytes: c,
    capacityBasis: 'custom',
    bandwidthGBs: 0,
    tflops: { fp16: null, bf16: null, fp8: null, int8: null, fp4: null },
    verified: false,
  };
}

/**
 * Parse a capacity such as "24GB", "24 GiB", "81920MiB" (unit required, decimal GB vs binary GiB
 * as written) into bytes; null when not a positive finite capacity of at most 64 TiB.
 */
export function parseCapacity(text: string): number | null {
  const p = parseBytes(text, true);
  if (!p.ok) return null;
  const bytes = Math.round(p.bytes);
  return bytes >= MiB && bytes <= MAX_CUSTOM_CAPACITY ? bytes : null;
}

/** A catalogue id or a custom capacity ("24GiB") to a device; undefined when neither. */
export function resolveGpu(spec: string): Gpu | undefined {
  const known = findGpu(spec);
  if (known) return known;
  const bytes = parseCapacity(spec);
  return bytes === null ? undefined : customGpu(bytes);
}
