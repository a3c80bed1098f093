/**
 * Tokenizer for PyTorch's `print(model)` text (torch/nn/modules/module.py Module.__repr__:
 * `(name): Type(extra_repr)` per leaf, `(name): Type(` … `)` per container; ModuleList
 * collapses repeats as `(0-11): 12 x Type(`). Produces a module tree; lines it cannot read
 * are returned, never thrown.
 */

export type Value = number | boolean | string | null | Value[];

export interface ReprNode {
  name: string;
  type: string;
  /** positional extra_repr arguments */
  pos: Value[];
  kw: Record<string, Value>;
  /** null for a leaf */
  children: ReprNode[] | null;
  /** ModuleList collapse count ("12 x Type") */
  times: number;
  line: number;
}

export interface Unparsed {
  line: number;
  text: string;
}

/** Deepest module nesting read (real models nest < 15 levels). */
const MAX_NEST = 64;

const HEAD = /^\s*(?:\(([^()]*)\):\s*)?(?:(\d+) x )?([A-Za-z_][\w.]*)\((.*)$/;

/** Split on top-level commas (outside (), [], quotes). */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = '';
      cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur);
  return out.map((x) => x.trim()).filter((x) => x.length > 0);
}

/** One Python literal as extra_repr prints it: int, float, bool, None, tuple/list, string. */
export function parseValue(s: string): Value {
  const t = s.trim();
  // a number that overflows float64 (1e309) stays text: the importer then reports it unreadable
  if (/^-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i.test(t) && Number.isFinite(Number(t))) return Number(t);
  if (t === 'True') return true;
  if (t === 'False') return false;
  if (t === 'None') return null;
  if ((t.startsWith('(') && t.endsWith(')')) || (t.startsWith('[') && t.endsWith(']'))) {
    return splitTop(t.slice(1, -1)).map(parseValue);
  }
  return t.replace(/^['"]|['"]$/g, '');
}

/** Balanced-paren check for a leaf's argument text (which ends with the closing paren). */
function balanced(s: string): boolean {
  let d = 0;
  for (const ch of s) {
    if (ch === '(') d++;
    else if (ch === ')') {
      d--;
      if (d < 0) return false;
    }
  }
  return d === 0;
}

function node(name: string, type: string, times: string | undefined, args: string, leaf: boolean, line: number): ReprNode {
  const pos: Value[] = [];
  const kw: Record<string, Value> = {};
  for (const part of splitTop(args)) {
    const m = /^([A-Z_]\w*)\s*=([\s\S]*)$/i.exec(part); // parseValue trims the value
    if (m) {
      const [, key = '', value = ''] = m; // neither group is optional
      kw[key] = parseValue(value);
    } else pos.push(parseValue(part));
  }
  return { name, type, pos, kw, children: leaf ? null : [], times: times ? Math.min(Number(times), 1e6) : 1, line };
}

/** Parse print(model) text into its root module (or null) plus the lines not understood. */
export function parseReprTree(text: string): { root: ReprNode | null; unparsed: Unparsed[] } {
  const unparsed: Unparsed[] = [];
  const stack: ReprNode[] = [];
  let root: ReprNode | null = null;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const s = raw.trim();
    if (!s) return;
    if (s === ')') {
      if (stack.length) stack.pop();
      else unparsed.push({ line, text: raw });
      return;
    }
    const m = HEAD.exec(s);
    if (!m) {
      unparsed.push({ line, text: raw });
      return;
    }
    const [, name = '', times, type = '', rest = ''] = m; // type and rest are not optional
    const leaf = rest.length > 0 && rest.endsWith(')') && balanced(rest.slice(0, -1));
    if (!leaf && rest.length > 0) {
      unparsed.push({ line, text: raw });
      return;
    }
    if (!leaf && stack.length >= MAX_NEST) {
      unparsed.push({ line, text: raw });
      return;
    }
    const n = node(name, type, times, leaf ? rest.slice(0, -1) : '', leaf, line);
    const parent = stack[stack.length - 1];
    if (parent) parent.children!.push(n);
    else if (!root) root = n;
    else {
      unparsed.push({ line, text: raw });
      return;
    }
    if (!leaf) stack.push(n);
  });
  return { root, unparsed };
}
