import { useDeferredValue } from 'react';
import type { Scenario } from '../../core/types';
import { selectActive, selectScenarios, useApp } from '../../state/store';

/**
 * The active scenario as the results above the fold show it (the verdict, the totals, the tabs):
 * React's deferred copy (useDeferredValue). A slider step, arrow key or keystroke first paints
 * its own field (the number, the thumb, aria-valuenow and aria-valuetext); the results follow in
 * the render right after, which a newer step interrupts and replaces instead of queueing behind.
 */
export function useShownScenario(): Scenario {
  return useDeferredValue(useApp(selectActive));
}

/** Every column's scenario, deferred the same way (the scenario tabs' totals). */
export function useShownScenarios(): Scenario[] {
  return useDeferredValue(useApp(selectScenarios));
}
