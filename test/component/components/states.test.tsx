import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { IpcError } from '@shared/ipc';
import { Empty, Failed, Loading } from '@renderer/components/States';

describe('States: loading, empty and failed', () => {
  it('loading is a status, empty a title with what follows it', () => {
    render(
      <>
        <Loading label="Loading orders…" />
        <Empty title="No orders yet.">
          <p>Orders placed here appear in this list.</p>
        </Empty>
      </>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading orders…');
    expect(screen.getByText('No orders yet.').nextElementSibling?.textContent).toBe(
      'Orders placed here appear in this list.',
    );
  });

  it('a failure in words, with its detail and a way to try again', async () => {
    const onRetry = vi.fn();
    const error = IpcError.parse({ kind: 'timeout', message: 'No answer in 30 s.' });
    render(<Failed what="Orders could not be loaded." error={error} onRetry={onRetry} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(
      'Orders could not be loaded. The server did not answer in time. Try again in a moment.',
    );
    expect(alert.textContent).toContain('No answer in 30 s.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('no retry offered when there is none', () => {
    const error = IpcError.parse({ kind: 'internal', message: 'The store is closed.' });
    render(<Failed what="The order could not be opened." error={error} />);
    expect(screen.getByRole('alert').textContent).toBe(
      'The order could not be opened. The store is closed.',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });
});
