/**
 * The top user stack frame of a recorded allocation: what the lab's "active memory by frame"
 * chart groups by. torch records each TraceEntry's `frames` innermost first, as
 * `{filename, line, name}` dicts (torch/csrc/cuda/memory_snapshot.cpp `frame_to_dict`; the same
 * order torch/cuda/_memory_viz.py prints). The user frame is the first Python frame (`.py`) outside
 * PyTorch's own package — an installed `site-packages/torch/` or `dist-packages/torch/`, a source
 * checkout's `pytorch/torch/`, or a relative `torch/` path: for a Hugging Face model that is the
 * model's `forward`, for a script the script's line. When every Python frame is PyTorch's, the
 * innermost frame stands in; an entry without frames has none (the chart's "unknown").
 */

interface FrameDict {
  filename?: unknown;
  line?: unknown;
  name?: unknown;
}

const asFrame = (f: unknown): FrameDict | null => (typeof f === 'object' && f !== null && !Array.isArray(f) ? f : null);

/** `file.py:12 forward`: the file's base name, line and function. */
function label(f: FrameDict, path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const line = typeof f.line === 'number' ? `:${f.line}` : '';
  const name = typeof f.name === 'string' && f.name ? ` ${f.name}` : '';
  return `${base}${line}${name}`;
}

/** Where PyTorch's own Python files live (a `/torch/` elsewhere, e.g. /opt/torch/.venv, is not it). */
const TORCH_DIRS = ['site-packages/torch/', 'dist-packages/torch/', 'pytorch/torch/'];

const isTorch = (path: string): boolean => path.startsWith('torch/') || TORCH_DIRS.some((d) => path.includes(d));

const isUserPython = (path: string): boolean => path.endsWith('.py') && !isTorch(path);

/** The label of the top user frame of `frames` (see above), or null when there are none. */
export function topUserFrame(frames: unknown): string | null {
  if (!Array.isArray(frames)) return null;
  let first: string | null = null;
  for (const raw of frames as unknown[]) {
    const f = asFrame(raw);
    if (!f || typeof f.filename !== 'string') continue;
    const path = f.filename.replaceAll('\\', '/');
    if (isUserPython(path)) return label(f, path);
    first ??= label(f, path);
  }
  return first;
}
