/**
 * `npm run --silent oom < train.log` or `npm run --silent oom -- train.log [--conf CONF] [--json]`
 *
 * Finds a PyTorch CUDA/HIP out-of-memory message in a log (or a torch.cuda.memory_stats() dict, or a
 * torch.cuda.memory_summary() table: src/core/allocator/paste.ts) and explains it: the figures and what
 * they mean, derived figures, diagnosis, advice fitted to the release and to --conf.
 * Exit codes: 0 decoded, 2 bad input (nothing found, unreadable file, bad flag or --conf).
 */
import { parseAllocConf, type Advice, type AdviceContext, type DecodedOom, type StatsReading, type SummaryReading } from '../core/allocator';
import { readPaste } from '../core/allocator/paste';
import { humanBytes } from '../core/units';
import { readInput, runIfMain, splitFlags, table } from './allocator-io';
import { usageError, type CliResult } from './output';

const USAGE = `usage: npm run --silent oom [-- FILE] [--conf CONF] [--json]
Reads FILE (or stdin) and decodes the first PyTorch out-of-memory message in it, or a
torch.cuda.memory_stats() dict, or a torch.cuda.memory_summary() table.
--conf gives the run's PYTORCH_CUDA_ALLOC_CONF (e.g. expandable_segments:True,max_split_size_mb:128):
advice then drops or changes what it already sets. --json prints every field, derived figure and advice code.
Exit codes: 0 decoded, 2 nothing found / bad input.
`;

function adviceText(advice: readonly Advice[]): string {
  return advice.map((a, i) => `  ${i + 1}. ${a.text}\n     why: ${a.why}`).join('\n');
}

function renderOom(o: DecodedOom, more: number, listed: number): string {
  const head = `PyTorch out-of-memory message: ${o.version.text}${o.exception ? `, raised as ${o.exception}` : ''}${o.backend === 'hip' ? ' (ROCm/HIP)' : ''}`;
  const out = [head, ''];
  if (o.kind === 'driver')
    out.push(
      '  CUDA error: out of memory comes from the driver (a kernel launch, cuBLAS/cuDNN handle, NCCL),',
      '  not from the caching allocator: the card is full, often before PyTorch allocated much.',
    );
  if (o.kind === 'over-1eb') out.push('  A request of 1 EiB or more: a negative or overflowed size reached the allocator (a shape bug, not a memory shortage).');
  if (o.fields.length) {
    const w = Math.max(...o.fields.map((f) => f.text.length));
    out.push('Figures', table(o.fields.map((f) => [f.key, `${f.text.padEnd(w)}  ${f.meaning.text}`])), '');
  }
  const d = o.derived;
  const rows: [string, string][] = [];
  if (d.reserved !== null) rows.push(['reserved by PyTorch', humanBytes(d.reserved)]);
  if (d.unallocated !== null) rows.push(['reserved but unallocated', humanBytes(d.unallocated)]);
  if (d.nonPyTorch !== null) rows.push(['this process outside PyTorch', `${humanBytes(d.nonPyTorch)}${d.assumedSelfPid !== null ? ` (taking process ${d.assumedSelfPid} as this one)` : ''}`]);
  if (d.otherProcesses !== null) rows.push(['other processes', humanBytes(d.otherProcesses)]);
  if (d.usedOutsideAllocator !== null) rows.push(['card memory outside this reserve', humanBytes(d.usedOutsideAllocator)]);
  if (rows.length) out.push('Derived', table(rows), '');
  if (d.request) out.push('Requested size', `  ${d.request.message.text}`, '');
  if (!o.complete && o.kind === 'allocator') out.push('The message looks truncated: some figures are missing, so no diagnosis.', '');
  if (o.diagnosis) out.push(`Diagnosis: ${o.diagnosis.message.text}`, '', 'Advice', adviceText(o.diagnosis.advice), '');
  if (more > 0) out.push(`(${more} more out-of-memory message${more > 1 ? 's' : ''} in the input; --json lists ${listed < more ? `the first ${listed}` : 'them'})`);
  return out.join('\n').trimEnd() + '\n';
}

function renderSummary(s: SummaryReading): string {
  const f = s.figures;
  const b = (v: number | null) => (v === null ? 'n/a' : humanBytes(v));
  const rows: [string, string][] = [
    ['allocated', b(f.allocated)],
    ['reserved', b(f.reserved)],
    ['reserved − allocated', b(f.cachedFree)],
    ['non-releasable (holes)', b(f.nonReleasable)],
    ['releasable by empty_cache()', b(f.releasable)],
    ['oversize segments', f.oversizeSegments === null ? 'n/a' : String(f.oversizeSegments)],
  ];
  if (s.numOoms !== null) rows.push(['CUDA OOMs / cudaMalloc retries', `${s.numOoms} / ${s.numAllocRetries ?? 'n/a'}`]);
  const out = [`torch.cuda.memory_summary() table${s.device !== null ? `, device ${s.device}` : ''}`, '', table(rows), '', `Diagnosis: ${s.diagnosis.text}`];
  if (s.advice.length) out.push('', 'Advice', adviceText(s.advice));
  return out.join('\n') + '\n';
}

function renderStats(s: StatsReading): string {
  const f = s.figures;
  const c = s.counters;
  const b = (v: number | null) => (v === null ? 'n/a' : humanBytes(v));
  const n = (v: number | null) => (v === null ? 'n/a' : String(v));
  const rows: [string, string][] = [
    ['allocated (current / peak)', `${b(f.allocated)} / ${b(f.allocatedPeak)}`],
    ['reserved (current / peak)', `${b(f.reserved)} / ${b(f.reservedPeak)}`],
    ['reserved − allocated', b(f.cachedFree)],
    ['non-releasable (holes)', `${b(f.nonReleasable)}${f.reserved && f.nonReleasable !== null ? ` (${((100 * f.nonReleasable) / f.reserved).toFixed(1)} % of reserved)` : ''}`],
    ['releasable by empty_cache()', b(f.releasable)],
    ['max_split_size', f.maxSplitSize === null ? 'unlimited' : b(f.maxSplitSize)],
    ['oversize allocations / segments', `${n(f.oversizeAllocations)} / ${n(f.oversizeSegments)}`],
    ['num_alloc_retries / num_ooms', `${n(c.numAllocRetries)} / ${n(c.numOoms)}`],
  ];
  if (c.numSyncAllStreams !== null) rows.push(['num_sync_all_streams', String(c.numSyncAllStreams)]);
  if (c.numDeviceAlloc !== null) rows.push(['num_device_alloc / num_device_free', `${c.numDeviceAlloc} / ${n(c.numDeviceFree)}`]);
  const out = [`torch.cuda.memory_stats() (${s.form}, ${s.entries} entries${s.more ? '; the first dict of several' : ''})`, '', table(rows), '', `Diagnosis: ${s.diagnosis.text}`];
  if (s.notes.length) out.push(...s.notes.map((x) => `note: ${x.text}`));
  if (s.advice.length) out.push('', 'Advice', adviceText(s.advice));
  return out.join('\n') + '\n';
}

/** The CLI on argv (without node and script); never throws. */
export function main(argv: readonly string[], stdin: () => string): CliResult {
  const f = splitFlags(argv, ['json', 'help'], ['conf']);
  if (!f.ok) return usageError(f.error);
  if (f.flags.has('help')) return { code: 0, stdout: USAGE, stderr: '' };
  if (f.positional.length > 1) return usageError('give at most one file (or pipe the log into stdin)');
  const input = readInput(f.positional[0] ?? null, stdin);
  if (!input.ok) return usageError(input.error);
  const confText = f.flags.get('conf');
  let conf: AdviceContext['conf'] = null;
  if (typeof confText === 'string') {
    const c = parseAllocConf(confText);
    if (!c.ok) return usageError(`--conf: ${c.errors[0]?.message ?? 'not a PYTORCH_CUDA_ALLOC_CONF value'}`);
    conf = { text: confText, value: c.value };
  }
  const json = f.flags.has('json');
  const out = (kind: string, value: object, text: string): CliResult => ({ code: 0, stdout: json ? `${JSON.stringify({ kind, ...value }, null, 2)}\n` : text, stderr: '' });
  const r = readPaste(input.text, conf);
  if (r.kind === 'oom') return out('oom', r.decode, renderOom(r.decode.oom, r.decode.count - 1, r.decode.others.length));
  if (r.kind === 'stats') return out('memory_stats', r.stats, renderStats(r.stats));
  if (r.kind === 'summary') return out('memory_summary', r.summary, renderSummary(r.summary));
  // found but unreadable (a figure out of range, text over the cap), or nothing found
  if (r.message.code !== 'paste-not-found') return usageError(r.message.text);
  return usageError(`no PyTorch out-of-memory message, memory_stats() dict or memory_summary() table found; expected a line like: ${r.example.slice(0, 110)}…`);
}

runIfMain(import.meta.url, main);
