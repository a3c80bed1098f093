// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { lazy, useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { LazyDetails } from '../../../src/ui/forms/lazy-details';

afterEach(() => cleanup());

let loads = 0;
function Body() {
  const [v, setV] = useState('');
  return <input aria-label="Body field" value={v} onChange={(e) => setV(e.target.value)} />;
}
const LazyBody = lazy(() => {
  loads++;
  return Promise.resolve({ default: Body });
});

test('the body is not rendered (nor its code asked for) until the box is first opened; it then stays, with what was typed', async () => {
  loads = 0;
  render(
    <LazyDetails name="test" summary="More options">
      <LazyBody />
    </LazyDetails>,
  );
  const details = screen.getByText('More options').closest('details')!;
  expect(details.open).toBe(false);
  expect(screen.queryByLabelText('Body field')).toBeNull();
  expect(loads).toBe(0);
  fireEvent.click(screen.getByText('More options'));
  const field = await screen.findByLabelText<HTMLInputElement>('Body field');
  expect(loads).toBe(1);
  fireEvent.change(field, { target: { value: 'kept' } });
  // closed and opened again: the same body, the text still there, no second load
  fireEvent.click(screen.getByText('More options'));
  expect(details.open).toBe(false);
  fireEvent.click(screen.getByText('More options'));
  expect(screen.getByLabelText<HTMLInputElement>('Body field').value).toBe('kept');
  expect(loads).toBe(1);
});
