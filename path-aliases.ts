// The path aliases of the source folders, one list for every tool: Vite (electron-vite, the
// browser bridge, Vitest) reads this module; TypeScript, tsx and Playwright read the same names
// from tsconfig.base.json and tsconfig.json ("paths"), which test/unit/repo/path-aliases.test.ts keeps
// equal to this list. An import that climbs two folders or more (../../x) is refused by lint:
// it names the folder it wants instead (@main/jobs/..., @shared/api, @test/support/..., @repo/scripts/...).
import { fileURLToPath } from 'node:url';

/** Alias -> folder, relative to the repository. */
export const PATH_ALIASES: Record<string, string> = {
  '@main': 'src/main',
  '@shared': 'src/shared',
  '@renderer': 'src/renderer/src',
  '@sandbox': 'src/sandbox',
  '@preload': 'src/preload',
  '@test': 'test',
  '@bench': 'bench',
  /** The repository's own root files (path-aliases.ts, playwright.config.ts, scripts/). */
  '@repo': '.',
};

/** The aliases as Vite's resolve.alias takes them: absolute folders. */
export const viteAliases: Record<string, string> = Object.fromEntries(
  Object.entries(PATH_ALIASES).map(([alias, dir]) => [
    alias,
    fileURLToPath(new URL(`./${dir}`, import.meta.url)),
  ]),
);
