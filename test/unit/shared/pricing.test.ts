import { describe, expect, it } from 'vitest';
import { centsToMoney, moneyToCents, roundHalfUp } from '@shared/money';
import { billedUnits, discountBps, formatDiscount, priceOrder } from '@shared/pricing';

describe('money', () => {
  it('round-trips two-decimal amounts through cents', () => {
    for (const m of ['0.00', '0.05', '1.10', '12345.67', '-3.20'])
      expect(centsToMoney(moneyToCents(m))).toBe(m);
  });

  it('refuses amounts without exactly two decimals', () => {
    for (const m of ['1', '1.5', '1.005', 'abc', ''])
      expect(() => moneyToCents(m)).toThrow(/two decimals/);
  });

  it('rounds half up', () => {
    expect(roundHalfUp(105, 10)).toBe(11);
    expect(roundHalfUp(104, 10)).toBe(10);
    expect(roundHalfUp(153, 10)).toBe(15);
  });
});

describe('partner discount', () => {
  it('clamps to 0..100% and formats with a percent sign', () => {
    expect(discountBps(null)).toBe(0);
    expect(discountBps(0.15)).toBe(1500);
    expect(discountBps(1.5)).toBe(10_000);
    expect(discountBps(-1)).toBe(0);
    expect(formatDiscount(0.15)).toBe('15%');
    expect(formatDiscount(0.125)).toBe('12.5%');
    expect(formatDiscount(null)).toBe('0%');
  });
});

describe('priceOrder', () => {
  const pack = { quantity: 2, price: '0.18', external: false };
  const powder = { quantity: 1, price: '54.00', external: true };

  it('prices a 30-day order: line totals from discountedPrice x quantity x days, fees, shipping', () => {
    const p = priceOrder({
      daysSupply: 30,
      shippingMethod: 'STANDARD',
      discountValue: 0.15,
      lineItems: [pack, powder],
    });
    // 0.18 * 0.85 = 0.153 -> 0.15 per pill; 0.15 * 2 pills * 30 days = 9.00
    expect(p.lines[0]).toEqual({ price: '0.18', discountedPrice: '0.15', totalPrice: '9.00' });
    // 54.00 * 0.85 = 45.90 per 30-day unit; one unit
    expect(p.lines[1]).toEqual({ price: '54.00', discountedPrice: '45.90', totalPrice: '45.90' });
    expect(p.totalFees).toBe('5.00');
    expect(p.totalVolumeDiscount).toBe('0.00');
    expect(p.subtotalPrice).toBe('59.90'); // 9.00 + 45.90 + 5.00
    expect(p.totalShipping).toBe('7.95');
    expect(p.totalPrice).toBe('67.85');
    // list 10.80 + 54.00 = 64.80; paid 54.90 -> 9.90 partner discount
    expect(p.totalDiscount).toBe('9.90');
    expect(p.discount).toBe('15%');
  });

  it('gives the volume discount for 60 and 90 days and bills external units per 30 days', () => {
    const p60 = priceOrder({
      daysSupply: 60,
      shippingMethod: 'EXPRESS',
      discountValue: 0.15,
      lineItems: [pack, powder],
    });
    expect(p60.lines.map((l) => l.totalPrice)).toEqual(['18.00', '91.80']);
    expect(p60.totalVolumeDiscount).toBe('5.49'); // 5% of 109.80 = 5.49
    expect(p60.totalFees).toBe('10.00'); // two units of powder
    expect(p60.subtotalPrice).toBe('114.31');
    expect(p60.totalPrice).toBe('134.26');
    expect(p60.totalDiscount).toBe('25.29');

    const p90 = priceOrder({
      daysSupply: 90,
      shippingMethod: 'OVERNIGHT',
      discountValue: null,
      lineItems: [pack],
    });
    expect(p90.lines[0]!.totalPrice).toBe('32.40'); // 0.18 * 2 * 90
    expect(p90.totalVolumeDiscount).toBe('3.24'); // 10%
    expect(p90.totalPrice).toBe('64.11'); // 29.16 + 34.95
  });

  it('always satisfies totalPrice = subtotal + shipping', () => {
    for (const daysSupply of [30, 60, 90] as const) {
      for (const shippingMethod of ['STANDARD', 'EXPRESS', 'OVERNIGHT'] as const) {
        const p = priceOrder({
          daysSupply,
          shippingMethod,
          discountValue: 0.07,
          lineItems: [pack, powder],
        });
        expect(moneyToCents(p.totalPrice)).toBe(
          moneyToCents(p.subtotalPrice) + moneyToCents(p.totalShipping),
        );
      }
    }
  });

  it('counts billed units by kind', () => {
    expect(billedUnits({ quantity: 3, external: false }, 90)).toBe(270);
    expect(billedUnits({ quantity: 2, external: true }, 90)).toBe(6);
  });
});
