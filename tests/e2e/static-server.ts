import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Serves `root` under `prefix` (to prove the build works from a sub-path) on 127.0.0.1. */
export async function serveStatic(root: string, prefix = '/'): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => void serve(req, res));
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    if (!path.startsWith(prefix)) {
      res.writeHead(404).end();
      return;
    }
    let rel = path.slice(prefix.length);
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    rel = normalize(rel);
    if (rel.startsWith('..')) {
      res.writeHead(403).end();
      return;
    }
    const file = join(root, rel);
    try {
      const s = await stat(file);
      if (!s.isFile()) throw new Error('not a file');
      // as GitHub Pages and most static hosts do: a sandboxed frame (origin 'null') may load the modules
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'access-control-allow-origin': '*' });
      res.end(await readFile(file));
    } catch {
      res.writeHead(404).end();
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { server, url: `http://127.0.0.1:${port}${prefix}` };
}
