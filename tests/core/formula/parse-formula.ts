/**
 * Reads a rendered formula back and evaluates it from a values record: the test side of
 * "formulas computed, not written". Grammar of render.ts: numbers, identifiers, + − · /,
 * parentheses and ceil / floor / max / min calls. Throws on anything else (a formula that
 * cannot be read back is a failure).
 */
type Tok = { t: 'num'; v: number } | { t: 'id'; v: string } | { t: 'op'; v: string };

function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  const re = /\s*(?:(\d+(?:\.\d+)?(?:e[+-]?\d+)?)|([A-Za-z_]\w*)|([+−·/(),]))/y;
  let i = 0;
  while (i < text.length) {
    if (/^\s*$/.test(text.slice(i))) break;
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw new Error(`cannot read formula at ${i}: «${text.slice(i, i + 20)}» in «${text}»`);
    if (m[1] !== undefined) out.push({ t: 'num', v: Number(m[1]) });
    else if (m[2] !== undefined) out.push({ t: 'id', v: m[2] });
    else out.push({ t: 'op', v: m[3] });
    i = re.lastIndex;
  }
  return out;
}

const FUNCS: Record<string, (xs: number[]) => number> = {
  ceil: (xs) => Math.ceil(xs[0]),
  floor: (xs) => Math.floor(xs[0]),
  max: (xs) => Math.max(...xs),
  min: (xs) => Math.min(...xs),
};

/** The formula's value with each identifier looked up in `values` (which must hold a number for it). */
export function evaluateFormula(text: string, values: Record<string, number | string>): number {
  const toks = tokenize(text);
  let k = 0;
  const peek = () => toks[k];
  const take = (v?: string) => {
    const x = toks[k++];
    if (!x || (v !== undefined && x.v !== v)) throw new Error(`expected ${v ?? 'a token'} in «${text}»`);
    return x;
  };
  const atom = (): number => {
    const x = take();
    if (x.t === 'num') return x.v;
    if (x.t === 'op' && x.v === '(') {
      const v = sum();
      take(')');
      return v;
    }
    if (x.t === 'id') {
      if (FUNCS[x.v] && peek()?.v === '(') {
        take('(');
        const args = [sum()];
        while (peek()?.v === ',') {
          take(',');
          args.push(sum());
        }
        take(')');
        return FUNCS[x.v](args);
      }
      const v = values[x.v];
      if (typeof v !== 'number') throw new Error(`symbol ${x.v} has no number in values (${JSON.stringify(v)}) in «${text}»`);
      return v;
    }
    throw new Error(`unexpected ${x.v} in «${text}»`);
  };
  const product = (): number => {
    let v = atom();
    for (;;) {
      const o = peek();
      if (o?.v === '·') {
        take();
        v *= atom();
      } else if (o?.v === '/') {
        take();
        v /= atom();
      } else return v;
    }
  };
  const sum = (): number => {
    let v = product();
    for (;;) {
      const o = peek();
      if (o?.v === '+') {
        take();
        v += product();
      } else if (o?.v === '−') {
        take();
        v -= product();
      } else return v;
    }
  };
  const v = sum();
  if (k !== toks.length) throw new Error(`trailing tokens in «${text}»`);
  return v;
}
