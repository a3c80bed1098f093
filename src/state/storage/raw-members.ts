/**
 * The members of one JSON object as written: each name with the exact source text of its value.
 * JSON.parse then JSON.stringify is not the identity: `1e400` comes back as `null`, integers past
 * 2^53 are rounded, and of two members with the same name only the last survives (ECMA-262
 * JSON.parse, InternalizeJSONProperty). Saved data keeps what it cannot read "exactly as stored"
 * (docs/saved-data.md), so the stores carry each entry's own text and write it back untouched.
 *
 * Linear in the text: one left-to-right pass; value spans are skipped by depth counting.
 */

/** One member: the decoded name and the value's source text. */
export interface RawMember {
  name: string;
  raw: string;
}

const WS = new Set([' ', '\t', '\n', '\r']);

function skipWs(t: string, i: number): number {
  while (i < t.length && WS.has(t[i])) i++;
  return i;
}

/** Index just past the string literal that starts at i (t[i] === '"'). */
function endOfString(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    if (t[j] === '\\') j++;
    else if (t[j] === '"') return j + 1;
  }
  return t.length;
}

/** Index just past the value that starts at i (the text is known to be valid JSON). */
function endOfValue(t: string, i: number): number {
  const c = t[i];
  if (c === '"') return endOfString(t, i);
  if (c !== '{' && c !== '[') {
    let j = i;
    while (j < t.length && t[j] !== ',' && t[j] !== '}' && t[j] !== ']' && !WS.has(t[j])) j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < t.length; j++) {
    const d = t[j];
    if (d === '"') j = endOfString(t, j) - 1;
    else if (d === '{' || d === '[') depth++;
    else if (d === '}' || d === ']') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return t.length;
}

/** Members of the object whose text starts at i; null when there is no object there. */
function membersAt(t: string, i: number): RawMember[] | null {
  let j = skipWs(t, i);
  if (t[j] !== '{') return null;
  const out: RawMember[] = [];
  j = skipWs(t, j + 1);
  while (j < t.length && t[j] !== '}') {
    const nameEnd = endOfString(t, j);
    const name = JSON.parse(t.slice(j, nameEnd)) as string;
    const valueStart = skipWs(t, skipWs(t, nameEnd) + 1); // past ':'
    const valueEnd = endOfValue(t, valueStart);
    out.push({ name, raw: t.slice(valueStart, valueEnd) });
    j = skipWs(t, valueEnd);
    if (t[j] === ',') j = skipWs(t, j + 1);
  }
  return out;
}

/**
 * The members of the object held by member `field` of the top-level object in `text`, in order,
 * duplicates included; null when `text` is not valid JSON or has no such object (the last
 * `field` wins, as in JSON.parse).
 */
export function rawMembersOf(text: string, field: string): RawMember[] | null {
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  const top = membersAt(text, 0);
  if (!top) return null;
  const holder = top.filter((m) => m.name === field).at(-1);
  return holder ? membersAt(holder.raw, 0) : null;
}

/** `{"version":N,"<field>":{…}}` with every member's text as given (names re-encoded). */
export function envelopeText(version: number, field: string, members: readonly RawMember[]): string {
  const body = members.map((m) => `${JSON.stringify(m.name)}:${m.raw}`).join(',');
  return `{"version":${version},${JSON.stringify(field)}:{${body}}}`;
}
