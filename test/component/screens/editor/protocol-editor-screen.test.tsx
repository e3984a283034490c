import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { describe, expect, it } from 'vitest';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import ProtocolEditorScreen from '@renderer/screens/editor/ProtocolEditorScreen';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

const LOCAL_ID = '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11';

describe('ProtocolEditorScreen: the protocol it opens', () => {
  it('a protocol that cannot be read: says so, and Try again reads it again', async () => {
    const desk = installOrderDesk({
      'protocols.get': () => refuse('not-found', 'No protocol with this id on this desk.'),
    });
    render(
      <Router hook={useGuardedHashLocation}>
        <ProtocolEditorScreen mode="edit" localId={LOCAL_ID} />
      </Router>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading the protocol…');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'The protocol could not be opened. No protocol with this id on this desk.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('alert');
    expect(desk.argsOf('protocols.get')).toEqual([{ localId: LOCAL_ID }, { localId: LOCAL_ID }]);
  });
});
