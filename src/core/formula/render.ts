/**
 * The text of an expression as the Explain panel and the CLI show it: `·` for products, `/`,
 * `+`, `−`, and ceil(…), floor(…), max(…), min(…) as calls. Parentheses appear only where the
 * reading order would otherwise change the tree, so the text parses back to the same value.
 */
import type { Expr } from './expr';

const prec = (e: Expr): number => (typeof e === 'number' ? 3 : e.op === 'add' || e.op === 'sub' ? 1 : e.op === 'mul' || e.op === 'div' ? 2 : 3);

/** `first`: the leftmost operand may share its parent's precedence (left-associative reading). */
function child(e: Expr, parent: number, first: boolean): string {
  const p = prec(e);
  const text = render(e);
  return p < parent || (!first && p === parent) ? `(${text})` : text;
}

export function render(e: Expr): string {
  if (typeof e === 'number') return String(e);
  switch (e.op) {
    case 'sym':
      return e.name;
    case 'add':
      return e.args.map((a, i) => child(a, 1, i === 0)).join(' + ');
    case 'mul':
      return e.args.map((a, i) => child(a, 2, i === 0)).join('·');
    case 'sub':
      return `${child(e.args[0], 1, true)} − ${child(e.args[1], 1, false)}`;
    case 'div':
      return `${child(e.args[0], 2, true)}/${child(e.args[1], 2, false)}`;
    case 'max':
    case 'min':
    case 'ceil':
    case 'floor':
      return `${e.op}(${e.args.map(render).join(', ')})`;
  }
}
