import type { AppOrder, Protocol } from '@shared/api';

/** Deterministic pseudo-random numbers (LCG), so every run searches the same data. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  };
}

export const FIRST_NAMES = (
  'James,Mary,John,Patricia,Robert,Jennifer,Michael,Linda,William,Elizabeth,David,Barbara,' +
  'Richard,Susan,Joseph,Jessica,Thomas,Sarah,Charles,Karen,Christopher,Lisa,Daniel,Nancy,' +
  'Matthew,Betty,Anthony,Margaret,Mark,Sandra,Donald,Ashley,Steven,Kimberly,Paul,Emily,' +
  'Andrew,Donna,Joshua,Michelle,Kenneth,Carol,Kevin,Amanda,Brian,Dorothy,George,Melissa,' +
  'Timothy,Deborah,José,María,Zoë,Chloé,Renée,Björn,Søren,Chen,Wei,Aisha,Fatima,Olga,Mateo,' +
  'Sofía,Liam,Noah,Emma,Olivia,Ava,Isabella,Lucas,Mia,Ethan,Amelia,Hiroshi,Yuki,Priya,' +
  'Arjun,Kwame,Amara,Dmitri,Ingrid,Siobhan,Niamh,Ahmed'
).split(',');

export const LAST_NAMES = (
  'Smith,Johnson,Williams,Brown,Jones,Garcia,Miller,Davis,Rodriguez,Martinez,Hernandez,' +
  'Lopez,Gonzalez,Wilson,Anderson,Thomas,Taylor,Moore,Jackson,Martin,Lee,Perez,Thompson,' +
  'White,Harris,Sanchez,Clark,Ramirez,Lewis,Robinson,Walker,Young,Allen,King,Wright,Scott,' +
  'Torres,Nguyen,Hill,Flores,Green,Adams,Nelson,Baker,Hall,Rivera,Campbell,Mitchell,Carter,' +
  'Roberts,Gomez,Phillips,Evans,Turner,Diaz,Parker,Cruz,Edwards,Collins,Reyes,Stewart,' +
  "Morris,Morales,Murphy,Cook,Rogers,Gutierrez,Ortiz,Morgan,Cooper,Peterson,O'Brien," +
  "O'Connor,McDonald,MacLeod,Kowalski,Nowak,Müller,Schmidt,Schröder,Nakamura,Tanaka," +
  'Watanabe,Okafor,Adeyemi,Mensah,Núñez,Peña,Ibáñez,Dubois,Lefèvre,Rossi,Bianchi,Ivanov,' +
  'Petrov,Andersson,Johansson,Virtanen,Kim,Park,Patel,Shah,Singh,Khan,Ali,Chen,Wang,Li,' +
  'Zhang,Liu,Van der Berg,De Vries'
).split(',');

const DOMAINS = [
  'gmail.com',
  'yahoo.com',
  'outlook.com',
  'icloud.com',
  'hotmail.com',
  'proton.me',
  'clinic-health.org',
  'example.net',
];

const ascii = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[' ]/g, '')
    .toLowerCase();

/** The sandbox catalog's product ids (1001 to 1042). */
export const CATALOG_PRODUCT_IDS = Array.from({ length: 42 }, (_, k) => 1001 + k);

/**
 * The products of protocol `i`: one to four distinct catalog products, spread evenly (each
 * product on about 6% of the protocols), from `i` alone so that the names drawn do not change.
 */
export function productsOf(i: number): number[] {
  const n = 1 + ((i * 7) % 4);
  const ids = CATALOG_PRODUCT_IDS;
  return Array.from({ length: n }, (_, k) => ids[(i * 13 + k * 17) % ids.length]!);
}

/**
 * `count` server protocols with realistic customers: 100+ first and last names (some with
 * diacritics, apostrophes, spaces), sourceIds in two styles of partner systems ("PAT-0012345"
 * with a shared prefix, and 8-digit record numbers), emails in common shapes (15% without), and
 * one to four catalog products each (productsOf).
 */
export function generateProtocols(count: number, seed = 20250301): Protocol[] {
  const r = seededRandom(seed);
  const out: Protocol[] = [];
  const base = Date.parse('2024-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) {
    const firstName = r.pick(FIRST_NAMES);
    const lastName = r.pick(LAST_NAMES);
    const sourceId =
      r.next() < 0.7
        ? `PAT-${String(1_000_000 + i * 7).padStart(7, '0')}`
        : String(10_000_000 + r.int(89_999_999));
    const shape = r.int(4);
    const local = [
      `${firstName}.${lastName}`,
      `${firstName[0]}${lastName}`,
      `${firstName}${lastName}${r.int(100)}`,
      `${lastName}.${firstName}${r.int(10)}`,
    ][shape]!;
    const email = r.next() < 0.15 ? null : `${ascii(local)}@${r.pick(DOMAINS)}`;
    const at = new Date(base + i * 60_000).toISOString();
    out.push({
      id: `prt_${i.toString(36).padStart(8, '0')}`,
      customer: {
        sourceId,
        firstName,
        lastName,
        email,
        phone: `+1 503 555 ${String(r.int(10_000)).padStart(4, '0')}`,
        address: {
          line1: `${1 + r.int(9999)} Main St`,
          line2: null,
          city: 'Portland',
          state: 'OR',
          zipCode: '97210',
        },
      },
      daysSupply: 30,
      orderType: 'ONE_TIME',
      shippingMethod: 'STANDARD',
      discount: '10%',
      lineItems: productsOf(i).map((productId) => ({
        productId,
        name: `Product ${productId}`,
        quantity: 2,
        price: '0.50',
        discountedPrice: '0.45',
        totalPrice: '27.00',
        external: productId === 1035,
        imageUrl: null,
        administration:
          productId === 1035 ? null : { morning: 1, afternoon: 0, evening: 1, sleep: 0 },
      })),
      subtotalPrice: '81.00',
      totalDiscount: '9.00',
      totalFees: '5.00',
      totalVolumeDiscount: '0.00',
      totalShipping: '5.00',
      totalPrice: '82.00',
      createdAt: at,
      updatedAt: at,
    });
  }
  return out;
}

/** The day the orders of `ordersOf` are dated back from. */
export const ORDERS_NOW = Date.parse('2025-06-01T00:00:00Z');

/**
 * Orders for a third of the protocols (every third one, delivered, made in the 200 days before
 * ORDERS_NOW, 30, 60 or 90 days' supply): the mirror of a clinic whose patients have ordered.
 */
export function ordersOf(protocols: readonly Protocol[]): AppOrder[] {
  const r = seededRandom(11);
  return protocols.flatMap((p, i) => {
    if (i % 3 !== 0) return [];
    const at = new Date(ORDERS_NOW - r.int(200) * 86_400_000).toISOString();
    return [
      {
        ...p,
        id: `ord_bench_${i}`,
        daysSupply: r.pick([30, 60, 90] as const),
        status: 'DELIVERED' as const,
        statusPrecision: 'exact' as const,
        fulfillmentInfo: null,
        createdAt: at,
        updatedAt: at,
        lineItems: p.lineItems.map((li) => ({ ...li, packDescription: '1 capsule' })),
        subtotalPrice: p.subtotalPrice ?? '0.00',
        totalDiscount: p.totalDiscount ?? '0.00',
        totalFees: p.totalFees ?? '0.00',
        totalShipping: p.totalShipping ?? '0.00',
        totalVolumeDiscount: p.totalVolumeDiscount ?? '0.00',
        totalPrice: p.totalPrice ?? '0.00',
        discount: p.discount ?? '0%',
        orderType: p.orderType ?? 'ONE_TIME',
        shippingMethod: p.shippingMethod ?? 'STANDARD',
      },
    ];
  });
}
