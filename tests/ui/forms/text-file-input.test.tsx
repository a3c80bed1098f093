// @vitest-environment happy-dom
import { afterEach, expect, test, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TextFileInput } from '../../../src/ui/forms/text-file-input';

afterEach(() => cleanup());

function pick(file: File) {
  const input = screen.getByLabelText<HTMLInputElement>('upload');
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  fireEvent.change(input);
}

test('a file within the limit is read and its text handed on', async () => {
  const onText = vi.fn();
  const onTooBig = vi.fn();
  render(<TextFileInput label="upload" accept=".json" maxBytes={1024} onText={onText} onTooBig={onTooBig} />);
  pick(new File(['{"hidden_size": 4096}'], 'config.json', { type: 'application/json' }));
  await waitFor(() => expect(onText).toHaveBeenCalledWith('{"hidden_size": 4096}'));
  expect(onTooBig).not.toHaveBeenCalled();
});

test('a file over the limit is refused before it is read', () => {
  const onText = vi.fn();
  const onTooBig = vi.fn();
  render(<TextFileInput label="upload" accept=".json" maxBytes={8} onText={onText} onTooBig={onTooBig} />);
  pick(new File(['0123456789'], 'big.json'));
  expect(onTooBig).toHaveBeenCalledTimes(1);
  expect(onText).not.toHaveBeenCalled();
});
