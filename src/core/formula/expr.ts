/**
 * Formulas computed, not written: a term's bytes and the formula shown for it come from one
 * expression over named symbols, so the two cannot drift (issue #11 §3).
 *
 * An expression is a small tree of numbers (literals), symbols (name + the user's value) and
 * operations. `evaluate` computes its bytes; `symbolValues` lists each symbol's value; `render`
 * (render.ts) writes the text the Explain panel shows. Builders are plain functions; nested sums
 * and products flatten, so a formula reads as it is written.
 *
 * The builders have two modes (derivation.ts switches them): trees, the default, and numbers,
 * where every builder returns its value at once (a symbol its value, a sum the sum) and no tree
 * is made. estimate() runs in numbers, because sweeps, solvers and the GPU ranking call it
 * thousands of times and read only the bytes; the trees are made by running the same builder
 * code again when a formula is first read.
 */

export type Expr =
  number | { op: 'sym'; name: string; value: number } | { op: 'add' | 'mul' | 'max' | 'min'; args: Expr[] } | { op: 'sub' | 'div'; args: [Expr, Expr] } | { op: 'ceil' | 'floor'; args: [Expr] };

/** A number is an expression: a literal. */
export type Operand = Expr;

let trees = true;

/** Switch the builders between trees (true) and plain numbers (false); returns the previous mode. */
export function buildTrees(on: boolean): boolean {
  const was = trees;
  trees = on;
  return was;
}

/** Numbers mode: an operand's value (a tree made in the other mode, e.g. a module constant, is evaluated). */
const v = (x: Expr): number => (typeof x === 'number' ? x : evaluate(x));

/** A named quantity with the user's value: rendered by name, listed with its value. */
export function sym(name: string, value: number): Expr {
  return trees ? { op: 'sym', name, value } : value;
}

/** Nested sums (products) flatten; a literal 0 in a sum or 1 in a product is left out. */
function flat(op: 'add' | 'mul', xs: Expr[]): Expr {
  const unit = op === 'add' ? 0 : 1;
  const args: Expr[] = [];
  for (const e of xs) {
    if (typeof e === 'number') {
      if (e !== unit) args.push(e);
    } else if (e.op === op) args.push(...e.args);
    else args.push(e);
  }
  return args.length > 1 ? { op, args } : (args[0] ?? unit);
}

/** a + b + … (Σ over a list); an empty sum is 0. */
export function add(...xs: Expr[]): Expr {
  if (trees) return flat('add', xs);
  let s = 0;
  for (const x of xs) s += v(x);
  return s;
}

/** a · b · … */
export function mul(...xs: Expr[]): Expr {
  if (trees) return flat('mul', xs);
  let p = 1;
  for (const x of xs) p *= v(x);
  return p;
}

export function sub(a: Expr, b: Expr): Expr {
  return trees ? { op: 'sub', args: [a, b] } : v(a) - v(b);
}

export function div(a: Expr, b: Expr): Expr {
  return trees ? { op: 'div', args: [a, b] } : v(a) / v(b);
}

export function max(...xs: Expr[]): Expr {
  if (xs.length === 1) return xs[0]!;
  if (trees) return { op: 'max', args: xs };
  let m = -Infinity;
  for (const x of xs) m = Math.max(m, v(x));
  return m;
}

export function min(...xs: Expr[]): Expr {
  if (xs.length === 1) return xs[0]!;
  if (trees) return { op: 'min', args: xs };
  let m = Infinity;
  for (const x of xs) m = Math.min(m, v(x));
  return m;
}

export function ceil(x: Expr): Expr {
  return trees ? { op: 'ceil', args: [x] } : Math.ceil(v(x));
}

export function floor(x: Expr): Expr {
  return trees ? { op: 'floor', args: [x] } : Math.floor(v(x));
}

/** The expression's value: the bytes of a term. */
export function evaluate(e: Expr): number {
  if (typeof e === 'number') return e;
  switch (e.op) {
    case 'sym':
      return e.value;
    case 'add': {
      let s = 0;
      for (const a of e.args) s += evaluate(a);
      return s;
    }
    case 'mul': {
      let p = 1;
      for (const a of e.args) p *= evaluate(a);
      return p;
    }
    case 'sub':
      return evaluate(e.args[0]) - evaluate(e.args[1]);
    case 'div':
      return evaluate(e.args[0]) / evaluate(e.args[1]);
    case 'max': {
      let m = -Infinity;
      for (const a of e.args) m = Math.max(m, evaluate(a));
      return m;
    }
    case 'min': {
      let m = Infinity;
      for (const a of e.args) m = Math.min(m, evaluate(a));
      return m;
    }
    case 'ceil':
      return Math.ceil(evaluate(e.args[0]));
    case 'floor':
      return Math.floor(evaluate(e.args[0]));
  }
}

/** Every symbol's value, by name, in the order the formula first names them. */
export function symbolValues(e: Expr, out: Record<string, number | string> = {}): Record<string, number | string> {
  if (typeof e === 'number') return out;
  if (e.op === 'sym') {
    if (!(e.name in out)) out[e.name] = e.value;
  } else {
    for (const a of e.args) symbolValues(a, out);
  }
  return out;
}

/** Symbol names given two different values (a builder bug: the rendered formula would be ambiguous). */
export function conflictingSymbols(e: Expr): string[] {
  const seen = new Map<string, number>();
  const bad = new Set<string>();
  const walk = (x: Expr) => {
    if (typeof x === 'number') return;
    if (x.op === 'sym') {
      const v = seen.get(x.name);
      if (v === undefined) seen.set(x.name, x.value);
      else if (!Object.is(v, x.value)) bad.add(x.name);
    } else x.args.forEach(walk);
  };
  walk(e);
  return [...bad];
}
