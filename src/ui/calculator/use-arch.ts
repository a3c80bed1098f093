import { useMemo } from 'react';
import { findPreset } from '../../core/model/presets';
import type { ModelArch } from '../../core/types';
import { selectActive, useApp } from '../../state/store';

/** The active scenario's architecture: the preset's (plus overrides) or the custom one; null for a bare parameter count. */
export function useArch(): ModelArch | null {
  const model = useApp((st) => selectActive(st).model);
  const over = useApp((st) => selectActive(st).arch);
  return useMemo(() => {
    const base = model === 'custom' ? null : (findPreset(model)?.arch ?? null);
    if (!base && model !== 'custom') return null;
    const merged = { ...(base ?? {}), ...(over ?? {}) } as ModelArch;
    if (base?.moe || over?.moe) merged.moe = { ...base?.moe, ...over?.moe } as ModelArch['moe'];
    return merged;
  }, [model, over]);
}
