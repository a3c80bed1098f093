/**
 * The generated catalogue modules are exactly what their generators make from the repo's data
 * files: each generator runs on data/*.json into a scratch file, which must equal the committed one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

const cases = [
  { tool: 'tools/gen-gpus.mjs', data: 'data/gpus.json', committed: 'src/core/gpus.data.ts' },
  { tool: 'tools/gen-presets.mjs', data: 'data/models.json', committed: 'src/core/model/presets-data.ts' },
];

describe('generated data matches data/', () => {
  for (const c of cases) {
    it(`${c.tool} regenerates ${c.committed} byte for byte`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'gen-'));
      try {
        const out = join(dir, 'out.ts');
        execFileSync(process.execPath, [join(root, c.tool), join(root, c.data), '--out', out], { stdio: 'pipe' });
        expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(root, c.committed), 'utf8'));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('refuses a second input file with its usage line', () => {
    expect(() => execFileSync(process.execPath, [join(root, 'tools/gen-gpus.mjs'), 'a.json', 'b.json'], { stdio: 'pipe' })).toThrow(/usage: node <generator> \[data\/gpus\.json\]/);
  });
});
