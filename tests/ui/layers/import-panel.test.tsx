// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import LayersView from '../../../src/ui/layers/layers-view';
import { useNet } from '../../../src/ui/layers/net-store';
import { freshViewEachTest } from './view-setup';
import { quickstartRepr } from './quickstart-repr';

freshViewEachTest();

const QUICKSTART = quickstartRepr('this line is not a module');

// the same network as a torchinfo summary (TylerYep/torchinfo default columns, batch 1)
const bar = '='.repeat(90);
const TORCHINFO = [
  bar,
  'Layer (type:depth-idx)                   Output Shape              Param #',
  bar,
  'NeuralNetwork                            [1, 10]                   --',
  '├─Flatten: 1-1                           [1, 784]                  --',
  '├─Sequential: 1-2                        [1, 10]                   --',
  '│    └─Linear: 2-1                       [1, 512]                  401,920',
  '│    └─ReLU: 2-2                         [1, 512]                  --',
  '│    └─Linear: 2-3                       [1, 512]                  262,656',
  '│    └─ReLU: 2-4                         [1, 512]                  --',
  '│    └─Linear: 2-5                       [1, 10]                   5,130',
  bar,
  'Total params: 669,706',
  'Trainable params: 669,706',
  'Non-trainable params: 0',
  bar,
].join('\n');

function paste(text: string) {
  fireEvent.change(screen.getByLabelText('Input shape per sample (C×H×W, no batch)'), { target: { value: '1x28x28' } });
  fireEvent.change(screen.getByLabelText('print(model) or torchinfo text'), { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Import' }));
}

describe('import', () => {
  test('print(model) text becomes the layer list; the unreadable line is shown with its number', () => {
    render(<LayersView />);
    paste(QUICKSTART);
    // 784·512+512 + 512·512+512 + 512·10+10
    expect(screen.getByTestId('net-params').textContent).toBe('669,706');
    expect(screen.getByText('Lines that could not be read (1):')).toBeTruthy();
    expect(screen.getByText('10: this line is not a module')).toBeTruthy();
    expect(useNet.getState().preset).toBe('custom');
  });

  test('a torchinfo summary is recognised and its stated total checked', () => {
    render(<LayersView />);
    paste(TORCHINFO);
    expect(screen.getByText(/from a torchinfo summary/)).toBeTruthy();
    expect(screen.getByText('Parameter check: torchinfo says 669,706, the imported layers have 669,706.')).toBeTruthy();
    expect(screen.getByTestId('net-params').textContent).toBe('669,706');
  });
});
