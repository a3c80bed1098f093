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
    // the page's Chinese tables are a lazy chunk that main.tsx awaits before a Chinese first render: the same here
    setupFiles: ['tests/setup-zh.ts'],
  },
});
