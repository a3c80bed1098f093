// @vitest-environment happy-dom
// Issue #16 point 8: a pasted config.json that starts with a UTF-8 byte-order mark is read like one without.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ConfigPaste } from '../../src/ui/calculator/config-paste';
import { initialData, useApp } from '../../src/state/store';

beforeEach(() => useApp.setState(initialData()));
afterEach(() => cleanup());

test('config.json pasted with a BOM becomes the custom model', () => {
  // Llama-2-7b config.json fields (Hugging Face)
  const cfg = {
    architectures: ['LlamaForCausalLM'],
    model_type: 'llama',
    hidden_size: 4096,
    intermediate_size: 11008,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 32,
    vocab_size: 32000,
    max_position_embeddings: 4096,
    tie_word_embeddings: false,
    torch_dtype: 'float16',
  };
  render(<ConfigPaste />);
  fireEvent.change(screen.getByLabelText('config.json contents'), { target: { value: `\uFEFF${JSON.stringify(cfg)}` } });
  fireEvent.click(screen.getByText('Use this config'));
  const s = useApp.getState().scenarios[0];
  expect(s.model).toBe('custom');
  expect(s.arch?.hidden).toBe(4096);
  expect(s.arch?.layers).toBe(32);
});
