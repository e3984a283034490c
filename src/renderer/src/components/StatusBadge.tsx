import { isKnownProductStatus } from '@shared/api';
import { productStatusLabel } from '../lib/format';

/** A product's status; one the app does not know is shown as it came, in a plain badge. */
export function StatusBadge({ status }: { status: string }) {
  const tone = isKnownProductStatus(status) ? status.toLowerCase() : 'unknown';
  return <span className={`badge badge-${tone}`}>{productStatusLabel(status)}</span>;
}
