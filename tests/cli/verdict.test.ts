import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli/estimate';
import { findGpu } from '../../src/core/gpus';
import { defaultScenario } from '../../src/core/scenario/schema';
import { solveOn } from '../../src/core/solve';
import { estimateWithReplay } from '../../src/core/timeline';
import type { Scenario } from '../../src/core/types';
import { fitsOf } from '../../src/ui/calculator/fits';
import { marksFor } from '../../src/ui/calculator/fit-marks';

interface Out {
  deviceBytes: number;
  gpu: { id: string; capacityBytes: number; fits: boolean; headroomBytes: number };
  recommend: { id: string; fits: boolean; headroomBytes: number }[];
  solve: { maxBatch: number; minGpus: { gpus: number } | null; basis: string };
}

// Llama-3.2-1B full fine-tuning, batch 4 × 1920 on an L40S (46,068 MiB): the closed form puts it under the card,
// the replay through the caching allocator over it (tests/core/deploy/verdict.test.ts)
const s: Scenario = { ...defaultScenario(), model: 'meta-llama/Llama-3.2-1B', mode: 'training', method: 'full', batch: 4, seq: 1920, gpu: 'l40s' };
const argv = ['--model', s.model, '--mode', 'training', '--method', 'full', '--batch', '4', '--seq', '1920', '--gpu', 'l40s', '--recommend', '--solve', '--json'];

describe("the CLI's verdict is the page's", () => {
  test('gpu, recommend and solve equal what the settled page shows for the same scenario', async () => {
    const r = await main(argv);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Out;
    const shown = estimateWithReplay(s);
    if (!shown.ok) throw new Error('estimate failed');
    const l40s = findGpu('l40s')!;
    // the page: the verdict (fits.ts) and the picker's marks (fit-marks.ts), both from the shown estimate
    const page = fitsOf(s, [{ spec: 'l40s', gpu: l40s }], shown.value)[0];
    const marks = marksFor(s, shown.value)!;
    expect(out.deviceBytes).toBe(shown.value.deviceBytes);
    expect(out.gpu).toEqual({ id: 'l40s', capacityBytes: 46_068 * 2 ** 20, fits: page.fits, headroomBytes: page.headroom });
    expect(out.gpu.fits).toBe(false);
    expect(out.recommend.find((x) => x.id === 'l40s')).toMatchObject({ fits: marks.byId.get('l40s')!.fits, headroomBytes: page.headroom });
    const solved = solveOn(s, l40s.capacityBytes, shown.value);
    if (!solved.ok) throw new Error('solve failed');
    expect(out.solve).toEqual(JSON.parse(JSON.stringify(solved.value)));
    expect(out.solve.maxBatch).toBeLessThan(4);
    // the JSON says what the solvers searched with: the fast estimate, held to the replayed verdict here
    expect(out.solve.basis).toBe('closed-form-held');
  });

  test('text output says the solvers used the fast estimate', async () => {
    const r = await main(argv.filter((a) => a !== '--json'));
    expect(r.stdout).toContain('GPU:      NVIDIA L40S');
    expect(r.stdout).toContain('does NOT fit');
    expect(r.stdout).toContain('searched with the fast estimate (no allocator replay), held to the verdict above');
  });
});
