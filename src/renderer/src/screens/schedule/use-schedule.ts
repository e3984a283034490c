import type { Administration, PartnerSettings } from '@shared/api';
import type { IpcResult } from '@shared/ipc';
import { servingText } from '@renderer/lib/format';
import { call } from '@renderer/lib/ipc';
import type { Read } from '@renderer/lib/live-query';
import { useLiveQuery } from '@renderer/lib/use-query';
import { useLineProducts } from '@renderer/stores/line-products';
import { scheduleLines, type ScheduleContent } from './schedule-rows';

/** What a schedule is printed from: a saved protocol, or an order. */
export type ScheduleSource =
  { kind: 'protocol'; localId: string } | { kind: 'order'; orderId: string };

interface SourceRead {
  patientName: string;
  patientId: string;
  daysSupply: number | null;
  items: {
    productId: number;
    name?: string | null;
    packDescription?: string | null | undefined;
    administration?: Administration | null | undefined;
  }[];
}

const nameOf = (c: { firstName: string; lastName: string }) =>
  `${c.firstName} ${c.lastName}`.trim();

async function readSource(source: ScheduleSource, through: Read): Promise<IpcResult<SourceRead>> {
  if (source.kind === 'protocol') {
    const read = await through('protocols.get', { localId: source.localId });
    if (!read.ok) return read;
    const { customer, daysSupply, lineItems } = read.value.draft;
    return {
      ok: true,
      value: {
        patientName: nameOf(customer),
        patientId: customer.sourceId,
        daysSupply,
        items: lineItems,
      },
    };
  }
  const read = await through('orders.get', { orderId: source.orderId });
  if (!read.ok) return read;
  const { customer, daysSupply, lineItems } = read.value;
  return {
    ok: true,
    value: {
      patientName: nameOf(customer),
      patientId: customer.sourceId,
      daysSupply,
      items: lineItems,
    },
  };
}

/**
 * The schedule's content, live: the protocol or order (again when it changes), with what an item
 * does not carry (a protocol's item has no name) read from the local catalog.
 */
export function useScheduleContent(source: ScheduleSource) {
  const id = source.kind === 'protocol' ? source.localId : source.orderId;
  const read = useLiveQuery((through) => readSource(source, through), [source.kind, id]);
  const products = useLineProducts((read.data?.items ?? []).map((i) => i.productId));
  const content: ScheduleContent | null = read.data && {
    patientName: read.data.patientName,
    patientId: read.data.patientId,
    daysSupply: read.data.daysSupply,
    lines: scheduleLines(read.data.items, (productId) => {
      const product = products.productOf(productId);
      return typeof product === 'object'
        ? {
            name: product.name,
            packDescription: product.packDescription,
            serving: servingText(product.SupplementFactsPanel),
          }
        : null;
    }),
  };
  return { ...read, content };
}

/**
 * The partner's settings the schedule is branded with (name, logo, colours, phone), read once:
 * settings.get is a call, not a read, as it keeps the pricing terms it carries (a write of
 * `settings`), so a query following that subject would read without end.
 */
export function usePartnerBranding() {
  return useLiveQuery((): Promise<IpcResult<PartnerSettings>> => call('settings.get', {}), []);
}
