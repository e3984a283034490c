import { mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { StartupView } from '@shared/startup-views';
import { Core, type CoreOptions } from './core';
import { guardKeychain, isKeychainError } from './connections/keychain-guard';
import { opensWithKey, storeFileKind, type StoreKey } from './db/cipher';
import { encryptStoreFile, settleEncryption } from './db/encrypt-file';
import { storeFaultOf } from './db/store-faults';
import { CONNECTIONS_DIR, moveAside } from './db/store-files';
import { settleStoreFile } from './db/store-recovery';
import { recoverAppStore } from './stores/app-store';
import { lockDataFolder, type DataFolderLock } from './stores/data-folder-lock';
import { recoverConnectionStore } from './stores/local-store-recovery';
import { embeddedStoreFile, profileStoreFiles } from './stores/profile-files';
import { loadProfileKey, newProfileKey } from './stores/profile-key';
import { ENCRYPTED_NOTE, type EncryptedNote } from './stores/store-notes';

export type StartupOptions = Omit<CoreOptions, 'key'>;

/** What the IPC layer needs of the startup: its phase, the user's two ways out, the Core. */
export interface StartupPort {
  readonly dataDir: string;
  readonly state: StartupView;
  readonly core: Core | null;
  readonly ready: Promise<Core>;
  retry(): StartupView;
  startFresh(): Promise<StartupView>;
  onChange(listener: (view: StartupView) => void): () => void;
}

/** A Core opened some other way (tests), as a startup that is over. */
export function openedStartup(core: Core): StartupPort {
  const ready: StartupView = { phase: 'ready' };
  return {
    dataDir: core.dataDir,
    state: ready,
    core,
    ready: Promise.resolve(core),
    retry: () => ready,
    startFresh: async () => ready,
    onChange: () => () => undefined,
  };
}

/**
 * Opens a data folder, before anything else runs on it (docs/architecture.md, "Encryption at
 * rest"): takes the folder, finds the profile's key in the keychain, checks that it opens every
 * encrypted store, encrypts the stores an earlier version left plain (with progress), then opens
 * the Core. When the files cannot be opened with this desk's key it waits for the user: try
 * again (the keychain restored), or start fresh (the files moved aside, never deleted). The
 * window shows each phase (`startup.*` channels, the `startup` event).
 */
export class Startup implements StartupPort {
  private current: StartupView = { phase: 'starting' };
  private opened: Core | null = null;
  private running: Promise<void> = Promise.resolve();
  private closing = false;
  private readonly listeners = new Set<(view: StartupView) => void>();
  private resolveReady!: (core: Core) => void;
  /** Resolves with the Core once the data is open (never, if the app closes before). */
  readonly ready: Promise<Core>;
  readonly dataDir: string;
  private readonly options: StartupOptions;

  private constructor(
    options: StartupOptions,
    private readonly lock: DataFolderLock,
  ) {
    // Every keychain failure becomes a KeychainError, so it is told apart from a missing key.
    this.options = { ...options, credentials: guardKeychain(options.credentials) };
    this.dataDir = resolve(options.dataDir);
    this.ready = new Promise((done) => {
      this.resolveReady = done;
    });
  }

  /**
   * Takes the data folder (DataDirInUseError, at once, when another process has it) and starts
   * opening it; `ready` resolves when it is open.
   */
  static begin(options: StartupOptions): Startup {
    const dataDir = resolve(options.dataDir);
    mkdirSync(dataDir, { recursive: true });
    const startup = new Startup(options, lockDataFolder(dataDir));
    startup.running = startup.open();
    return startup;
  }

  get state(): StartupView {
    return this.current;
  }

  /** The Core once the data is open, else null. */
  get core(): Core | null {
    return this.opened;
  }

  /** The phase once the startup rests: ready, or waiting for the user (locked, failed). */
  settled(): Promise<StartupView> {
    return this.until((view) => view.phase !== 'starting' && view.phase !== 'encrypting');
  }

  /** The first phase with something to show: anything but 'starting'. */
  shown(): Promise<StartupView> {
    return this.until((view) => view.phase !== 'starting');
  }

  private until(done: (view: StartupView) => boolean): Promise<StartupView> {
    return new Promise((resolve) => {
      const check = (view: StartupView) => {
        if (!done(view)) return;
        off();
        resolve(view);
      };
      const off = this.onChange(check);
      check(this.current);
    });
  }

  /** Calls `listener` with every new phase; returns the unsubscribe function. */
  onChange(listener: (view: StartupView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** After the keychain was restored: opens again. Only while locked or failed. */
  retry(): StartupView {
    if (this.current.phase === 'locked' || this.current.phase === 'failed') {
      this.set({ phase: 'starting' });
      this.running = this.open();
    }
    return this.current;
  }

  /**
   * Moves the files that cannot be opened aside (`<name>.unreadable-<time>.db`, kept) and opens
   * again; a missing key is replaced by a new one. Only while locked for a key.
   */
  async startFresh(): Promise<StartupView> {
    const view = this.current;
    if (view.phase !== 'locked' || !view.canStartFresh) return view;
    this.set({ phase: 'starting' });
    try {
      const now = (this.options.clock ?? { now: Date.now }).now();
      for (const file of view.files) {
        const keptAt = moveAside(file, 'unreadable', now);
        this.options.log.warn(`started fresh: ${file} could not be opened; kept at ${keptAt}`);
      }
      if (view.reason === 'key-missing')
        await newProfileKey(this.dataDir, this.options.credentials);
    } catch (error) {
      this.fail(error);
      return this.current;
    }
    this.running = this.open();
    return this.current;
  }

  /** Closes the Core (once opening is over) and lets go of the data folder. */
  async close(): Promise<void> {
    this.closing = true;
    await this.running.catch(() => undefined);
    await this.opened?.close();
    this.opened = null;
    this.lock.release();
  }

  private set(view: StartupView): void {
    this.current = view;
    for (const listener of [...this.listeners]) {
      try {
        listener(view);
      } catch (error) {
        this.options.log.error('startup listener failed', error);
      }
    }
  }

  private fail(error: unknown): void {
    this.options.log.error('Order Desk could not open its data', error);
    const fault = storeFaultOf(error);
    const why =
      fault === 'full'
        ? 'the disk is full'
        : error instanceof Error
          ? error.message
          : String(error);
    const message = `Order Desk could not open its data in ${this.dataDir}: ${why}. Nothing was changed; ${
      fault === 'full' ? 'free some space on that disk, then try again.' : 'try again.'
    }`;
    this.set({ phase: 'failed', message });
  }

  private async open(): Promise<void> {
    try {
      const key = await this.findKey();
      if (!key || this.closing) return;
      await this.encryptPlainStores(key);
      if (this.closing) return;
      const core = await Core.open({ ...this.options, key });
      if (this.closing) {
        await core.close();
        return;
      }
      this.opened = core;
      this.set({ phase: 'ready' });
      this.resolveReady(core);
    } catch (error) {
      this.fail(error);
    }
  }

  /** The stores of the folder, each settled (a cut-short recovery or encryption finished or undone). */
  private storeFiles(): { file: string; kind: 'plain' | 'encrypted' }[] {
    const now = (this.options.clock ?? { now: Date.now }).now();
    const found: { file: string; kind: 'plain' | 'encrypted' }[] = [];
    for (const file of profileStoreFiles(this.dataDir, this.options.embeddedDb)) {
      settleEncryption(file);
      settleStoreFile(file, now);
      const kind = storeFileKind(file);
      if (kind !== 'absent') found.push({ file, kind });
    }
    return found;
  }

  /**
   * The profile's key, once it opens every encrypted store; else the user is asked (null): the
   * keychain cannot be reached, it has no key for this folder, or the key opens not every file.
   */
  private async findKey(): Promise<StoreKey | null> {
    const encrypted = this.storeFiles()
      .filter((f) => f.kind === 'encrypted')
      .map((f) => f.file);
    const locked = (
      reason: 'key-missing' | 'wrong-key' | 'keychain',
      message: string,
      files: string[],
    ) => {
      this.options.log.warn(`startup: ${reason}: ${message}`);
      this.set({
        phase: 'locked',
        reason,
        message,
        files,
        dataDir: this.dataDir,
        canStartFresh: reason !== 'keychain',
      });
      return null;
    };
    let found;
    try {
      found = await loadProfileKey(this.dataDir, this.options.credentials, encrypted.length > 0);
    } catch (error) {
      if (!isKeychainError(error)) throw error;
      return locked(
        'keychain',
        `The system keychain, which keeps the key to this desk’s data, cannot be reached: ${error.message}`,
        [],
      );
    }
    if (!found.found) return locked('key-missing', keyMissingMessage(this.options), encrypted);
    this.options.redactor.add(found.key);
    const unreadable = encrypted.filter((file) => !opensWithKey(file, found.key));
    if (unreadable.length > 0)
      return locked(
        'wrong-key',
        'These files cannot be opened with this desk’s key: they were encrypted with another key (a data folder from another computer, or restored from a backup), or they are damaged beyond reading. Restore the matching keychain entry and try again, or start fresh: the files are kept aside, not deleted.',
        unreadable,
      );
    return found.key;
  }

  /** The stores an earlier version left unencrypted, encrypted one after the other. */
  private async encryptPlainStores(key: StoreKey): Promise<void> {
    const plain = this.storeFiles()
      .filter((f) => f.kind === 'plain')
      .map(({ file }) => ({ file, size: statSync(file).size }));
    const total = plain.reduce((sum, f) => sum + 2 * f.size, 0);
    let before = 0;
    for (const [index, { file, size }] of plain.entries()) {
      if (this.closing) return;
      const show = (done: number) =>
        this.set({
          phase: 'encrypting',
          file,
          fileNumber: index + 1,
          files: plain.length,
          done: Math.min(before + done, total),
          total,
        });
      show(0);
      try {
        await encryptStoreFile(file, { key, onProgress: show, note: this.encryptedNote(file) });
        this.options.log.info(`encrypted ${file}`);
      } catch (error) {
        if (storeFaultOf(error) !== 'damaged') throw error;
        this.recoverDamaged(file, error, key);
      }
      before += 2 * size;
    }
  }

  /** A connection's store says it was encrypted, for its activity record (store-notes.ts). */
  private encryptedNote(file: string): { key: string; value: string } | undefined {
    if (dirname(file) !== join(this.dataDir, CONNECTIONS_DIR)) return undefined;
    const note: EncryptedNote = { at: (this.options.clock ?? { now: Date.now }).now() };
    return { key: ENCRYPTED_NOTE, value: JSON.stringify(note) };
  }

  /**
   * A plain store too damaged to encrypt: what can be read goes into a new, encrypted store, as
   * for any damaged store; the damaged file is kept aside as it is.
   */
  private recoverDamaged(file: string, error: unknown, key: StoreKey): void {
    const clock = this.options.clock ?? { now: Date.now };
    this.options.log.error(`${file} is damaged: recovering it into an encrypted store`, error);
    if (file === embeddedStoreFile(this.dataDir, this.options.embeddedDb)) {
      // The embedded sandbox begins anew: it is the demo partner's server, not the clinic's work.
      moveAside(file, 'damaged', clock.now());
    } else if (basename(file) === 'app.db') {
      recoverAppStore(file, error, clock, key);
    } else {
      recoverConnectionStore(file, error, { key, now: () => clock.now() });
    }
  }
}

/** Why the key is missing, and what to do; with --memory-keychain it lived for one run only. */
const keyMissingMessage = (options: StartupOptions) =>
  options.credentials.kind === 'memory'
    ? 'Keys are kept in memory for one run only (--memory-keychain), so the data an earlier run saved in this folder cannot be opened. Start fresh: its files are kept aside, not deleted.'
    : 'The key to this desk’s data is not in this computer’s keychain: the keychain was reset, or this data folder was copied from another computer. Restore the keychain (or unlock it) and try again, or start fresh: the files are kept aside, not deleted.';
