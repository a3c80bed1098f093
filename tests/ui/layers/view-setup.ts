import { afterEach, beforeEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { useNet } from '../../../src/ui/layers/net-store';
import { presetState } from '../../../src/ui/layers/net-url';
import { useApp, initialData } from '../../../src/state/store';

/** Component tests start from the default view state (ResNet-50) at ?view=layers, English. */
export function freshViewEachTest(): void {
  beforeEach(() => {
    history.replaceState(null, '', '/?view=layers');
    useNet.getState().load(presetState(), []);
  });
  afterEach(() => {
    cleanup();
    useApp.setState(initialData());
  });
}
