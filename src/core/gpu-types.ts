/** The shape of a GPU catalogue row (src/core/gpus.ts holds the catalogue and its lookups). */

/** Catalogue section; 'custom' for a user-entered capacity. */
export type GpuCategory = 'consumer' | 'workstation' | 'datacenter' | 'apple-silicon' | 'tpu' | 'custom';

/**
 * How capacityBytes was obtained:
 * - 'reported': nvidia-smi total (MiB · 2^20), from the cited source;
 * - 'nominal': marketed size read as GiB (memory dies are binary-sized), not yet seen in nvidia-smi;
 * - 'wired-limit': what Metal lets the GPU wire of a Mac's unified memory by default
 *   (recommendedMaxWorkingSetSize: 2/3 up to 36 GB, 3/4 above; tools/gen-gpus.mjs);
 * - 'per-device': one addressable device of a multi-die package (MI250X GCD);
 * - 'custom': entered by the user.
 */
export type CapacityBasis = 'reported' | 'nominal' | 'wired-limit' | 'per-device' | 'custom';

export interface Gpu {
  id: string;
  name: string;
  vendor: string;
  category: GpuCategory;
  /** capacity as the vendor sells it, verbatim, e.g. "80 GB" */
  memoryStated: string;
  /** marketed capacity in decimal GB (Apple: the memory configuration of this entry) */
  memoryGb: number;
  /** nvidia-smi total in MiB where a source shows it */
  reportedMib: number | null;
  /** what the device really offers; fit decisions use this */
  capacityBytes: number;
  capacityBasis: CapacityBasis;
  /** memory bandwidth, GB/s (decimal) */
  bandwidthGBs: number;
  /** dense tensor throughput, TFLOPS (int8: TOPS); null where the device lacks it or no source */
  tflops: { fp16: number | null; bf16: number | null; fp8: number | null; int8: number | null; fp4: number | null };
  verified: boolean;
}
