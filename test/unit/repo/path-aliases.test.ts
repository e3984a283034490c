import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PATH_ALIASES } from '@repo/path-aliases';

/** tsconfig "paths" as TypeScript, tsx and Playwright read them. */
const pathsOf = (file: string): Record<string, string[]> =>
  (
    JSON.parse(readFileSync(file, 'utf8')) as {
      compilerOptions: { paths: Record<string, string[]> };
    }
  ).compilerOptions.paths;

describe('the path aliases', () => {
  it('are the same for Vite (path-aliases.ts) and for TypeScript, tsx and Playwright (tsconfig)', () => {
    const expected = Object.fromEntries(
      Object.entries(PATH_ALIASES).map(([alias, dir]) => [
        `${alias}/*`,
        [dir === '.' ? './*' : `./${dir}/*`],
      ]),
    );
    expect(pathsOf('tsconfig.base.json')).toEqual(expected);
    expect(pathsOf('tsconfig.json')).toEqual(expected);
  });
});
