import { describe, expect, it } from 'vitest';
import { overwriteWarning } from '@renderer/screens/conflicts/choices';
import { compareConflict } from '@renderer/screens/conflicts/conflict-rows';
import { protocolRequest, serverProtocol } from '@test/support/store-fixtures';

const mine = protocolRequest({ lastName: 'Mine' });
const theirs = serverProtocol(
  'prt_1',
  '2026-11-01T10:00:00.000Z',
  protocolRequest({ lastName: 'Theirs' }),
);
const differing = (m: typeof mine | null, t: typeof theirs | null) =>
  compareConflict({ mine: m, theirs: t }, (id) => `Product ${id}`).flatMap((s) =>
    s.rows.filter((r) => r.differs),
  );

describe('conflicts: "Keep mine" asks before it overwrites the server', () => {
  it("names every value of the server's version that would be replaced", () => {
    const warning = overwriteWarning(
      { kind: 'edited-on-server', mine, theirs },
      'keep-mine',
      'Ada Mine',
      differing(mine, theirs),
    );
    expect(warning).toEqual({
      title: "Replace the server's version of Ada Mine?",
      lead: 'Your version is sent to the server and replaces theirs. These values on the server are overwritten:',
      fields: ['Name: "Ada Theirs" becomes "Ada Mine"'],
      confirmLabel: "Replace the server's version",
    });
  });

  it("asks before a kept delete deletes the server's changed copy", () => {
    expect(
      overwriteWarning(
        { kind: 'deleted-locally-edited-on-server', mine: null, theirs },
        'keep-mine',
        'Ada Theirs',
        [],
      ),
    ).toMatchObject({
      title: 'Delete Ada Theirs on the server?',
      confirmLabel: 'Delete it on the server',
    });
  });

  it('asks nothing when nothing on the server is overwritten', () => {
    const conflict = { kind: 'edited-on-server' as const, mine, theirs };
    expect(overwriteWarning(conflict, 'take-theirs', 'Ada', [])).toBeNull();
    expect(overwriteWarning(conflict, 'keep-both', 'Ada', [])).toBeNull();
    // Deleted on the server: keeping mine creates it again, overwriting nothing.
    expect(
      overwriteWarning({ kind: 'deleted-on-server', mine, theirs: null }, 'keep-mine', 'Ada', []),
    ).toBeNull();
  });
});
