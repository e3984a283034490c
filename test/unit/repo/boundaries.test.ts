import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The import boundaries (docs/architecture.md) are lint rules; these cases prove the rules still fire. */
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<number> {
  return await reports(filePath, code, 'no-restricted-imports');
}

async function reports(filePath: string, code: string, rule: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === rule).length;
}

describe('import boundaries', () => {
  it('names a folder two levels up or more by its alias, never by climbing', async () => {
    expect(
      await restrictedImports(
        'src/main/sync/x.ts',
        "import { Order } from '../../shared/api';\nexport const a = Order;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/main/sync/x.ts',
        "import { Order } from '@shared/api';\nexport const a = Order;\n",
      ),
    ).toBe(0);
    expect(
      await restrictedImports(
        'src/preload/x.ts',
        "import { Order } from '../../src/shared/api';\nexport const a = Order;\n",
      ),
    ).toBe(1);
  });

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
        "import Database from 'better-sqlite3-multiple-ciphers';\nexport const a = Database;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/shared/api/x.ts',
        "import { startSandbox } from '@sandbox/index';\nexport const a = startSandbox;\n",
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
        "import { x } from '@main/db';\nexport const a = x;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/renderer/src/x.ts',
        "import { Order } from '@shared/api';\nexport const a = Order;\n",
      ),
    ).toBe(0);
    expect(
      await restrictedImports(
        'src/renderer/src/x.ts',
        "import { Core } from '@main/core';\nexport const a = Core;\n",
      ),
    ).toBe(1);
  });

  it('keeps the sandbox from importing the app, and main from the sandbox but for its embedding', async () => {
    expect(
      await restrictedImports(
        'src/sandbox/x.ts',
        "import { x } from '../main/db';\nexport const a = x;\n",
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
        "import { OrderStore } from '@sandbox/store/orders';\nexport const a = OrderStore;\n",
      ),
    ).toBe(1);
    expect(
      await restrictedImports(
        'src/main/embedded-sandbox.ts',
        "import { startSandbox } from '../sandbox';\nexport const a = startSandbox;\n",
      ),
    ).toBe(0);
  });

  // A feature import from db/ breaks its own zone and the layers' (eslint/layers.js) both.
  it('keeps src/main/db below the features, and the migrations frozen', async () => {
    const paths = (file: string, code: string) =>
      reports(file, code, 'import-x/no-restricted-paths');
    expect(
      await paths(
        'src/main/db/x.ts',
        "import { ProtocolsRepo } from '../protocols/protocols-repo';\nexport const a = ProtocolsRepo;\n",
      ),
    ).toBeGreaterThan(0);
    expect(
      await paths(
        'src/main/db/x.ts',
        "import type { LocalStore } from '../stores';\nexport type A = LocalStore;\n",
      ),
    ).toBeGreaterThan(0);
    expect(
      await paths(
        'src/main/db/x.ts',
        "import { systemClock } from '../clock';\nexport const a = systemClock;\n",
      ),
    ).toBe(0);
    expect(
      await paths(
        'src/main/db/migrations/099-x.ts',
        "import { nameSortKey } from '../../protocols/protocol-search';\nexport const a = nameSortKey;\n",
      ),
    ).toBeGreaterThan(0);
    expect(
      await paths(
        'src/main/db/migrations/099-x.ts',
        "import { runTransaction } from '../rows';\nexport const a = runTransaction;\n",
      ),
    ).toBe(1);
    expect(
      await paths(
        'src/main/db/app-migrations/index.ts',
        "import type { Migration } from '../migrations';\nexport type A = Migration;\n",
      ),
    ).toBe(0);
  });

  it('keeps each layer of main below the layers above it, types included', async () => {
    const paths = (file: string, code: string) =>
      reports(file, code, 'import-x/no-restricted-paths');
    // catalog (records) stands below protocols: not even a type crosses upward.
    expect(
      await paths(
        'src/main/catalog/x.ts',
        "import type { ProtocolStore } from '@main/protocols/protocol-store';\nexport type A = ProtocolStore;\n",
      ),
    ).toBe(1);
    // Domain code never imports the IPC layer.
    expect(
      await paths(
        'src/main/orders/x.ts',
        "import { IpcFailure } from '@main/ipc/errors';\nexport const a = IpcFailure;\n",
      ),
    ).toBe(1);
    // bulk (batches) stands above orders.
    expect(
      await paths(
        'src/main/bulk/x.ts',
        "import type { OrderStore } from '@main/orders/order-store';\nexport type A = OrderStore;\n",
      ),
    ).toBe(0);
  });

  it('keeps the renderer in layers: lib, stores, components, screens, no screen importing another', async () => {
    const paths = (file: string, code: string) =>
      reports(file, code, 'import-x/no-restricted-paths');
    const R = 'src/renderer/src';
    const uses = (from: string) => `import * as m from '${from}';\nexport const a = m;\n`;
    expect(await paths(`${R}/lib/x.ts`, uses('@renderer/stores/toast-store'))).toBe(1);
    expect(await paths(`${R}/lib/x.ts`, uses('@renderer/screens/orders/use-order-queue'))).toBe(1);
    expect(await paths(`${R}/stores/x.ts`, uses('@renderer/screens/orders/use-order-queue'))).toBe(
      1,
    );
    expect(await paths(`${R}/components/x.ts`, uses('@renderer/screens/editor/editor-form'))).toBe(
      1,
    );
    expect(
      await paths(`${R}/screens/patients/x.ts`, uses('@renderer/screens/editor/editor-form')),
    ).toBe(1);
    expect(await paths(`${R}/screens/patients/x.ts`, uses('./use-patients'))).toBe(0);
    expect(
      await paths(`${R}/screens/patients/x.ts`, uses('@renderer/components/OrderProgress')),
    ).toBe(0);
    expect(await paths(`${R}/stores/x.ts`, uses('@renderer/lib/order-filters'))).toBe(0);
    // The resolver reads the renderer's files on its first use: slow on a busy machine.
  }, 120_000);

  // A circle needs two files: the text linted here stands in for a real file that another real
  // file imports, so the import added to it closes a circle through the files on disk.
  it('refuses an import circle in main and in the renderer, but not one of types only', async () => {
    const cycles = (file: string, code: string) => reports(file, code, 'import-x/no-cycle');
    // jobs/job-model.ts imports db/rows.ts.
    expect(
      await cycles(
        'src/main/db/rows.ts',
        "import { JobRow } from '../jobs/job-model';\nexport const a = JobRow;\n",
      ),
    ).toBe(1);
    expect(
      await cycles(
        'src/main/db/rows.ts',
        "import type { JobRow } from '../jobs/job-model';\nexport type A = JobRow;\n",
      ),
    ).toBe(0);
    // The renderer's stores/protocols-store.ts imports stores/batch-draft-store.ts.
    expect(
      await cycles(
        'src/renderer/src/stores/batch-draft-store.ts',
        "import { useProtocolsStore } from './protocols-store';\nexport const a = useProtocolsStore;\n",
      ),
    ).toBe(1);
  });
});
