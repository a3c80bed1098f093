import { useCallback, useMemo } from 'react';
import type { TermId } from '../../core/types';
import { useApp } from '../../state/store';
import { gpuName, resolveAll } from '../calculator/gpu-list';
import { useT } from '../i18n';
import { formatNumber } from '../i18n/format';
import { UNIT_BYTES } from '../../core/units';
import type { CapacityLine } from './chart-data';

/**
 * What every memory chart shares, stable between renders (the charts are memoised): the display
 * unit, one capacity line per chosen GPU, term names and the axis number format.
 */
export function useChartKit() {
  const t = useT();
  const unit = useApp((s) => s.unit);
  const specs = useApp((s) => s.gpus);
  const gpus = useMemo(() => resolveAll(specs), [specs]);
  const lines: CapacityLine[] = useMemo(() => gpus.map((c) => ({ label: gpuName(c), value: c.gpu.capacityBytes / UNIT_BYTES[unit] })), [gpus, unit]);
  const termName = useCallback((id: TermId) => t(`term.${id}`), [t]);
  const format = useCallback((v: number) => formatNumber(v, t.lang, v < 10 ? 2 : v < 100 ? 1 : 0), [t]);
  return { t, unit, unitBytes: UNIT_BYTES[unit], gpus, lines, termName, format };
}
