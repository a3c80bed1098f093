import { afterEach, beforeEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { useApp, initialData } from '../../../src/state/store';

export const MiB = 2 ** 20;
/** A byte count as the lab prints it in English: grouped digits and " B". */
export const exactEn = (n: number) => `${n.toLocaleString('en-US')} B`;

/** Each test starts at `query` (the lab reads it on mount) and leaves a clean page and store. */
export function startAt(query: string): void {
  beforeEach(() => {
    history.replaceState(null, '', `/${query}`);
  });
  afterEach(() => {
    cleanup();
    useApp.setState(initialData());
  });
}

/** The memory_stats() cell of `key` in the simulator's table. */
export const stat = (key: string) => document.querySelector(`.lab-stats td[data-key="${key}"]`)?.textContent;
