/**
 * Issue #16 point 4 (and the config byte-order mark of point 8): a path that is a device, a
 * directory or a file over the input cap is refused with one line before it is read, so
 * `oom /dev/zero` no longer grows to gigabytes and dies with std::bad_alloc.
 */
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main as allocatorCli } from '../../src/cli/allocator';
import { main as estimateCli } from '../../src/cli/estimate';
import { main as oomCli } from '../../src/cli/oom';
import { MAX_INPUT_BYTES, readTextFile } from '../../src/cli/read-input';

const noStdin = () => '';
const dir = mkdtempSync(join(tmpdir(), 'hostile-files-'));

describe('CLI paths are checked before reading', () => {
  test.each([
    ['oom /dev/zero', () => oomCli(['/dev/zero'], noStdin), /^error: cannot read \/dev\/zero: a character device, not a file\n$/],
    ['allocator /dev/urandom', () => allocatorCli(['/dev/urandom'], noStdin), /^error: cannot read \/dev\/urandom: a character device, not a file\n$/],
    ['oom on a directory', () => oomCli([dir], noStdin), /^error: cannot read .*: (a directory, not a file|EISDIR)\n$/],
    ['estimate --network /dev/zero', () => estimateCli(['--network', '/dev/zero', '--input', '4']), /^error: cannot read \/dev\/zero: a character device, not a file\n$/],
    // not a regular file, so not taken for a config path: named as an unknown model
    ['estimate --model /dev/zero', () => estimateCli(['--model', '/dev/zero']), /^error: model: unknown preset '\/dev\/zero'[^\n]*\n$/],
    ['estimate --model /dev/zero.json', () => estimateCli(['--model', '/dev/zero.json']), /^error: config: cannot read \/dev\/zero.json: ENOENT\n$/],
  ])('%s: one line, exit 2, at once', async (_, run, re) => {
    const t0 = performance.now();
    const r = await run();
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(re);
  });

  test('a sparse file one byte over the cap is refused by its size, unread', () => {
    const big = join(dir, 'big.log');
    writeFileSync(big, '');
    truncateSync(big, MAX_INPUT_BYTES + 1); // sparse: no disk used
    const t0 = performance.now();
    const r = oomCli([big], noStdin);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${big} is 64.0 MiB, larger than the 64 MiB limit\n`);
  });

  test('a file exactly at the cap is read', () => {
    const f = join(dir, 'exact.log');
    writeFileSync(f, '');
    truncateSync(f, 1024);
    const r = readTextFile(f, 1024);
    expect(r.ok && r.text.length).toBe(1024);
  });

  test('config.json with a UTF-8 byte-order mark is read like one without', async () => {
    // Llama-2-7b config fields (HF config.json)
    const cfg = {
      architectures: ['LlamaForCausalLM'],
      model_type: 'llama',
      hidden_size: 4096,
      intermediate_size: 11008,
      num_hidden_layers: 32,
      num_attention_heads: 32,
      num_key_value_heads: 32,
      vocab_size: 32000,
      max_position_embeddings: 4096,
      tie_word_embeddings: false,
      torch_dtype: 'float16',
    };
    const plain = join(dir, 'plain.json');
    const bom = join(dir, 'bom.json');
    writeFileSync(plain, JSON.stringify(cfg));
    writeFileSync(bom, `\uFEFF${JSON.stringify(cfg)}`);
    const a = await estimateCli(['--model', plain, '--json']);
    const b = await estimateCli(['--model', bom, '--json']);
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    // Llama-2-7b: 32·(4·4096² + 3·4096·11008 + 2·4096) + 2·32000·4096 + 4096 = 6,738,415,616 parameters
    const params = 32 * (4 * 4096 ** 2 + 3 * 4096 * 11008 + 2 * 4096) + 2 * 32000 * 4096 + 4096;
    expect(JSON.parse(b.stdout).params.total).toBe(params);
    expect(b.stdout).toBe(a.stdout);
  });
});
