// @vitest-environment happy-dom
import { afterEach, describe, expect, test, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { NumberField, parseTyped } from '../../../src/ui/forms/number-field';
import { useApp, initialData } from '../../../src/state/store';

afterEach(() => {
  cleanup();
  useApp.setState(initialData());
});

function Harness(p: { onChange?: (v: number) => void; integer?: boolean }) {
  const [v, setV] = useState(8);
  return (
    <NumberField
      label="Batch size"
      value={v}
      min={1}
      max={1024}
      integer={p.integer}
      log
      onChange={(x) => {
        setV(x);
        p.onChange?.(x);
      }}
    />
  );
}

describe('NumberField', () => {
  test('accepts grouping and a trailing decimal point, rejects junk', () => {
    expect(parseTyped('1,024')).toBe(1024);
    expect(parseTyped('12.')).toBe(12);
    expect(parseTyped('1e3')).toBe(1000);
    expect(parseTyped('')).toBeNull();
    expect(parseTyped('12abc')).toBeNull();
    expect(parseTyped('-')).toBeNull();
  });

  test('a half-typed number stays in the box and is not sent', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const box = screen.getByLabelText<HTMLInputElement>('Batch size');
    fireEvent.change(box, { target: { value: '' } });
    expect(box.value).toBe('');
    expect(screen.getByRole('alert').textContent).toBe('Enter a number.');
    fireEvent.change(box, { target: { value: '1' } });
    expect(onChange).toHaveBeenLastCalledWith(1);
    // "1." means 1, the value just stored: the box must keep the dot
    fireEvent.change(box, { target: { value: '1.' } });
    expect(box.value).toBe('1.');
  });

  test('out-of-range text is explained next to the field and not applied', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const box = screen.getByLabelText<HTMLInputElement>('Batch size');
    fireEvent.change(box, { target: { value: '5000' } });
    expect(onChange).not.toHaveBeenCalled();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Must be between 1 and 1,024.');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toContain(alert.id);
  });

  test('a fraction in an integer field is refused', () => {
    render(<Harness integer />);
    fireEvent.change(screen.getByLabelText('Batch size'), { target: { value: '2.5' } });
    expect(screen.getByRole('alert').textContent).toBe('Enter a whole number.');
  });

  test('moving the log slider updates the box: the ends are min and max', () => {
    render(<Harness />);
    const slider = screen.getByLabelText<HTMLInputElement>('Batch size (slider)');
    const box = screen.getByLabelText<HTMLInputElement>('Batch size');
    fireEvent.change(slider, { target: { value: '1000' } });
    expect(box.value).toBe('1024');
    fireEvent.change(slider, { target: { value: '0' } });
    expect(box.value).toBe('1');
    // halfway on a log scale from 1 to 1024 is sqrt(1024) = 32
    fireEvent.change(slider, { target: { value: '500' } });
    expect(box.value).toBe('32');
  });

  test('messages follow the language', () => {
    useApp.setState({ lang: 'zh' });
    render(<Harness />);
    fireEvent.change(screen.getByLabelText('Batch size'), { target: { value: '0' } });
    expect(screen.getByRole('alert').textContent).toBe('必须在 1 到 1,024 之间。');
  });
});
