// npm run bench: runs every bench/*.bench.ts and prints one table with targets.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchModule, BenchRow } from './types';
import '../src/core/all-estimators';

const dir = new URL('.', import.meta.url).pathname;
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
const rows: BenchRow[] = [];
for (const f of files) {
  const mod = (await import(pathToFileURL(join(dir, f)).href)) as { default: BenchModule };
  rows.push(...(await mod.default()));
}
const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
console.log('| benchmark | value | target | ok |');
console.log('|---|---|---|---|');
let failed = 0;
for (const r of rows) {
  const ok = r.target === undefined ? '' : r.value <= r.target ? 'yes' : 'NO';
  if (ok === 'NO') failed++;
  console.log(`| ${r.name} | ${fmt(r.value)} ${r.unit} | ${r.target === undefined ? '' : `≤ ${fmt(r.target)} ${r.unit}`} | ${ok} |`);
}
if (failed) console.log(`\n${failed} benchmark(s) over target`);
