import { existsSync, writeFileSync } from 'node:fs';
import { createLocalStore } from '../../../src/main/store';

/**
 * Child process: opens the store, says it is ready, waits for the go file, then claims items of
 * the batch until none is left and prints the claimed seqs as JSON.
 */
const [file, batchId, name] = process.argv.slice(2) as [string, string, string];
const store = createLocalStore(file);
writeFileSync(`${file}.ready-${name}`, '');
const sleeper = new Int32Array(new SharedArrayBuffer(4));
while (!existsSync(`${file}.go`)) Atomics.wait(sleeper, 0, 0, 2);
const claimed: number[] = [];
for (;;) {
  const item = store.batches.claimNext(batchId, Date.now());
  if (!item) break;
  claimed.push(item.seq);
}
store.close();
process.stdout.write(JSON.stringify(claimed));
