import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { StoreNotice } from '@shared/store-views';
import { StoreBanners } from '@renderer/components/StoreBanners';
import { useAppStore } from '@renderer/stores/app-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

const notice = StoreNotice.parse({
  id: 'notice-1',
  kind: 'store-recovered',
  at: '2026-11-26T10:00:00.000Z',
  connectionLabel: 'Clinic production',
  cause: 'damaged',
  keptAt: '/home/clinic/.config/Order Desk/connections/prod.db.damaged-2026-11-26',
  storeFile: '/home/clinic/.config/Order Desk/connections/prod.db',
  recovered: { protocols: 12, unsentChanges: 1, unfinishedBatches: 0, orders: 40 },
  unreadable: 2,
});

beforeEach(() => {
  useAppStore.setState(useAppStore.getInitialState(), true);
  useToastStore.setState(useToastStore.getInitialState(), true);
});

describe('StoreBanners: the disk and damaged databases, above every screen', () => {
  it('a disk that refuses writes is an alert with main’s message', () => {
    useAppStore.setState({
      storage: {
        fault: 'full',
        dataDir: '/home/clinic/.config/Order Desk',
        since: '2026-11-26T10:00:00.000Z',
        message: 'Nothing can be saved until space is freed on the disk.',
      },
    });
    installOrderDesk();
    render(<StoreBanners />);
    expect(screen.getByRole('alert').textContent).toBe(
      ' The disk is fullNothing can be saved until space is freed on the disk.',
    );
  });

  it('a recovered database: what was kept and recovered, dismissed through app.dismissNotice', async () => {
    useAppStore.setState({ notices: [notice] });
    const desk = installOrderDesk({ 'app.dismissNotice': () => null });
    render(<StoreBanners />);
    const banner = screen.getByRole('region', {
      name: 'Order Desk found the local database of “Clinic production” damaged',
    });
    expect(banner.textContent).toContain(notice.keptAt);
    expect(banner.textContent).toContain(
      'Recovered: 12 protocols, 1 unsent change (checked with the server before anything is sent again), 0 unfinished batches and 40 orders.',
    );
    expect(banner.textContent).toContain('2 rows could not be read.');
    await userEvent.click(
      within(banner).getByRole('button', {
        name: 'Dismiss the notice about the local database of “Clinic production”',
      }),
    );
    expect(desk.argsOf('app.dismissNotice')).toEqual([{ id: 'notice-1' }]);
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('a dismiss main refuses puts the notice back, and says so', async () => {
    useAppStore.setState({ notices: [{ ...notice, connectionLabel: null, unreadable: 0 }] });
    installOrderDesk({ 'app.dismissNotice': () => refuse('internal', 'The store is read-only.') });
    render(<StoreBanners />);
    const banner = screen.getByRole('region', {
      name: 'Order Desk found its list of connections and settings damaged',
    });
    expect(banner.textContent).toContain('Every row could be read: nothing is missing.');
    await userEvent.click(within(banner).getByRole('button', { name: /^Dismiss/ }));
    await waitFor(() => expect(screen.getByRole('region')).toBeTruthy());
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual([
      'The notice could not be dismissed.',
    ]);
  });
});
