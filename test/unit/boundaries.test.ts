import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The import boundaries (docs/architecture.md) are lint rules; these cases prove the rules still fire. */
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').length;
}

describe('import boundaries', () => {
  it('keeps src/shared free of Node, environments and other folders', async () => {
    expect(
      await restrictedImports(
        'src/shared/x.ts',
        "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/shared/x.ts',
        "import Database from 'better-sqlite3';\nexport const a = Database;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/shared/api/x.ts',
        "import { startSandbox } from '../../sandbox';\nexport const a = startSandbox;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports('src/shared/x.ts', "import { z } from 'zod';\nexport const a = z;\n"),
    ).toBe(0);
  });

  it('keeps the renderer away from main, the sandbox, Node and Electron', async () => {
    expect(
      await restrictedImports(
        'src/renderer/src/x.ts',
        "import fs from 'fs';\nexport const a = fs;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/renderer/src/x.ts',
        "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/renderer/src/x.ts',
        "import { x } from '../../main/store';\nexport const a = x;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/renderer/src/x.ts',
        "import { Order } from '../../shared/api';\nexport const a = Order;\n",
      ),
    ).toBe(0);
  });

  it('keeps the sandbox from importing the app, and main from the sandbox but for its embedding', async () => {
    expect(
      await restrictedImports(
        'src/sandbox/x.ts',
        "import { x } from '../main/store';\nexport const a = x;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/main/x.ts',
        "import { startSandbox } from '../sandbox';\nexport const a = startSandbox;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/main/sync/x.ts',
        "import { OrderStore } from '../../sandbox/store/orders';\nexport const a = OrderStore;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/main/embedded-sandbox.ts',
        "import { startSandbox } from '../sandbox';\nexport const a = startSandbox;\n",
      ),
    ).toBe(0);
  });
});
