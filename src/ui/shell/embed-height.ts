/**
 * Embed mode: tell the parent page how tall the content is, so its <iframe> can fit it. Posts only
 * the height ({ type, height }), nothing about the scenario. The height is the body's own (its
 * content), not the document's scroll height, which is never less than the frame: a frame made
 * taller than the widget could then never shrink back to it.
 */
export const HEIGHT_MESSAGE = 'gpu-memory-calculator:height';

export function reportHeight(target: Window = window.parent): () => void {
  if (target === window) return () => {};
  let last = -1;
  const send = () => {
    const h = Math.ceil(document.body.getBoundingClientRect().height);
    // nothing is drawn yet before React's first render: no height to report
    if (h === last || h === 0) return;
    last = h;
    target.postMessage({ type: HEIGHT_MESSAGE, height: h }, '*');
  };
  const ro = new ResizeObserver(send);
  ro.observe(document.body);
  send();
  return () => ro.disconnect();
}
