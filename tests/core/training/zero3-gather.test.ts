import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../../src/core/types';
import { run } from './llama2';

// One Llama-2-7b block: 4·4096² + 3·4096·11008 + 2·4096 = 202,383,360 parameters (docs/reference/formulas.md §1.1)
const BLOCK = 4 * 4096 ** 2 + 3 * 4096 * 11008 + 2 * 4096;

// PyTorch FSDP FULL_SHARD with one block per unit (zero-impl=fsdp); DeepSpeed's own fetching is in zero-deepspeed.test.ts
function comm(over: Partial<Scenario>): number {
  return run({ zero: 3, gpus: 8, zeroImpl: 'fsdp', ...over }).terms.find((t) => t.id === 'comm-buffers')?.bytes ?? 0;
}

describe('FSDP FULL_SHARD gathered units: current + prefetched block in the working dtype (docs/reference/formulas.md §4.2)', () => {
  it('AMP (16-bit working weights): 2 · 2 B · 202,383,360 = DeepSpeed LL = 4 · largest layer', () => {
    expect(BLOCK).toBe(202_383_360);
    expect(comm({ precision: 'amp-bf16' })).toBe(2 * 2 * BLOCK);
  });
  it('fp32 training gathers fp32 blocks: 2 · 4 B per parameter', () => {
    expect(comm({ precision: 'fp32', attn: 'sdpa' })).toBe(2 * 4 * BLOCK);
  });
  it('tensor parallelism splits the gathered block: tp 2 halves it', () => {
    expect(comm({ precision: 'amp-bf16', tp: 2 })).toBe((2 * 2 * BLOCK) / 2);
  });
  it('one rank gathers nothing', () => {
    expect(comm({ gpus: 1 })).toBe(0);
  });
});
