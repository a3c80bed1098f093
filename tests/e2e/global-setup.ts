import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { serveStatic } from './static-server';

/**
 * Build once, serve the build under a sub-path, hand its URL and folder to the tests.
 * The build is the production one (vitest sets NODE_ENV=test, which would give React's development
 * build) and goes to a temporary folder, removed afterwards, so no test build is left in dist/ to be
 * deployed. E2E_DIST=<folder> tests a build made elsewhere instead.
 */
export default async function setup(project: TestProject) {
  const given = process.env.E2E_DIST;
  const dir = given ?? mkdtempSync(join(tmpdir(), 'gmc-e2e-'));
  if (!given) {
    execSync(`npx vite build --logLevel warn --emptyOutDir --outDir "${dir}"`, { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  }
  const { server, url } = await serveStatic(dir, '/sub/path/');
  project.provide('baseUrl', url);
  project.provide('distDir', dir);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (!given) rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** the folder holding the served build */
    distDir: string;
  }
}
