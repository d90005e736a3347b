// The four bundlers of the compatibility matrix and the size test, each set up
// as a user sets it up for a production browser build (compat/node_modules):
// `bundlers(entries)` gives, for entries { name: 'src/<file>.js' }, each
// bundler's config files and command, writing dist/<name>.js (shared code in
// dist/chunk-*.js).
import { tool } from './compat.mjs';

export function bundlers(entries) {
  const input = JSON.stringify(entries);
  const files = Object.values(entries);
  return [
    {
      name: 'Vite',
      pkg: 'vite',
      files: {
        'vite.config.mjs': `export default {
  logLevel: 'warn',
  build: {
    outDir: 'dist', emptyOutDir: true, target: 'es2022', modulePreload: false,
    rollupOptions: { input: ${input}, output: { entryFileNames: '[name].js', chunkFileNames: 'chunk-[hash].js' } },
  },
};\n`,
      },
      args: () => [tool('vite/bin/vite.js'), 'build'],
    },
    {
      name: 'webpack',
      pkg: 'webpack',
      files: {
        'webpack.config.mjs': `import { fileURLToPath } from 'node:url';
export default {
  mode: 'production',
  context: fileURLToPath(new URL('.', import.meta.url)),
  entry: ${JSON.stringify(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, `./${v}`])))},
  output: { path: fileURLToPath(new URL('./dist', import.meta.url)), filename: '[name].js', module: true, chunkFormat: 'module', clean: true },
  experiments: { outputModule: true },
  target: ['web', 'es2022'],
  performance: { hints: false },
};\n`,
      },
      args: () => [tool('webpack-cli/bin/cli.js'), '--config', 'webpack.config.mjs'],
    },
    {
      name: 'Rollup',
      pkg: 'rollup',
      files: {
        'rollup.config.mjs': `import { nodeResolve } from ${JSON.stringify(tool('@rollup/plugin-node-resolve/dist/es/index.js'))};
import terser from ${JSON.stringify(tool('@rollup/plugin-terser/dist/es/index.js'))};
export default {
  input: ${input},
  output: { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunk-[hash].js' },
  plugins: [nodeResolve({ browser: true }), terser()],
};\n`,
      },
      args: () => [tool('rollup/dist/bin/rollup'), '-c', 'rollup.config.mjs'],
    },
    {
      name: 'esbuild',
      pkg: 'esbuild',
      files: {},
      native: true, // compat/node_modules/esbuild/bin/esbuild is the Go binary itself
      args: () => [
        tool('esbuild/bin/esbuild'),
        ...files,
        '--bundle',
        '--format=esm',
        '--minify',
        '--platform=browser',
        '--target=es2022',
        '--outdir=dist',
        '--log-level=warning',
      ],
    },
  ];
}
