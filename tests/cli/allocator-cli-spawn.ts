// Spawns a CLI script the way `npm run --silent …` does (node + tsx), with optional stdin.
import { spawnSync } from 'node:child_process';

export interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function spawnCli(script: string, args: string[], stdin = ''): Spawned {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { input: stdin, encoding: 'utf8', cwd: process.cwd(), timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
