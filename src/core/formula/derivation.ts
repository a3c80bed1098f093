/**
 * A term's Derivation built from its expression: the formula text and the symbol values are
 * read from the expression when asked for (Explain panel, CLI JSON), not on every estimate().
 *
 * Inside `deferFormulas(run)` the builders make numbers (expr.ts), so a derivation has no tree
 * yet: it remembers its place in the run, and the first formula read from any of them runs `run`
 * again with trees on, collecting every derivation's tree in the same order. The bytes and the
 * formula are the same builder code run twice on the same inputs, so they cannot drift (the
 * formula tests evaluate every term's formula and compare it with its bytes).
 */
import type { Derivation, Message } from '../types';
import { buildTrees, symbolValues, type Expr } from './expr';
import { render } from './render';

/** What a builder states beside the expression: annotations (strings, counts not in the formula), source, confidence. */
export interface DerivationInfo {
  /** values shown under the formula's symbols (e.g. the storage format, which moment peaks) */
  values?: Record<string, number | string> | undefined;
  source: string;
  confidence: Derivation['confidence'];
  note?: Derivation['note'] | undefined;
}

/** One deferred run: how many derivations it made, and their trees once it was run again. */
class DeferredRun {
  made = 0;
  private trees: Expr[] | null = null;
  constructor(private readonly run: () => unknown) {}

  tree(i: number): Expr {
    this.trees ??= collectTrees(this.run);
    const t = this.trees[i];
    // the same code on the same inputs makes the same derivations: anything else is a bug
    if (t === undefined) throw new Error(`formula re-run made ${this.trees.length} derivations, not ${i + 1}`);
    return t;
  }
}

/** The deferred run in progress (builders make numbers), or null. */
let deferred: DeferredRun | null = null;
/** While a deferred run is run again for its trees: every derivation's tree, in order. */
let collected: Expr[] | null = null;

/**
 * Runs `run` with the builders making numbers; the derivations it makes build their trees (by
 * running `run` again) only when a formula or its values are read. `run` must be deterministic.
 */
export function deferFormulas<T>(run: () => T): T {
  const outer = { deferred, collected };
  const rerun = collected !== null;
  // inside a re-run a nested run makes its trees at once, and they are not the outer run's
  if (rerun) collected = null;
  else deferred = new DeferredRun(run);
  const wasTrees = buildTrees(rerun);
  try {
    return run();
  } finally {
    buildTrees(wasTrees);
    ({ deferred, collected } = outer);
  }
}

function collectTrees(run: () => unknown): Expr[] {
  const outer = { deferred, collected };
  const out: Expr[] = [];
  deferred = null;
  collected = out;
  const wasTrees = buildTrees(true);
  try {
    run();
  } finally {
    buildTrees(wasTrees);
    ({ deferred, collected } = outer);
  }
  return out;
}

/**
 * A Derivation whose formula and values are read from its expression's tree when asked for. The
 * state is private, so two derivations compare by what they show (source, confidence, note), and
 * JSON gets the formula and values through toJSON.
 */
class ExprDerivation implements Derivation {
  readonly source: string;
  readonly confidence: Derivation['confidence'];
  declare readonly note?: Message;
  #tree: Expr | undefined;
  readonly #run: DeferredRun | null;
  readonly #index: number;
  readonly #extra: Record<string, number | string> | undefined;

  constructor(tree: Expr | undefined, run: DeferredRun | null, index: number, info: DerivationInfo) {
    this.source = info.source;
    this.confidence = info.confidence;
    if (info.note) (this as { note?: Message }).note = info.note;
    this.#tree = tree;
    this.#run = run;
    this.#index = index;
    this.#extra = info.values;
  }

  #expr(): Expr {
    return (this.#tree ??= this.#run!.tree(this.#index));
  }

  get formula(): string {
    return render(this.#expr());
  }

  get values(): Record<string, number | string> {
    const own = symbolValues(this.#expr());
    return this.#extra ? { ...own, ...this.#extra } : own;
  }

  toJSON(): Derivation {
    const d: Derivation = { formula: this.formula, values: this.values, source: this.source, confidence: this.confidence };
    if (this.note) d.note = this.note;
    return d;
  }
}

export function derive(expr: Expr, info: DerivationInfo): Derivation {
  if (deferred !== null) return new ExprDerivation(undefined, deferred, deferred.made++, info);
  collected?.push(expr);
  return new ExprDerivation(expr, null, 0, info);
}
