/**
 * Our own measurements on an H200 (src/validation/fixtures/measured-gpu.json, tools/measure/
 * measure_trainer.py; mapping in src/validation/measured-gpu.ts). Prints the error table of both
 * totals and holds the allocated peak, and the reserved total of fixed-length runs, to tolerances.
 * Varied-length reserved memory is printed, not held: it depends on the order of the lengths
 * (t004 and t004-seed7, the same run with another draw, differ by 16 %), see the replay.
 */
import { describe, expect, it } from 'vitest';
import { GPU_RUNS, gpuRunScenario, scoreGpuRuns } from '../../src/validation/measured-gpu';
import { errorStats } from '../../src/validation/score';

const GiB = 2 ** 30;
const scores = scoreGpuRuns();

describe('HF Trainer runs measured on an H200', () => {
  it('every run maps to a scenario that estimates, and the table prints', () => {
    expect(GPU_RUNS.length).toBe(31);
    expect(scores.length).toBe(GPU_RUNS.length);
    const line = (x: number) => (x / GiB).toFixed(2).padStart(6);
    const err = (e: number | null) => (e === null ? '     —' : `${e >= 0 ? '+' : ''}${e.toFixed(1)}%`.padStart(7));
    console.log(
      'id              | setting                                      | alloc meas  pred   err | reserved meas  pred   err\n' +
        scores
          .map((s) => {
            const st = s.run.settings;
            const what = `${st.preset.split('/')[1]} ${st.method} s${st.seq} b${st.batch}${st.ckpt ? ' ckpt' : ''} ${st.lengths}`.padEnd(44);
            return `${s.run.id.padEnd(15)} | ${what} | ${line(s.run.measured.allocated)} ${line(s.allocated)} ${err(s.allocatedErr)} | ${line(s.run.measured.reserved)} ${line(s.reserved)} ${err(s.reservedErr)}`;
          })
          .join('\n'),
    );
  });

  it('allocated peak: median |error| ≤ 1.5 %, every run within 6 %', () => {
    const st = errorStats(scores.map((s) => s.allocatedErr))!;
    console.log(`allocated: n ${st.n}, median ${st.medianPct.toFixed(2)} %, p90 ${st.p90Pct.toFixed(2)} %`);
    expect(st.medianPct).toBeLessThanOrEqual(1.5);
    for (const s of scores) expect(Math.abs(s.allocatedErr), s.run.id).toBeLessThanOrEqual(6);
  });

  it('reserved, fixed lengths: every run within 20 %, none above the measured figure by more than 5 %', () => {
    const fixed = scores.filter((s) => s.run.settings.lengths === 'fixed' && s.reservedErr !== null);
    expect(fixed.length).toBeGreaterThanOrEqual(15);
    for (const s of fixed) {
      expect(Math.abs(s.reservedErr!), s.run.id).toBeLessThanOrEqual(20);
      expect(s.reservedErr!, s.run.id).toBeLessThanOrEqual(5);
    }
  });

  it('Trainer bf16=True over a bf16 model maps to autocast on; fp32 weights with bf16=True to AMP', () => {
    const lora = gpuRunScenario(GPU_RUNS.find((r) => r.id === 't000')!);
    expect([lora.precision, lora.weights, lora.autocast, lora.optimImpl]).toEqual(['bf16', 'bf16', 'on', 'fused']);
    expect(lora.loraTargets).toEqual(['q', 'k', 'v', 'o', 'gate', 'up', 'down']);
    const amp = gpuRunScenario(GPU_RUNS.find((r) => r.id === 't010')!);
    expect([amp.precision, amp.weights]).toEqual(['amp-bf16', 'fp32']);
  });
});
