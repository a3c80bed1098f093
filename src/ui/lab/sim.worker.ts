/**
 * The lab's simulator off the page's thread: receives { id, req: SimRequest }, answers
 * { id, res: SimResponse } (or { id, error } if the engine failed) in order (sim-engine.ts).
 */
import { createSimEngine, type SimRequest } from './sim-engine';

const engine = createSimEngine();

self.onmessage = (e: MessageEvent<{ id: number; req: SimRequest }>) => {
  const { id, req } = e.data;
  try {
    self.postMessage({ id, res: engine.handle(req) });
  } catch (err) {
    self.postMessage({ id, error: String(err) });
  }
};
