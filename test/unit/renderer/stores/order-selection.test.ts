import { beforeEach, describe, expect, it } from 'vitest';
import { useOrdersStore } from '@renderer/stores/orders-store';

const ORDER = ['ord_a', 'ord_b', 'ord_c', 'ord_d', 'ord_e'];
const selected = () => [...useOrdersStore.getState().selected].sort();
const toggle = (id: string, range = false) =>
  useOrdersStore.getState().toggle(id, range, range ? ORDER : []);

describe('the order queue selection', () => {
  beforeEach(() => useOrdersStore.getState().reset());

  it('toggles one order on and off', () => {
    toggle('ord_b');
    expect(selected()).toEqual(['ord_b']);
    toggle('ord_b');
    expect(selected()).toEqual([]);
  });

  it('selects a range from the last one toggled, either way, and clears it the same way', () => {
    toggle('ord_b');
    toggle('ord_d', true);
    expect(selected()).toEqual(['ord_b', 'ord_c', 'ord_d']);
    // The anchor moved to ord_d: a range up to ord_a takes ord_a's new state (selected).
    toggle('ord_a', true);
    expect(selected()).toEqual(['ord_a', 'ord_b', 'ord_c', 'ord_d']);
    // From ord_a, a range to ord_c where ord_c is selected: it and those between are taken out.
    toggle('ord_c', true);
    expect(selected()).toEqual(['ord_d']);
  });

  it('clears the selection on a change of search or filter; Clear and reset empty it', () => {
    toggle('ord_a');
    useOrdersStore.getState().setSearch('someone');
    expect(selected()).toEqual([]);
    expect(useOrdersStore.getState().anchor).toBeNull();
    toggle('ord_a');
    // The same search again changes nothing, and keeps the selection.
    useOrdersStore.getState().setSearch('someone');
    expect(selected()).toEqual(['ord_a']);
    useOrdersStore.getState().setStatuses(['NEW']);
    expect(selected()).toEqual([]);
    toggle('ord_a');
    useOrdersStore.getState().setPreset('7d');
    expect(selected()).toEqual([]);
    toggle('ord_a');
    useOrdersStore.getState().clearSelection();
    expect(selected()).toEqual([]);
    toggle('ord_e');
    useOrdersStore.getState().reset();
    expect(selected()).toEqual([]);
    expect(useOrdersStore.getState().anchor).toBeNull();
  });

  it('without a range (or an anchor off the rows read) toggles only the one order', () => {
    toggle('ord_zz');
    toggle('ord_b', true);
    expect(selected()).toEqual(['ord_b', 'ord_zz']);
  });
});
