import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { VirtualRow } from '@renderer/components/VirtualRow';
import { VirtualRows } from '@renderer/components/VirtualRows';

interface Item {
  seq: number;
  name: string;
  rejected: boolean;
}

const items: Item[] = [
  { seq: 0, name: 'Ada Lovelace', rejected: false },
  { seq: 1, name: 'Grace Hopper', rejected: true },
  { seq: 2, name: 'Alan Turing', rejected: false },
];

describe('VirtualRows and VirtualRow: virtualised lists that tell each row’s place', () => {
  it('VirtualRows: each row rendered, named list, its place in the whole and its class', () => {
    render(
      <VirtualRows
        items={items}
        label="Orders of the batch"
        estimatedRow={48}
        keyOf={(i) => i.seq}
        rowClass={(i) => (i.rejected ? 'batch-item-rejected' : '')}
        renderRow={(i) => <span>{i.name}</span>}
      />,
    );
    const list = screen.getByRole('list', { name: 'Orders of the batch' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual(['Ada Lovelace', 'Grace Hopper', 'Alan Turing']);
    expect(
      rows.map((r) => [r.getAttribute('aria-posinset'), r.getAttribute('aria-setsize')]),
    ).toEqual([
      ['1', '3'],
      ['2', '3'],
      ['3', '3'],
    ]);
    expect(rows[1]!.className).toBe('batch-item batch-item-rejected');
    expect(rows[0]!.className).toBe('batch-item');
  });

  it('VirtualRow: placed where the virtualiser puts it, its place said', () => {
    render(
      <ul aria-label="Protocols">
        <VirtualRow index={41} total={1000} start={2460} height={60}>
          Ada Lovelace
        </VirtualRow>
      </ul>,
    );
    const row = screen.getByRole('listitem');
    expect(row.getAttribute('aria-posinset')).toBe('42');
    expect(row.getAttribute('aria-setsize')).toBe('1000');
    expect(row.style.transform).toBe('translateY(2460px)');
    expect(row.style.height).toBe('60px');
    expect(row.className).toBe('list-row');
  });
});
