import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { IpcError } from '@shared/ipc';
import { PageError, SkeletonRow } from '@renderer/components/PageError';

describe('PageError and SkeletonRow: a list page that failed, a row not read yet', () => {
  it('says which rows failed and why, and tries again', async () => {
    const onRetry = vi.fn();
    const error = IpcError.parse({ kind: 'network', message: 'connect ECONNREFUSED' });
    render(<PageError error={error} what="Some orders could not be loaded." onRetry={onRetry} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(
      'Some orders could not be loaded. The server could not be reached.',
    );
    expect(alert.textContent).toContain('connect ECONNREFUSED');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('shows nothing without an error; a skeleton row is named for a screen reader', () => {
    render(
      <ul>
        <li>
          <PageError
            error={null}
            what="Some orders could not be loaded."
            onRetry={() => undefined}
          />
          <SkeletonRow label="Loading order…" />
        </li>
      </ul>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('listitem').textContent).toBe('Loading order…');
  });
});
