/**
 * Terse text form of a layer list, short enough for a URL and readable by hand:
 *
 *   conv2d 3 64 k7 s2 p3 nobias; bn2d 64; relu!; maxpool k3 s2 p1;
 *   rep2[add![conv2d 256 64 k1 nobias; bn2d 64; relu! | conv2d 256 256 k1 | relu!]]; gap 1; flatten; linear 2048 1000
 *
 * `!` = inplace; `@name` after a kind names the module; containers: `add[body | shortcut | post]`
 * (`add!` = in-place add), `cat[a | b]`, `seq[...]`, `repN[...]`. Options: kK or kHxW (kernel),
 * sS stride, pP padding, dD dilation, gG groups, opP output padding, nobias, noaffine, ceil,
 * gelu / prenorm / dropP (encoder). Field meanings are those of spec.ts; range checks are
 * validate.ts's. Parsing never throws.
 */
import type { Result } from '../types';
import type { LayerSpec, Pair } from './spec';
import { LAYER_KINDS, validateNetwork } from './validate';

const MAX_TEXT = 200_000;
const MAX_NEST = 32;

const TEXT_KIND: Record<string, string> = {
  convt2d: 'convtranspose2d',
  bn1d: 'batchnorm1d',
  bn2d: 'batchnorm2d',
  ln: 'layernorm',
  gn: 'groupnorm',
  emb: 'embedding',
  gap: 'adaptiveavgpool2d',
  cls: 'clstoken',
  pos: 'posembed',
  seq: 'sequential',
};
const KIND_TEXT: Record<string, string> = Object.fromEntries(Object.entries(TEXT_KIND).map(([a, b]) => [b, a]));

/** Positional fields per kind, in order. */
const POSITIONAL: Record<string, string[]> = {
  linear: ['in', 'out'],
  conv1d: ['in', 'out'],
  conv2d: ['in', 'out'],
  convtranspose2d: ['in', 'out'],
  batchnorm1d: ['features'],
  batchnorm2d: ['features'],
  layernorm: ['shape'],
  groupnorm: ['groups', 'channels'],
  embedding: ['num', 'dim'],
  adaptiveavgpool2d: ['out'],
  dropout: ['p'],
  clstoken: ['dim'],
  posembed: ['tokens', 'dim'],
  mha: ['embed', 'heads'],
  encoder: ['d', 'heads', 'ffn'],
};
const OPTION: Record<string, string> = { k: 'kernel', s: 'stride', p: 'padding', d: 'dilation', g: 'groups', op: 'outputPadding', drop: 'dropout' };
const FLAG: Record<string, [string, unknown]> = {
  nobias: ['bias', false],
  noaffine: ['affine', false],
  ceil: ['ceil', true],
  gelu: ['activation', 'gelu'],
  prenorm: ['normFirst', true],
};

/** '3' → 3, '3x5' → [3, 5] (shape fields keep lists). */
function dims(t: string, list: boolean): Pair | number[] | null {
  if (!/^\d+(?:x\d+)*$/.test(t)) return null;
  const v = t.split('x').map(Number);
  if (list) return v;
  const [a, b] = v;
  if (a === undefined || v.length > 2) return null;
  return b === undefined ? a : [a, b];
}

class Parser {
  i = 0;
  constructor(private s: string) {}
  err(msg: string, at = this.i): never {
    throw new TextError(`position ${at}: ${msg}`);
  }
  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s.charAt(this.i))) this.i++;
  }
  peek(): string {
    this.ws();
    return this.s[this.i] ?? '';
  }

  list(depth: number): LayerSpec[] {
    if (depth > MAX_NEST) this.err(`nested more than ${MAX_NEST} levels`);
    const out: LayerSpec[] = [];
    for (;;) {
      const c = this.peek();
      if (c === '' || c === ']' || c === '|') return out;
      if (c === ';') {
        this.i++;
        continue;
      }
      out.push(this.item(depth));
    }
  }

  item(depth: number): LayerSpec {
    const m = /^([a-z][a-z0-9]*)(!?)(?:@([\w#-]*))?/.exec(this.s.slice(this.i, this.i + 240));
    if (!m) this.err(`expected a layer kind, got '${this.s.slice(this.i, this.i + 12)}'`);
    const start = this.i;
    this.i += m[0].length;
    const [, word = '', bang, name] = m; // the kind is not optional
    const o: Record<string, unknown> = {};
    if (name !== undefined) o.name = name;
    const rep = /^rep(\d+)$/.exec(word)?.[1];
    if (this.peek() === '[') {
      this.i++;
      const parts = [this.list(depth + 1)];
      while (this.peek() === '|') {
        this.i++;
        parts.push(this.list(depth + 1));
      }
      if (this.peek() !== ']') this.err("expected ']'");
      this.i++;
      if (word === 'add' || word === 'cat') {
        if (parts.length > 3) this.err(`${word}[body | shortcut | post] takes at most three parts`);
        Object.assign(o, { kind: 'block', merge: word === 'add' ? 'add' : 'concat', body: parts[0] });
        if (bang) o.inplace = true;
        if (parts[1]?.length) o.shortcut = parts[1];
        if (parts[2]?.length) o.post = parts[2];
      } else if (word === 'seq' || rep) {
        if (parts.length > 1) this.err(`${word}[...] takes one part`);
        Object.assign(o, rep ? { kind: 'repeat', times: Number(rep) } : { kind: 'sequential' }, { body: parts[0] });
      } else this.err(`'${word}' is not a container (add, add!, cat, seq, repN)`);
      return o as unknown as LayerSpec;
    }
    const kind = TEXT_KIND[word] ?? word;
    if (!LAYER_KINDS.includes(kind) || kind === 'block' || kind === 'repeat' || kind === 'sequential') this.err(`unknown layer kind '${word}'`, start);
    o.kind = kind;
    if (bang) o.inplace = true;
    const pos = POSITIONAL[kind] ?? [];
    let n = 0;
    for (;;) {
      this.ws();
      const t = /^[^\s;|[\]]+/.exec(this.s.slice(this.i, this.i + 64))?.[0];
      if (!t) break;
      const at = this.i;
      this.i += t.length;
      const flag = FLAG[t];
      const opt = /^(op|drop|[kspdg])(\d[\dx.]*)$/.exec(t);
      if (flag) o[flag[0]] = flag[1];
      else if (opt) {
        const [, key = '', text = ''] = opt; // neither group is optional
        const field = OPTION[key];
        const v = field === 'dropout' ? Number(text) : dims(text, false);
        if (field === undefined || v === null || (typeof v === 'number' && !Number.isFinite(v))) this.err(`bad value '${t}'`, at);
        o[field] = v;
      } else {
        const field = pos[n++];
        if (field === undefined) this.err(`unexpected '${t}' after ${word}`, at);
        const v = field === 'p' ? Number(t) : dims(t, field === 'shape');
        if (v === null || Number.isNaN(v)) this.err(`bad ${field} '${t}' for ${word}`, at);
        o[field] = v;
      }
    }
    return o as unknown as LayerSpec;
  }
}

class TextError extends Error {}

/** Parse the terse text form into a validated network for `input`. Never throws. */
export function parseLayerText(text: string, input: readonly number[]): Result<{ layers: LayerSpec[]; input: number[] }> {
  const bad = (message: string): Result<never> => ({ ok: false, errors: [{ key: 'network', code: 'network.text', message }] });
  if (text.length > MAX_TEXT) return bad(`text longer than ${MAX_TEXT} characters`);
  const p = new Parser(text);
  let layers: LayerSpec[];
  try {
    layers = p.list(0);
    if (p.peek() !== '') p.err(`unexpected '${p.peek()}'`);
  } catch (e) {
    if (e instanceof TextError) return bad(e.message);
    throw e;
  }
  return validateNetwork({ layers, input: [...input] });
}

const pairText = (v: Pair | number[]) => (typeof v === 'number' ? String(v) : v.join('x'));

function itemText(l: LayerSpec): string {
  const o = l as unknown as Record<string, unknown>;
  const at = l.name !== undefined ? `@${l.name}` : '';
  if (l.kind === 'block') {
    const parts = [listText(l.body), listText(l.shortcut ?? []), listText(l.post ?? [])];
    while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
    return `${l.merge === 'add' ? 'add' : 'cat'}${l.inplace ? '!' : ''}${at}[${parts.join(' | ')}]`;
  }
  if (l.kind === 'repeat' || l.kind === 'sequential') {
    return `${l.kind === 'repeat' ? `rep${l.times}` : 'seq'}${at}[${listText(l.body)}]`;
  }
  const words = [`${KIND_TEXT[l.kind] ?? l.kind}${o.inplace ? '!' : ''}${at}`];
  for (const f of POSITIONAL[l.kind] ?? []) if (o[f] !== undefined) words.push(pairText(o[f] as Pair));
  for (const [short, field] of Object.entries(OPTION)) {
    const v = o[field];
    if (v === undefined || (POSITIONAL[l.kind] ?? []).includes(field) || isDefault(field, v)) continue;
    words.push(`${short}${pairText(v as Pair)}`);
  }
  for (const [word, [field, value]] of Object.entries(FLAG)) if (o[field] === value) words.push(word);
  return words.join(' ');
}

/** torch.nn defaults that need not be written (stride/dilation/groups 1, padding 0). */
function isDefault(field: string, v: unknown): boolean {
  const d = field === 'padding' || field === 'outputPadding' ? 0 : field === 'stride' || field === 'dilation' || field === 'groups' ? 1 : null;
  return d !== null && (v === d || (Array.isArray(v) && v[0] === d && v[1] === d));
}

/** Consecutive identical items become repN[...] so repeated blocks stay short. */
function listText(ls: LayerSpec[]): string {
  // an unnamed sequential walks exactly like its items inline; an empty one stays `seq[]`, so a list
  // of nothing but empty sequentials is not written as the empty text the parser refuses
  const items = ls.flatMap((l) => (l.kind === 'sequential' && l.name === undefined && l.body.length > 0 ? [listText(l.body)] : [itemText(l)])).filter((x) => x !== '');
  const out: string[] = [];
  for (let i = 0; i < items.length;) {
    const item = items[i]!; // i < items.length
    let j = i + 1;
    while (j < items.length && items[j] === item) j++;
    out.push(j - i > 1 ? `rep${j - i}[${item}]` : item);
    i = j;
  }
  return out.join('; ');
}

/**
 * Write a layer list in the terse text form. `names: false` drops module names (shorter URLs);
 * parseLayerText(layerText(x)) gives back the same layers (names aside when dropped).
 */
export function layerText(layers: LayerSpec[], names = true): string {
  return listText(names ? layers : stripNames(layers));
}

function stripNames(ls: LayerSpec[]): LayerSpec[] {
  return ls.map((l) => {
    const c = { ...l };
    delete c.name;
    if (c.kind === 'block') return { ...c, body: stripNames(c.body), ...(c.shortcut && { shortcut: stripNames(c.shortcut) }), ...(c.post && { post: stripNames(c.post) }) };
    if (c.kind === 'repeat' || c.kind === 'sequential') return { ...c, body: stripNames(c.body) };
    return c;
  });
}
