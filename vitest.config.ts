import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    globals: true,
    include: ['tests/**/*.test.{ts,tsx}'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30000,
    // the page's Chinese tables and the image-generation and training estimators are lazy chunks that main.tsx awaits before a first render that needs them: the same here
    setupFiles: ['tests/setup-zh.ts', 'tests/setup-estimators.ts'],
  },
});
