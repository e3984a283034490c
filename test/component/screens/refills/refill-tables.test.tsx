import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RefillView } from '@shared/work-views';
import { DueTable } from '@renderer/screens/refills/DueTable';
import { NeverOrderedTable } from '@renderer/screens/refills/NeverOrderedTable';
import { SelectAllCheckbox } from '@renderer/screens/refills/SelectAllCheckbox';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-29T09:00:00.000Z');

const due = (n: number, name: string, daysLeft: number): RefillView =>
  RefillView.parse({
    protocol: {
      localId: `00000000-0000-4000-8000-00000000000${n}`,
      serverId: `prot_${n}`,
      customerName: name,
      sourceId: `PAT-${n}`,
      email: n === 1 ? 'ada@example.com' : null,
      syncState: 'synced',
      deleted: false,
      localUpdatedAt: NOW - 40 * DAY,
      change: null,
    },
    lastOrderId: `ord_${n}`,
    lastOrderedAt: new Date(NOW - (30 - daysLeft) * DAY).toISOString(),
    daysSupply: 30,
    runsOutAt: new Date(NOW + daysLeft * DAY).toISOString(),
    daysLeft,
    daysEarly: Math.max(0, daysLeft - 7),
  });

const ADA = due(1, 'Ada Lovelace', -2);
const GRACE = due(2, 'Grace Hopper', 12);

describe('DueTable (in its RefillTable)', () => {
  it('shows each due protocol: its last order, supply, days left and when the refill is due', () => {
    render(<DueTable due={[ADA, GRACE]} withinDays={14} selected={new Set()} onToggle={vi.fn()} />);
    const table = screen.getByRole('table', {
      name: 'Protocols whose supply runs out within 14 days, soonest first',
    });
    const [ada, grace] = within(table).getAllByRole('row').slice(1);
    expect(within(ada!).getByRole('rowheader').textContent).toBe('Ada Lovelace');
    expect(within(ada!).getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).toBe(
      `/protocols/${ADA.protocol.localId}`,
    );
    expect(within(ada!).getByRole('link', { name: 'Order ord_1' }).getAttribute('href')).toBe(
      '/orders/ord_1',
    );
    expect(ada!.textContent).toContain('Overdue Ran out 2 days ago');
    expect(ada!.textContent).toContain('Now');
    expect(grace!.textContent).toContain('12 days');
    expect(grace!.textContent).toContain('In 5 days');
    expect(grace!.textContent).toContain('30 days');
  });

  it('a row’s box chooses that protocol; the header box all of them', async () => {
    const onToggle = vi.fn();
    render(
      <DueTable
        due={[ADA, GRACE]}
        withinDays={14}
        selected={new Set([ADA.protocol.localId])}
        onToggle={onToggle}
      />,
    );
    const all = screen.getByRole('checkbox', { name: 'Select all due protocols' });
    expect((all as HTMLInputElement).indeterminate).toBe(true);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Grace Hopper (PAT-2)' }));
    expect(onToggle).toHaveBeenLastCalledWith([GRACE.protocol.localId], true);
    await userEvent.click(all);
    expect(onToggle).toHaveBeenLastCalledWith([ADA.protocol.localId, GRACE.protocol.localId], true);
  });
});

describe('NeverOrderedTable and its SelectAllCheckbox', () => {
  const protocols = [ADA.protocol, GRACE.protocol];

  it('lists the protocols never ordered with their email, or None', () => {
    render(<NeverOrderedTable protocols={protocols} selected={new Set()} onToggle={vi.fn()} />);
    const table = screen.getByRole('table', { name: 'Protocols not ordered as they stand' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'Ada LovelacePAT-1ada@example.com',
      'Grace HopperPAT-2None',
    ]);
  });

  it('with all chosen, the header box is checked and unchooses them all', async () => {
    const onToggle = vi.fn();
    render(
      <NeverOrderedTable
        protocols={protocols}
        selected={new Set(protocols.map((p) => p.localId))}
        onToggle={onToggle}
      />,
    );
    const all = screen.getByRole('checkbox', {
      name: 'Select all protocols not ordered yet',
    }) as HTMLInputElement;
    expect(all.checked).toBe(true);
    expect(all.indeterminate).toBe(false);
    await userEvent.click(all);
    expect(onToggle).toHaveBeenCalledWith(
      protocols.map((p) => p.localId),
      false,
    );
  });

  it('an empty list leaves nothing to choose', () => {
    render(<NeverOrderedTable protocols={[]} selected={new Set()} onToggle={vi.fn()} />);
    expect(
      (
        screen.getByRole('checkbox', {
          name: 'Select all protocols not ordered yet',
        }) as HTMLInputElement
      ).disabled,
    ).toBe(true);
  });
});

describe('SelectAllCheckbox', () => {
  it('with none chosen, is clear and chooses all it stands for', async () => {
    const onToggle = vi.fn();
    render(
      <SelectAllCheckbox
        label="Select all"
        ids={['a', 'b']}
        selected={new Set(['c'])}
        onToggle={onToggle}
      />,
    );
    const box = screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement;
    expect([box.checked, box.indeterminate]).toEqual([false, false]);
    await userEvent.click(box);
    expect(onToggle).toHaveBeenCalledWith(['a', 'b'], true);
  });
});
