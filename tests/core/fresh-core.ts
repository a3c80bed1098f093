import { vi } from 'vitest';

/**
 * estimate() and the default scenario from fresh modules, without the test setup's on-demand
 * estimators: the core as the page has it before a lazy chunk (training, image generation) arrives.
 */
export async function freshCore() {
  vi.resetModules();
  const { estimate } = await import('../../src/core/estimate');
  const { defaultScenario } = await import('../../src/core/scenario/schema');
  return { estimate, defaultScenario };
}
