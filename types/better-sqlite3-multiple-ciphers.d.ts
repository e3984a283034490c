// better-sqlite3-multiple-ciphers ships its types in index.d.ts without naming them in its
// package.json "exports", so TypeScript cannot find them. Its API is better-sqlite3's, whose
// types are these (encryption is set with PRAGMA statements, which need no types of their own).
declare module 'better-sqlite3-multiple-ciphers' {
  import Database from 'better-sqlite3';
  export = Database;
}
