/**
 * The one network reader of the app: `HubGet` (src/core/hub/hub-read.ts) over the Fetch API, which
 * the browser and Node 20 both provide. Used by the page's "Fetch from Hugging Face" and the CLI's
 * `--hub`, only when the user asks. No cookies or credentials are sent; a body is read up to the
 * limit asked for and the rest is cancelled, so a server that ignores Range cannot make us download
 * a whole checkpoint.
 */
import type { HubGet, HubReply } from '../core/hub/hub-read';

export function fetchHubGet(fetchImpl: typeof fetch = fetch): HubGet {
  return async (url, range, maxBytes): Promise<HubReply> => {
    const headers: Record<string, string> = range ? { Range: `bytes=${range[0]}-${range[1]}` } : {};
    const res = await fetchImpl(url, { headers, credentials: 'omit', redirect: 'follow' });
    const reader = res.body?.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    let cut = false;
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.length > maxBytes) {
        parts.push(value.subarray(0, maxBytes - size));
        size = maxBytes;
        cut = true;
        await reader.cancel();
        break;
      }
      parts.push(value);
      size += value.length;
    }
    const body = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      body.set(p, at);
      at += p.length;
    }
    return { status: res.status, body, cut };
  };
}
