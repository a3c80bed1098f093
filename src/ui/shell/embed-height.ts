/**
 * Embed mode: tell the parent page how tall the content is, so its <iframe> can fit it. Posts only
 * the height ({ type, height }), nothing about the scenario.
 */
export const HEIGHT_MESSAGE = 'gpu-memory-calculator:height';

export function reportHeight(target: Window = window.parent): () => void {
  if (target === window) return () => {};
  let last = -1;
  const send = () => {
    const h = Math.ceil(document.documentElement.scrollHeight);
    if (h === last) return;
    last = h;
    target.postMessage({ type: HEIGHT_MESSAGE, height: h }, '*');
  };
  const ro = new ResizeObserver(send);
  ro.observe(document.body);
  send();
  return () => ro.disconnect();
}
