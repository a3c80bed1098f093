/**
 * A term's Derivation built from its expression: the formula text and the symbol values are
 * read from the expression when asked for (Explain panel, CLI JSON), not on every estimate().
 */
import type { Derivation } from '../types';
import { symbolValues, type Expr } from './expr';
import { render } from './render';

/** What a builder states beside the expression: annotations (strings, counts not in the formula), source, confidence. */
export interface DerivationInfo {
  /** values shown under the formula's symbols (e.g. the storage format, which moment peaks) */
  values?: Record<string, number | string> | undefined;
  source: string;
  confidence: Derivation['confidence'];
  note?: Derivation['note'] | undefined;
}

export function derive(expr: Expr, info: DerivationInfo): Derivation {
  const extra = info.values;
  const d: Derivation = {
    get formula() {
      return render(expr);
    },
    get values() {
      return extra ? { ...symbolValues(expr), ...extra } : symbolValues(expr);
    },
    source: info.source,
    confidence: info.confidence,
  };
  if (info.note) d.note = info.note;
  return d;
}
