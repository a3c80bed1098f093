/**
 * Edits to a layer list, kept as a short list of operations on top of a base network (a preset
 * or an imported list) so a link carries "ResNet-50 + these changes", not every layer.
 *
 * Address of a layer: steps from the top-level list, '.'-joined; a step is `3` (body[3]),
 * `s0` (a block's shortcut[0]) or `p0` (a block's post[0]). Text form of an operation:
 *   `4.1(kernel:5,padding:2)`  set fields (a `kind` among them replaces the layer)
 *   `x4.1`                     delete
 *   `n4.1(kind:relu)`          insert a new layer before (index may equal the list length)
 *   `u4.1`                     move up (swap with the previous sibling)
 * Operations are joined with `~`. Values: numbers, `t`/`f`, lists `3_3`, bare words.
 */
import type { LayerSpec } from '../../core/layers/spec';

export type Step = { list: 'body' | 'shortcut' | 'post'; i: number };
export type FieldValue = number | boolean | string | number[];
export type Fields = Record<string, FieldValue>;

export type EditOp = { op: 'set'; at: Step[]; fields: Fields } | { op: 'del'; at: Step[] } | { op: 'ins'; at: Step[]; fields: Fields } | { op: 'up'; at: Step[] };

/** Most operations a link may carry (keeps a hostile link cheap). */
const MAX_EDITS = 200;

const STEP = /^(s|p)?(\d{1,6})$/;
const WORD = /^[a-z][a-z0-9]{0,31}$/;

export function addrText(at: Step[]): string {
  return at.map((s) => (s.list === 'body' ? '' : s.list[0]) + s.i).join('.');
}

function parseAddr(text: string): Step[] | null {
  const parts = text.split('.');
  const out: Step[] = [];
  for (const p of parts) {
    const m = STEP.exec(p);
    if (!m) return null;
    out.push({ list: m[1] === 's' ? 'shortcut' : m[1] === 'p' ? 'post' : 'body', i: Number(m[2]) });
  }
  return out.length > 0 && out[0].list === 'body' ? out : null;
}

function valueText(v: FieldValue): string {
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (Array.isArray(v)) return v.join('_');
  return String(v);
}

function parseValue(key: string, t: string): FieldValue | null {
  if (t === 't' || t === 'f') return t === 't';
  if (/^-?\d+(?:\.\d+)?$/.test(t)) return key === 'shape' ? [Number(t)] : Number(t);
  if (/^\d+(?:_\d+){1,7}$/.test(t)) return t.split('_').map(Number);
  return WORD.test(t) ? t : null;
}

const fieldsText = (f: Fields) =>
  `(${Object.entries(f)
    .map(([k, v]) => `${k}:${valueText(v)}`)
    .join(',')})`;

function parseFields(t: string): Fields | null {
  if (!t.startsWith('(') || !t.endsWith(')')) return null;
  const out: Fields = {};
  const body = t.slice(1, -1);
  if (body === '') return out;
  for (const part of body.split(',')) {
    const c = part.indexOf(':');
    const k = part.slice(0, c);
    const v = c > 0 && /^[A-Z]{1,20}$/i.test(k) ? parseValue(k, part.slice(c + 1)) : null;
    if (v === null || k === '__proto__') return null;
    out[k] = v;
  }
  return out;
}

/** Text form of an edit list (see the module comment). */
export function editsText(ops: EditOp[]): string {
  return ops
    .map((o) => {
      const a = addrText(o.at);
      if (o.op === 'set') return a + fieldsText(o.fields);
      if (o.op === 'ins') return `n${a}${fieldsText(o.fields)}`;
      return (o.op === 'del' ? 'x' : 'u') + a;
    })
    .join('~');
}

/** Parse an edit list; unreadable operations are returned in `bad` (never throws). */
export function parseEdits(text: string): { ops: EditOp[]; bad: string[] } {
  const ops: EditOp[] = [];
  const bad: string[] = [];
  const parts = text === '' ? [] : text.split('~');
  for (const raw of parts.slice(0, MAX_EDITS)) {
    const m = /^([xnu]?)([0-9sp.]+)(\(.*\))?$/.exec(raw);
    const at = m ? parseAddr(m[2]) : null;
    const fields = m?.[3] !== undefined ? parseFields(m[3]) : null;
    const kind = m?.[1];
    if (!m || !at) bad.push(raw.slice(0, 40));
    else if (kind === 'x' && !m[3]) ops.push({ op: 'del', at });
    else if (kind === 'u' && !m[3]) ops.push({ op: 'up', at });
    else if (kind === 'n' && fields && typeof fields.kind === 'string') ops.push({ op: 'ins', at, fields });
    else if (kind === '' && fields) ops.push({ op: 'set', at, fields });
    else bad.push(raw.slice(0, 40));
  }
  if (parts.length > MAX_EDITS) bad.push(`${parts.length - MAX_EDITS} more`);
  return { ops, bad };
}

const sameAddr = (a: Step[], b: Step[]) => addrText(a) === addrText(b);

/** Append an operation, folding a field change into the previous change of the same layer. */
export function pushEdit(ops: EditOp[], op: EditOp): EditOp[] {
  const last = ops[ops.length - 1];
  if (op.op === 'set' && last && (last.op === 'set' || last.op === 'ins') && sameAddr(last.at, op.at)) {
    const fields = typeof op.fields.kind === 'string' ? { ...op.fields } : { ...last.fields, ...op.fields };
    if (last.op === 'ins' && typeof fields.kind !== 'string') fields.kind = last.fields.kind;
    return [...ops.slice(0, -1), { ...last, fields }];
  }
  return [...ops, op];
}

/** The list holding the addressed layer, or null when the address does not exist. */
function listAt(layers: LayerSpec[], at: Step[]): LayerSpec[] | null {
  let list = layers;
  for (let k = 0; k < at.length - 1; k++) {
    const node = list[at[k].i];
    // a step's list names which list of its parent it indexes
    const child = node ? childList(node, at[k + 1].list) : null;
    if (!child) return null;
    list = child;
  }
  return at[0]?.list === 'body' ? list : null;
}

/** A container's child list ('body' of sequential/repeat/block, 'shortcut'/'post' of a block). */
function childList(node: LayerSpec, which: Step['list']): LayerSpec[] | null {
  if (node.kind === 'block') {
    if (which === 'body') return node.body;
    if (which === 'shortcut') return (node.shortcut ??= []);
    return (node.post ??= []);
  }
  return (node.kind === 'sequential' || node.kind === 'repeat') && which === 'body' ? node.body : null;
}

/** Apply one operation in place; false when its address does not exist. */
function applyOne(layers: LayerSpec[], o: EditOp): boolean {
  const list = listAt(layers, o.at);
  const i = o.at[o.at.length - 1].i;
  if (!list) return false;
  if (o.op === 'ins') {
    if (i > list.length) return false;
    list.splice(i, 0, { ...o.fields } as unknown as LayerSpec);
    return true;
  }
  const node = list[i];
  if (!node) return false;
  if (o.op === 'del') list.splice(i, 1);
  else if (o.op === 'up') {
    if (i === 0) return false;
    [list[i - 1], list[i]] = [node, list[i - 1]];
  } else {
    const next = typeof o.fields.kind === 'string' ? { name: node.name, ...o.fields } : { ...node, ...o.fields };
    if (next.name === undefined) delete next.name;
    list[i] = next as unknown as LayerSpec;
  }
  return true;
}

/**
 * The base layers with the operations applied, on a deep copy. Operations whose address does not
 * exist are skipped and returned in `skipped` (their text form).
 */
export function applyEdits(base: readonly LayerSpec[], ops: EditOp[]): { layers: LayerSpec[]; skipped: string[] } {
  const layers = structuredClone(base) as LayerSpec[];
  const skipped: string[] = [];
  for (const o of ops) if (!applyOne(layers, o)) skipped.push(editsText([o]));
  return { layers, skipped };
}
