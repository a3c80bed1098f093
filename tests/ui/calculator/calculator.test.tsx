// @vitest-environment happy-dom
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../src/ui/app';
import { initialData, useApp } from '../../../src/state/store';

const GiB = 2 ** 30;
// the panels under the chart are a lazy chunk: transform it once up front so the first test's 5 s are not spent on it
beforeAll(() => import('../../../src/ui/calculator/below-fold'), 30_000);
beforeEach(() => useApp.setState(initialData()));
afterEach(() => cleanup());

const box = (name: string) => screen.getByRole<HTMLInputElement>('textbox', { name });
const active = () => useApp.getState().scenarios[useApp.getState().active];

/**
 * The Size cell of a breakdown row, once the (settled) table shows it. The panels under the chart
 * are a lazy chunk; in happy-dom its first render in a file takes up to ~9 s (not seen in Chromium).
 */
async function termSize(term: string): Promise<string> {
  const table = await screen.findByRole('table', { name: /Memory terms/ }, { timeout: 15000 });
  const row = within(table).getByRole('button', { name: term }).closest('tr')!;
  return row.querySelectorAll('td')[2].textContent ?? '';
}

describe('calculator: forms -> store -> results', () => {
  test('Llama-3.1-8B in bf16: weights are 8,030,261,248 parameters x 2 bytes', async () => {
    render(<App />);
    // published count (keras-hub llama3_8b_en): 8,030,261,248; x 2 B = 14.96 GiB
    expect(await termSize('Weights')).toBe(`${((8_030_261_248 * 2) / GiB).toFixed(1)} GiB`);
    expect(screen.getByText(/8\.03B parameters/)).toBeTruthy();
  });

  test('typing a batch size reaches the store and the KV cache grows with it', async () => {
    render(<App />);
    fireEvent.change(box('Batch size'), { target: { value: '64' } });
    expect(active().batch).toBe(64);
    // Llama-3.1-8B config: 32 layers, 8 KV heads, head_dim 128; 2048 prompt + 256 generated, bf16:
    // 2 (K and V) x 32 x 8 x 128 x 2304 x 64 x 2 B
    const kv = 2 * 32 * 8 * 128 * 2304 * 64 * 2;
    // tables follow the settled input
    await waitFor(async () => expect(await termSize('KV cache')).toBe(`${(kv / GiB).toFixed(1)} GiB`), { timeout: 15000 });
  });

  test('an out-of-range number is explained next to the field and not applied', () => {
    render(<App />);
    fireEvent.change(box('Batch size'), { target: { value: '0' } });
    const field = box('Batch size').closest('.field') as HTMLElement;
    expect(within(field).getByRole('alert').textContent).toBe('Must be between 1 and 65,536.');
    expect(active().batch).toBe(1);
  });

  test('a bad config.json names the field; a good one (GPT-2) gives its published 124,439,808 parameters', async () => {
    render(<App />);
    // the box starts closed; its code arrives on the first open
    fireEvent.click(screen.getByText('Paste or upload config.json, or fetch it from Hugging Face'));
    const text = await screen.findByLabelText('config.json contents', undefined, { timeout: 10000 });
    fireEvent.change(text, { target: { value: '{"model_type":"gpt2","n_embd":"wide","n_layer":12,"n_head":12,"vocab_size":50257}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use this config' }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('n_embd');
    expect(active().model).toBe('meta-llama/Llama-3.1-8B');
    // openai-community/gpt2 config.json
    const gpt2 = { model_type: 'gpt2', n_embd: 768, n_layer: 12, n_head: 12, vocab_size: 50257, n_positions: 1024, n_inner: null, activation_function: 'gelu_new', tie_word_embeddings: true };
    fireEvent.change(text, { target: { value: JSON.stringify(gpt2) } });
    fireEvent.click(screen.getByRole('button', { name: 'Use this config' }));
    expect(active().model).toBe('custom');
    expect(await screen.findByText(/124\.44M parameters/)).toBeTruthy();
  });

  test('switching to QLoRA moves the weights to nf4 and disables 16-bit bases with a reason', () => {
    render(<App />);
    fireEvent.click(screen.getByRole('tab', { name: 'Training' }));
    fireEvent.change(screen.getByLabelText('Method'), { target: { value: 'qlora' } });
    expect(active().weights).toBe('nf4');
    const bf16 = within(screen.getByLabelText('Weight format')).getByRole<HTMLOptionElement>('option', { name: /^bf16/ });
    expect(bf16.disabled).toBe(true);
    expect(bf16.textContent).toContain('not with this training method');
    // LoRA rank is live for QLoRA, dead for full fine-tuning
    expect(box('LoRA rank').disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('Method'), { target: { value: 'full' } });
    expect(box('LoRA rank').disabled).toBe(true);
    // the rank, the target list, the dropout, the adapter dtype and lora-save (modules_to_save) say why
    expect(screen.getAllByText('Only used by LoRA and QLoRA.')).toHaveLength(5);
  });

  test('picking QLoRA applies the recipe people run, and Llama-3.1-8B then fits the default RTX 4090', () => {
    render(<App />);
    fireEvent.click(screen.getByRole('tab', { name: 'Training' }));
    fireEvent.change(screen.getByLabelText('Method'), { target: { value: 'qlora' } });
    // QLoRA paper / PEFT prepare_model_for_kbit_training: nf4 base, bf16 compute, checkpointing, paged 8-bit AdamW
    expect(active()).toMatchObject({ method: 'qlora', weights: 'nf4', bnbCompute: 'bf16', gradCkpt: 'full', optimizer: 'paged-adamw-8bit' });
    expect(screen.getByTestId('verdict-big').textContent).toBe('✓ Fits on GeForce RTX 4090');
    // LoRA keeps the other settings as they were
    fireEvent.change(screen.getByLabelText('Method'), { target: { value: 'lora' } });
    expect(active()).toMatchObject({ method: 'lora', optimizer: 'paged-adamw-8bit', gradCkpt: 'full' });
  });

  test('tensor parallel brings the GPU count with it; a count that cannot be split says so once, in words', () => {
    render(<App />);
    // world size = dp x tp x pp (Megatron-LM, DeepSpeed): tp 2 on 1 GPU needs 2 GPUs; tp 2 x pp 3 then needs 6
    fireEvent.change(box('Tensor parallel'), { target: { value: '2' } });
    expect(active()).toMatchObject({ tp: 2, gpus: 2 });
    fireEvent.change(box('Pipeline parallel'), { target: { value: '3' } });
    expect(active()).toMatchObject({ tp: 2, pp: 3, gpus: 6 });
    // typing 8 GPUs by hand: 8 is not a multiple of 6
    fireEvent.change(box('GPUs in total'), { target: { value: '8' } });
    expect(screen.getByTestId('verdict').textContent).toContain('8 GPUs cannot be split into groups of tensor parallel 2 × pipeline parallel 3 = 6');
    expect(screen.getByTestId('verdict').textContent).not.toContain('does not fit');
    // nothing else claims a fit or a miss for a scenario that cannot be estimated
    expect(screen.queryByText(/does not fit/)).toBeNull();
  });

  test('a bare parameter count: 7b in bf16 is 7e9 x 2 bytes of weights', async () => {
    render(<App />);
    fireEvent.change(box('Or a bare parameter count'), { target: { value: '7b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use count' }));
    expect(active()).toMatchObject({ model: '', params: 7e9 });
    await waitFor(async () => expect(await termSize('Weights')).toBe(`${((7e9 * 2) / GiB).toFixed(1)} GiB`), { timeout: 4000 });
    fireEvent.change(box('Or a bare parameter count'), { target: { value: 'seven' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use count' }));
    expect(screen.getByText(/Write a count like 7b/)).toBeTruthy();
  });

  test('choosing a term opens its derivation with formula, values and source', async () => {
    render(<App />);
    const table = await screen.findByRole('table', { name: /Memory terms/ });
    fireEvent.click(within(table).getByRole('button', { name: 'KV cache' }));
    const panel = screen.getByRole('heading', { name: /How KV cache is computed/ }).closest('section')!;
    expect(panel.querySelector('pre')!.textContent).toMatch(/L/);
    expect(within(panel).getByText('Source:').parentElement!.textContent.length).toBeGreaterThan('Source: '.length);
    // the user's own values appear: 32 layers
    expect(within(panel).getAllByText('32').length).toBeGreaterThan(0);
  });

  test('a GPU from the catalogue shows fit and headroom against its real capacity', () => {
    // the page now opens with an RTX 4090 (issue 12): start from no GPU to add one by hand
    useApp.getState().setGpus([]);
    render(<App />);
    fireEvent.change(screen.getByLabelText('Catalogue'), { target: { value: 'rtx-4090' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add GPU' }));
    expect(useApp.getState().gpus).toEqual(['rtx-4090']);
    // nvidia-smi reports 24564 MiB for an RTX 4090 = 23.99 GiB, shown as 24.0 GiB; the verdict replaced the one-line fit list
    expect(screen.getByTestId('verdict-big').textContent).toContain('Fits on GeForce RTX 4090');
    expect(screen.getByTestId('verdict-sub').textContent).toContain('of 24.0 GiB');
    fireEvent.change(screen.getByLabelText('Custom capacity'), { target: { value: 'lots' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add custom' }));
    expect(screen.getByText('Enter a capacity between 1 MiB and 64 TiB.')).toBeTruthy();
  });

  test('the language switch translates labels and messages', () => {
    render(<App />);
    fireEvent.click(screen.getByRole('button', { name: '简体中文' }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('GPU 显存计算器');
    fireEvent.change(box('批大小'), { target: { value: '0' } });
    expect(screen.getByText('必须在 1 到 65,536 之间。')).toBeTruthy();
  });
});

describe('calculator: comparison and checks', () => {
  test('the GPU comparison sorts by capacity (RTX 4090: 24564 MiB, A100 80GB: 81920 MiB per nvidia-smi)', async () => {
    useApp.getState().setGpus(['a100-80gb-sxm4', 'rtx-4090']);
    render(<App />);
    const table = await screen.findByRole('table', { name: /Chosen GPUs/ });
    const firstGpu = () => within(table).getAllByRole('row')[1].querySelector('td')!.textContent;
    expect(firstGpu()).toBe('NVIDIA A100 80GB SXM4');
    fireEvent.click(within(table).getByRole('button', { name: /Capacity/ }));
    const header = within(table)
      .getByRole('button', { name: /Capacity/ })
      .closest('th')!;
    const dir = header.getAttribute('aria-sort');
    expect(firstGpu()).toBe(dir === 'ascending' ? 'GeForce RTX 4090' : 'NVIDIA A100 80GB SXM4');
    fireEvent.click(within(table).getByRole('button', { name: /Capacity/ }));
    expect(firstGpu()).toBe(dir === 'ascending' ? 'NVIDIA A100 80GB SXM4' : 'GeForce RTX 4090');
  });

  test('"Check it on your GPU" prints the two torch counters and the nvidia-smi query', async () => {
    render(<App />);
    fireEvent.click(await screen.findByText('Check it on your GPU'));
    const pre = screen.getByText(/max_memory_allocated\(\)/, { selector: 'pre' }).textContent;
    expect(pre).toContain('torch.cuda.max_memory_reserved()');
    expect(pre).toContain('meta-llama/Llama-3.1-8B');
    expect(screen.getByText(/nvidia-smi --query-gpu=/, { selector: 'pre' }).textContent).toContain('memory.used');
  });

  test('columns: a second scenario is a copy that can differ and be removed', () => {
    render(<App />);
    fireEvent.click(screen.getByRole('button', { name: 'Add scenario' }));
    expect(useApp.getState().scenarios).toHaveLength(2);
    fireEvent.change(box('Batch size'), { target: { value: '16' } });
    expect(useApp.getState().scenarios.map((s) => s.batch)).toEqual([1, 16]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove scenario B' }));
    expect(useApp.getState().scenarios.map((s) => s.batch)).toEqual([1]);
  });
});

describe('calculator: preset search', () => {
  test('searching "mixtral 8x7" and choosing it gives its published 46,702,792,704 parameters', async () => {
    render(<App />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search presets' }), { target: { value: 'mixtral 8x7' } });
    const list = screen.getByRole('list', { name: 'Matching presets' });
    fireEvent.click(within(list).getAllByRole('button')[0]);
    expect(active().model).toBe('mistralai/Mixtral-8x7B-v0.1');
    // keras-hub mixtral_8_7b_en: 46,702,792,704 -> "46.7B"
    expect(await screen.findByText(/46\.7B parameters/)).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search presets' }), { target: { value: 'no such model zzz' } });
    expect(screen.getByText('No preset matches.')).toBeTruthy();
  });
});

describe('calculator: every scenario option has a control', () => {
  test('each schema key is in the Inference or the Training tab, or in an image model’s form (model, count and GPU have their own panels)', async () => {
    const { SCENARIO_FIELDS } = await import('../../../src/core/scenario/schema');
    const { FIELD_LABEL_EN } = await import('../../../src/ui/i18n/scenario-labels');
    render(<App />);
    const seen = new Set<string>();
    const collect = () => {
      for (const f of SCENARIO_FIELDS) {
        const label = FIELD_LABEL_EN[f.prop as keyof typeof FIELD_LABEL_EN];
        if (screen.queryAllByLabelText(label, { exact: true }).length > 0 || screen.queryAllByText(label, { selector: 'legend' }).length > 0) seen.add(f.prop);
      }
    };
    collect();
    fireEvent.click(screen.getByRole('tab', { name: 'Training' }));
    collect();
    // the image keys show for a vision-language model only (schema `models`)
    act(() => useApp.getState().patch({ model: 'Qwen/Qwen2-VL-7B-Instruct' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Inference' }));
    collect();
    // and the image-generation keys for an image model's own form
    fireEvent.click(screen.getByRole('button', { name: 'Stable Diffusion XL base 1.0' }));
    collect();
    const missing = SCENARIO_FIELDS.map((f) => f.prop).filter((p) => !seen.has(p) && !['model', 'params', 'gpu', 'mode'].includes(p));
    expect(missing).toEqual([]);
  });
});

describe('calculator: the form shows the keys the chosen model reads', () => {
  const shown = (label: string) => screen.queryAllByLabelText(label, { exact: true }).length > 0;
  test('an embedding model hides generation; a vision-language model shows its image keys', () => {
    render(<App />);
    expect([shown('Generated tokens'), shown('KV cache format'), shown('Images per sequence')]).toEqual([true, true, false]);
    act(() => useApp.getState().patch({ model: 'BAAI/bge-m3' }));
    expect([shown('Generated tokens'), shown('KV cache format'), shown('Prompt tokens')]).toEqual([false, false, true]);
    act(() => useApp.getState().patch({ model: 'llava-hf/llava-1.5-7b-hf' }));
    expect([shown('Generated tokens'), shown('Images per sequence'), shown('Image side (px)')]).toEqual([true, true, true]);
  });
});
