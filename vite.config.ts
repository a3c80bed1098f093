import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * Content-Security-Policy of the built page (docs/embedding.md): scripts, styles and images from the
 * page's own origin only, no inline scripts, no plugins, no form posts. Connections: the own origin,
 * and the Hugging Face Hub with its file hosts (huggingface.co redirects weights to *.hf.co CDNs) for
 * "Fetch from Hugging Face", which asks only when the user presses Fetch.
 * 'unsafe-inline' in style-src is for style attributes (React and recharts set element styles);
 * data: images for inline SVG icons. frame-ancestors cannot be set in a <meta> policy: a host
 * that wants it sends it as an HTTP header.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' https://huggingface.co https://*.huggingface.co https://*.hf.co",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/** Adds the policy as the first element of <head>, in the build only (the dev server injects inline scripts). */
function csp(): Plugin {
  return {
    name: 'gpu-memory-calculator:csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' }],
  };
}

/**
 * Offline: a Workbox service worker precaches the whole build (every chunk, so the other views and
 * charts load offline too). It sits beside index.html and controls only that directory, so the
 * page works from any sub-path. Updates wait (registerType 'prompt'): a new worker takes over only
 * once every tab of the old version is closed, so an open page never loses the chunks it was built
 * with; the page says a new version is ready (src/ui/shell/offline.ts). Query strings are ignored
 * when matching the precache: every share link opens the cached page.
 */
const offline = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  manifest: false,
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,json}'],
    ignoreURLParametersMatching: [/.*/],
    navigateFallback: 'index.html',
    cleanupOutdatedCaches: true,
  },
});

/**
 * React and ReactDOM in a chunk of their own, preloaded beside the entry: they change only when the
 * dependency does, so a browser keeps them cached across releases of the page (the entry script,
 * which changes with every release, is then the calculator's own code). The JS loaded is the same.
 */
const REACT = /[\\/]node_modules[\\/](?:react|react-dom|scheduler)[\\/]/;

/**
 * Every other module the entry imports statically ('$initial') goes into the entry chunk itself.
 * Left alone, the bundler splits the modules that lazy chunks share with the entry into several
 * small preloaded chunks; the page must fetch all of them before it can paint anyway, and each
 * compresses on its own (~1.6 KiB more gzip in all). Lazy chunks import what they share from it.
 */
const ENTRY = { name: 'app', tags: ['$initial' as const] };

// base './' makes the build work from any sub-path of any static host.
export default defineConfig({
  base: './',
  plugins: [react(), csp(), offline],
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'react', test: REACT }, ENTRY],
        },
      },
    },
  },
});
