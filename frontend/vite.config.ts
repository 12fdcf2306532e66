import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';

// https://vite.dev/config/
export default defineConfig({
  plugins: [svelte(), svelteTesting()],
  cacheDir: 'node_modules/.vite',
  build: {
    outDir: 'dist',
    // The CSP forbids inline script: keep every module in a file, never a data: URL.
    assetsInlineLimit: 0,
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
  },
});
