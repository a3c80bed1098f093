// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { ScenarioForm } from '../../../src/ui/calculator/scenario-form';
import { initialData, useApp } from '../../../src/state/store';

beforeEach(() => useApp.setState(initialData()));
afterEach(() => cleanup());

const group = (name: string) => screen.getByText(name, { selector: 'summary' }).closest('details')!;

test('training: the technique and framework groups start closed at their defaults', () => {
  useApp.getState().patch({ mode: 'training' });
  render(<ScenarioForm />);
  expect(group('Memory-saving techniques').open).toBe(false);
  expect(group('Framework details (accumulation, 4-bit compute, adapters)').open).toBe(false);
  // closed, but still labelled controls in the document for keyboard and screen-reader users once opened
  expect(screen.getByLabelText('torch.compile')).toBeTruthy();
});

test('a link that sets a key inside a group opens that group, so the setting is not hidden', () => {
  useApp.getState().patch({ mode: 'training', compile: 'inductor', gradAccum: 4 });
  render(<ScenarioForm />);
  expect(group('Memory-saving techniques').open).toBe(true);
  expect(group('Framework details (accumulation, 4-bit compute, adapters)').open).toBe(true);
});

test('raising gradient accumulation disables "fused into backward" at once (torchtune requires gradient_accumulation_steps=1 for optimizer_in_bwd)', () => {
  useApp.getState().patch({ mode: 'training' });
  render(<ScenarioForm />);
  const option = () => screen.getByRole<HTMLOptionElement>('option', { name: /Fused into backward/ });
  expect(option().disabled).toBe(false);
  act(() => useApp.getState().patch({ gradAccum: 4 }));
  expect(option().disabled).toBe(true);
});

test('the "All linear (PEFT all-linear)" button adapts every projection and is disabled once all are on', () => {
  useApp.getState().patch({ mode: 'training', method: 'lora' });
  render(<ScenarioForm />);
  const button = () => screen.getByRole<HTMLButtonElement>('button', { name: 'All linear (PEFT all-linear)' });
  expect(button().disabled).toBe(false);
  act(() => button().click());
  const s = useApp.getState();
  expect(s.scenarios[s.active].loraTargets).toEqual(['q', 'k', 'v', 'o', 'gate', 'up', 'down']);
  expect(button().disabled).toBe(true);
});

test('a key left at auto shows the number auto stands for: mean sample length seq/2 = 2048 at seq 4096, not the field minimum 1', () => {
  useApp.getState().patch({ mode: 'training', seq: 4096 });
  render(<ScenarioForm />);
  const box = screen.getByRole<HTMLInputElement>('textbox', { name: 'Mean sample length' });
  expect(box.value).toBe('2048');
  expect(box.disabled).toBe(true);
  // and its box says what auto means for this key (not "Engine default": no engine picks a data set's lengths)
  expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Half the sequence length (assumed)' }).checked).toBe(true);
});
