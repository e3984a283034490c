// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { mainLayers } from './eslint/layers.js';

/**
 * The renderer's layers, bottom to top: lib, stores, components, screens (App on top). Each folder
 * imports only below it, and no screen folder imports another: what two screens share goes down
 * into components/ or lib/. Zones for import-x/no-restricted-paths, relative to this folder.
 */
const RENDERER = './src/renderer/src';
const screenFolders = readdirSync(`${import.meta.dirname}/${RENDERER}/screens`, {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const rendererLayerZones = [
  {
    target: `${RENDERER}/lib`,
    from: [`${RENDERER}/stores`, `${RENDERER}/components`, `${RENDERER}/screens`],
    message: 'Renderer lib/ is the bottom layer: it imports no store, component or screen.',
  },
  {
    target: `${RENDERER}/stores`,
    from: [`${RENDERER}/components`, `${RENDERER}/screens`],
    message: 'Renderer stores/ import only lib/: shared logic a store needs goes down into lib/.',
  },
  {
    target: `${RENDERER}/components`,
    from: `${RENDERER}/screens`,
    message: 'Renderer components/ import no screen: they render props and raise intents.',
  },
  ...screenFolders.map((name) => ({
    target: `${RENDERER}/screens/${name}`,
    from: `${RENDERER}/screens`,
    except: [`./${name}`],
    message:
      'A screen imports no other screen: what two screens share goes into components/ or lib/.',
  })),
];

/**
 * Every way to name a Node built-in: `fs`, `fs/promises`, `node:fs`. A regex, not gitignore-style
 * names: those would also match a relative module of the same name (`./events`).
 */
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const nodeBuiltins = `^(node:)?(${builtinModules.map(escape).join('|')})(/.*)?$`;
const nativeAndElectron = [
  'electron',
  'electron/*',
  'better-sqlite3-multiple-ciphers',
  'keytar',
  'fastify',
  '@fastify/*',
];

/**
 * The import boundaries (docs/architecture.md), checked on every lint run:
 * - shared is pure TypeScript: no Node, no DOM-only libraries, no Electron, no other folder;
 * - renderer talks only to window.orderDesk: no main, sandbox, preload, Node or Electron;
 * - sandbox never imports main; main imports the sandbox only from its embedding module.
 */
const restrict = (patterns, paths = []) => ({
  'no-restricted-imports': ['error', { paths, patterns: [...patterns, climbing] }],
});

/**
 * An import that climbs two folders or more names its folder instead, by its alias
 * (path-aliases.ts): `@shared/api`, not `../../../../shared/api`.
 */
const climbing = {
  group: ['../../*', '../../**'],
  message:
    "Import from two folders up or more by the folder's alias: @main/, @shared/, @renderer/, @sandbox/, @preload/, @test/, @bench/, @repo/ (path-aliases.ts).",
};

/**
 * One zone per layer of src/main (eslint/layers.js): a layer's files import nothing from a layer
 * above it, type-only imports included, so the folders of main stand in one order, bottom to top.
 */
const mainLayerZones = mainLayers.slice(0, -1).map((layer, i) => {
  const above = mainLayers.slice(i + 1);
  return {
    target: layer.paths.map((p) => `./src/main/${p}`),
    from: above.flatMap((l) => l.paths.map((p) => `./src/main/${p}`)),
    message: `${layer.name} (${layer.paths.join(', ')}) imports only its own layer and those below it; ${above.map((l) => l.name).join(', ')} stand above (eslint/layers.js). Move the code the import wants down, or this code up.`,
  };
});

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.scratch/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // Every source file names a far folder by its alias (each folder's own rules below keep it).
    files: ['src/**/*.{ts,tsx}'],
    rules: restrict([]),
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: restrict([
      { regex: nodeBuiltins, message: 'src/shared is pure TypeScript: no Node built-ins.' },
      {
        group: [...nativeAndElectron, 'react', 'react-dom', 'zustand'],
        message: 'src/shared may not depend on an environment.',
      },
      {
        group: [
          '**/main',
          '**/main/**',
          '**/sandbox',
          '**/sandbox/**',
          '**/renderer/**',
          '**/preload/**',
          '@main/**',
          '@sandbox/**',
          '@renderer/**',
          '@preload/**',
        ],
        message: 'src/shared imports nothing outside itself.',
      },
    ]),
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict([
      { regex: nodeBuiltins, message: 'The renderer has no Node: talk to window.orderDesk.' },
      { group: nativeAndElectron, message: 'The renderer talks only to window.orderDesk.' },
      {
        group: [
          '**/main',
          '**/main/**',
          '**/sandbox',
          '**/sandbox/**',
          '**/preload',
          '**/preload/**',
          '@main/**',
          '@sandbox/**',
          '@preload/**',
        ],
        allowTypeImports: true,
        message: 'The renderer may import only src/shared (and the bridge types of preload).',
      },
    ]),
  },
  {
    files: ['src/sandbox/**/*.ts'],
    rules: restrict([
      {
        group: [
          '**/main',
          '**/main/**',
          '**/renderer/**',
          '**/preload/**',
          '@main/**',
          '@renderer/**',
          '@preload/**',
        ],
        message: 'The sandbox never imports the app.',
      },
    ]),
  },
  {
    // CommonJS on purpose (electron-builder hooks): require is how such a file imports.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests and benches name what they test by its alias, so a test file can move with its code.
    files: ['test/**/*.{ts,tsx}', 'bench/**/*.ts'],
    rules: restrict([]),
  },
  {
    // No import circles in the app's code: in a circle, the order in which modules initialise
    // depends on which one is imported first, and no layer stands above the other. Type-only
    // imports are not counted (they vanish at run time): a feature may name the store it is given
    // as a type. And the database plumbing stays below the features, its migrations frozen.
    files: [
      'src/main/**/*.ts',
      'src/renderer/src/**/*.{ts,tsx}',
      'src/preload/**/*.ts',
      'src/shared/**/*.ts',
    ],
    plugins: { 'import-x': importX },
    settings: {
      // TypeScript's own resolution, so the path aliases (tsconfig "paths") are followed too.
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: './tsconfig.base.json' }),
      ],
      // The imported files are parsed too, to follow their imports.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          // Zones are relative to this file's folder, wherever ESLint is started from.
          basePath: import.meta.dirname,
          zones: [
            ...mainLayerZones,
            {
              target: './src/main/db',
              from: './src/main',
              except: ['./db', './clock.ts'],
              message:
                'src/main/db is the database plumbing that features use: it imports no feature (the stores with their repositories are src/main/stores).',
            },
            {
              target: ['./src/main/db/migrations', './src/main/db/app-migrations'],
              from: './src',
              except: ['./main/db/migrations', './main/db/app-migrations'],
              message:
                'Migrations are frozen: they import no live code. Copy what one needs into it, as it is at that version.',
            },
            // The renderer's layers (lib, stores, components, screens): kept as one list apart.
            ...rendererLayerZones,
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/embedded-sandbox.ts'],
    rules: restrict([
      {
        group: [
          '**/renderer',
          '**/renderer/**',
          '**/preload',
          '**/preload/**',
          '@renderer/**',
          '@preload/**',
        ],
        message: 'Main never imports the renderer or preload.',
      },
      {
        group: ['**/sandbox', '**/sandbox/**', '@sandbox/**'],
        allowTypeImports: true,
        message: 'Main starts the sandbox only through src/main/embedded-sandbox.ts.',
      },
    ]),
  },
);
