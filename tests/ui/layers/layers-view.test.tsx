// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import LayersView from '../../../src/ui/layers/layers-view';
import { netStateOf, useNet } from '../../../src/ui/layers/net-store';
import { computeNet } from '../../../src/ui/layers/use-network';
import { useApp } from '../../../src/state/store';
import { freshViewEachTest } from './view-setup';

freshViewEachTest();

const value = (id: string) => Number(screen.getByTestId(id).getAttribute('data-value'));
const open = (name: string) => fireEvent.click(screen.getByRole('button', { name: `Show the layers of ${name}` }));
/** The table row whose first cell names the module `name` (exact). */
const rowOf = (name: string) => {
  const code = screen.getAllByText(name, { selector: 'td code' })[0];
  return code.closest('tr') as HTMLTableRowElement;
};

describe('Layer builder view', () => {
  test('ResNet-50 shows 25,557,032 parameters (torchvision resnet50, published count)', () => {
    render(<LayersView />);
    expect(screen.getByTestId('net-params').textContent).toBe('25,557,032');
    // the fc row: Linear(2048, 1000) has 2048·1000 + 1000 parameters
    expect(within(rowOf('fc')).getByText('2,049,000')).toBeTruthy();
  });

  test('editing conv1 of layer1.0 to 65 input channels shows the error on that row', () => {
    render(<LayersView />);
    open('layer1');
    open('layer1.0');
    fireEvent.click(screen.getByRole('button', { name: 'Edit layer1.0.conv1' }));
    fireEvent.change(screen.getByLabelText('in_channels'), { target: { value: '65' } });
    const alert = screen.getAllByRole('alert').find((a) => a.closest('tr')?.classList.contains('net-err-row'));
    expect(alert?.textContent).toMatch(/expects 65 input channels, got 64/);
    // the error row sits right under layer1.0.conv1, which is marked invalid
    const errRow = alert!.closest('tr')!;
    let prev = errRow.previousElementSibling as HTMLTableRowElement;
    while (prev && !prev.querySelector('td code')) prev = prev.previousElementSibling as HTMLTableRowElement;
    expect(prev.getAttribute('aria-invalid')).toBe('true');
    expect(within(prev).getAllByText('conv1')[0]).toBeTruthy();
    expect(screen.queryByTestId('net-params')).toBeNull();
  });

  test('a residual block switched from add to concat doubles the channels the next block receives', () => {
    render(<LayersView />);
    open('layer1');
    fireEvent.click(screen.getByRole('button', { name: 'Edit layer1.0' }));
    fireEvent.change(screen.getByLabelText('merge'), { target: { value: 'concat' } });
    // torch.cat of two [256, 56, 56] maps along channels gives [512, 56, 56]
    const alert = screen.getAllByRole('alert').find((a) => a.closest('tr')?.classList.contains('net-err-row'));
    expect(alert?.textContent).toMatch(/layer1\.1\.conv1.*expects 256 input channels, got 512/);
  });

  test('removing and adding layers changes the parameter total (MLP, counted by hand)', () => {
    useNet.getState().choosePreset('mlp');
    render(<LayersView />);
    // 784·512+512 + 512·512+512 + 512·10+10 (PyTorch quickstart NeuralNetwork)
    const full = 784 * 512 + 512 + 512 * 512 + 512 + 512 * 10 + 10;
    expect(value('net-params')).toBe(full);
    open('linear_relu_stack');
    fireEvent.click(screen.getByRole('button', { name: 'Remove linear_relu_stack.4' }));
    expect(value('net-params')).toBe(full - (512 * 10 + 10));
    // appending a Linear takes the network's output width: 512 -> 512
    fireEvent.change(screen.getByLabelText('Add a layer at the end'), { target: { value: 'linear' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add layer' }));
    expect(value('net-params')).toBe(full - (512 * 10 + 10) + 512 * 512 + 512);
  });

  test('moving max_pool2d above relu2 changes the tensors kept for backward by one pooled ReLU output (MNIST CNN)', () => {
    useNet.getState().choosePreset('cnn');
    useNet.getState().update({ batch: 8 });
    render(<LayersView />);
    const before = value('net-sum-act');
    fireEvent.click(screen.getByRole('button', { name: 'Move max_pool2d up' }));
    // relu saves its output (derivatives.yaml threshold_backward uses result), max_pool2d saves
    // its input and int64 indices, conv saves its input. Before: relu2 keeps [64,24,24]
    // which the pool reuses as its input. After: the pool keeps conv2's [64,24,24] output
    // and relu2 keeps its own [64,12,12] output: + 64·12·12 fp32 values per sample.
    expect(value('net-sum-act') - before).toBe(64 * 12 * 12 * 4 * 8);
    const rows = screen.getAllByRole('row').map((r) => r.querySelector('td code')?.textContent);
    expect(rows.indexOf('max_pool2d')).toBeLessThan(rows.indexOf('relu2'));
    // keyboard focus follows the moved layer
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Move max_pool2d up');
  });

  test('a typed capacity is compared: its largest batch fits and one more does not', () => {
    useNet.getState().update({ gpus: [] });
    render(<LayersView />);
    fireEvent.change(screen.getByLabelText('Custom capacity, e.g. 24gib or 16gb'), { target: { value: '12 GiB' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add capacity' }));
    expect(useNet.getState().gpus).toEqual(['12gib']);
    const shown = screen.getByText(/^largest batch /).textContent;
    const n = Number(shown.replace(/\D/g, ''));
    const at = (batch: number) => computeNet({ ...netStateOf(useNet.getState()), batch }).estimate!.deviceBytes;
    expect(at(n)).toBeLessThanOrEqual(12 * 2 ** 30);
    expect(at(n + 1)).toBeGreaterThan(12 * 2 ** 30);
    fireEvent.change(screen.getByLabelText('Custom capacity, e.g. 24gib or 16gb'), { target: { value: 'lots' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add capacity' }));
    expect(screen.getByText(/Write a capacity with its unit/)).toBeTruthy();
  });

  test('the whole view switches to Chinese with the page language', () => {
    useApp.setState({ lang: 'zh' });
    render(<LayersView />);
    expect(screen.getByRole('heading', { name: '合计' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '参数' })).toBeTruthy();
    expect(screen.getByTestId('net-params').textContent).toBe('25,557,032');
  });
});
