/**
 * Formulas computed, not written: a term's bytes and the formula shown for it come from one
 * expression over named symbols, so the two cannot drift (issue #11 §3).
 *
 * An expression is a small tree of numbers, symbols (name + the user's value) and operations.
 * `evaluate` computes its bytes; `symbolValues` lists each symbol's value; `render` (render.ts)
 * writes the text the Explain panel shows. Builders are plain functions; nested sums and products
 * flatten, so a formula reads as it is written.
 */

export type Expr =
  | { op: 'num'; value: number }
  | { op: 'sym'; name: string; value: number }
  | { op: 'add' | 'mul' | 'max' | 'min'; args: Expr[] }
  | { op: 'sub' | 'div'; args: [Expr, Expr] }
  | { op: 'ceil' | 'floor'; args: [Expr] };

export type Operand = Expr | number;

const lift = (x: Operand): Expr => (typeof x === 'number' ? { op: 'num', value: x } : x);

/** A named quantity with the user's value: rendered by name, listed with its value. */
export function sym(name: string, value: number): Expr {
  return { op: 'sym', name, value };
}

/** Nested sums (products) flatten; a literal 0 in a sum or 1 in a product is left out. */
function flat(op: 'add' | 'mul', xs: Operand[]): Expr {
  const unit = op === 'add' ? 0 : 1;
  const args: Expr[] = [];
  for (const x of xs) {
    const e = lift(x);
    if (e.op === op) args.push(...e.args);
    else if (!(e.op === 'num' && e.value === unit)) args.push(e);
  }
  return args.length === 0 ? { op: 'num', value: unit } : args.length === 1 ? args[0] : { op, args };
}

/** a + b + … (Σ over a list); an empty sum is 0. */
export function add(...xs: Operand[]): Expr {
  return flat('add', xs);
}

/** a · b · … */
export function mul(...xs: Operand[]): Expr {
  return flat('mul', xs);
}

export function sub(a: Operand, b: Operand): Expr {
  return { op: 'sub', args: [lift(a), lift(b)] };
}

export function div(a: Operand, b: Operand): Expr {
  return { op: 'div', args: [lift(a), lift(b)] };
}

export function max(...xs: Operand[]): Expr {
  return xs.length === 1 ? lift(xs[0]) : { op: 'max', args: xs.map(lift) };
}

export function min(...xs: Operand[]): Expr {
  return xs.length === 1 ? lift(xs[0]) : { op: 'min', args: xs.map(lift) };
}

export function ceil(x: Operand): Expr {
  return { op: 'ceil', args: [lift(x)] };
}

export function floor(x: Operand): Expr {
  return { op: 'floor', args: [lift(x)] };
}

/** The expression's value: the bytes of a term. */
export function evaluate(e: Expr): number {
  switch (e.op) {
    case 'num':
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
  if (e.op === 'sym') {
    if (!(e.name in out)) out[e.name] = e.value;
  } else if (e.op !== 'num') {
    for (const a of e.args) symbolValues(a, out);
  }
  return out;
}

/** Symbol names given two different values (a builder bug: the rendered formula would be ambiguous). */
export function conflictingSymbols(e: Expr): string[] {
  const seen = new Map<string, number>();
  const bad = new Set<string>();
  const walk = (x: Expr) => {
    if (x.op === 'sym') {
      const v = seen.get(x.name);
      if (v === undefined) seen.set(x.name, x.value);
      else if (!Object.is(v, x.value)) bad.add(x.name);
    } else if (x.op !== 'num') x.args.forEach(walk);
  };
  walk(e);
  return [...bad];
}
