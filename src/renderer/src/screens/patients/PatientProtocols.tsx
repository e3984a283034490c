import { Loader2, ShoppingCart } from 'lucide-react';
import { Link } from 'wouter';
import type { PatientProtocolView } from '@shared/patient-views';
import type { ProtocolSummaryView } from '@shared/protocol-views';
import { Empty } from '@renderer/components/States';
import { formatDate } from '@renderer/lib/dates';

const SYNC_WORDS: Record<ProtocolSummaryView['syncState'], string> = {
  synced: 'Synced',
  pending: 'Not sent yet',
  conflict: 'In conflict',
};

/** What a protocol orders, in a few words: its products and supply. */
export const protocolLabel = (p: Pick<PatientProtocolView, 'products' | 'daysSupply'>): string =>
  `${p.products.join(', ') || 'No product'}${p.daysSupply ? `, ${p.daysSupply} days` : ''}`;

/**
 * The patient's protocols, each opened in its editor or ordered as one order (reviewed and
 * confirmed as Order now does): "Order again" once the patient has an order (as the protocol
 * list's Last order counts it), else "Order".
 */
export function PatientProtocols({
  protocols,
  ordered,
  reviewingId = null,
  onOrder,
}: {
  protocols: readonly PatientProtocolView[];
  /** Whether the patient has any order here, cancelled ones included. */
  ordered: boolean;
  /** The protocol whose order is being reviewed (its button shows it). */
  reviewingId?: string | null;
  onOrder(localId: string): void;
}) {
  const action = ordered ? 'Order again' : 'Order';
  if (protocols.length === 0) return <Empty title="No protocol for this patient." />;
  return (
    <div className="patient-table-wrap">
      <table className="table patient-table">
        <caption className="visually-hidden">The patient&apos;s protocols</caption>
        <thead>
          <tr>
            <th scope="col">Protocol</th>
            <th scope="col">Sync</th>
            <th scope="col">Last changed</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {protocols.map((row) => {
            const p = row.protocol;
            const label = protocolLabel(row);
            const busy = reviewingId === p.localId;
            return (
              <tr key={p.localId}>
                <th scope="row">
                  <Link href={`/protocols/${p.localId}`}>{label}</Link>
                </th>
                <td>{SYNC_WORDS[p.syncState]}</td>
                <td>{formatDate(p.localUpdatedAt)}</td>
                <td className="patient-actions">
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => onOrder(p.localId)}
                    aria-busy={busy}
                    aria-label={`${action}: protocol ${label}`}
                  >
                    {busy ? (
                      <Loader2 aria-hidden="true" size={14} className="spin" />
                    ) : (
                      <ShoppingCart aria-hidden="true" size={14} />
                    )}{' '}
                    {action}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
