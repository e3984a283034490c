// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

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
    "Import from two folders up or more by the folder's alias: @main/, @shared/, @renderer/, @sandbox/, @preload/ (path-aliases.ts).",
};

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
    // No import circles in the app's code: in a circle, the order in which modules initialise
    // depends on which one is imported first, and no layer stands above the other. Type-only
    // imports are not counted (they vanish at run time): a feature may name the store it is given
    // as a type. And the store's plumbing stays below the features, its migrations frozen.
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
            {
              target: './src/main/store',
              from: './src/main',
              except: ['./store', './clock.ts'],
              message:
                'src/main/store is the database plumbing that features use: it imports no feature (the store with its repositories is src/main/stores).',
            },
            {
              target: ['./src/main/store/migrations', './src/main/store/app-migrations'],
              from: './src',
              except: ['./main/store/migrations', './main/store/app-migrations'],
              message:
                'Migrations are frozen: they import no live code. Copy what one needs into it, as it is at that version.',
            },
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
