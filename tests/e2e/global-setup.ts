import { execSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { serveStatic } from './static-server';

// Build once, serve dist/ under a sub-path, hand the URL to the tests.
export default async function setup(project: TestProject) {
  if (!process.env.E2E_SKIP_BUILD) execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
  const { server, url } = await serveStatic('dist', '/sub/path/');
  project.provide('baseUrl', url);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
