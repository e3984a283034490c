import type { BatchItemView } from '@shared/work-views';
import { ItemRow } from './ItemRow';
import { VirtualRows } from '@renderer/components/VirtualRows';

/** The batch's orders, virtualised: a 1,000-item batch keeps only the rows in view in the DOM. */
export function ItemList({ batchId, items }: { batchId: string; items: BatchItemView[] }) {
  return (
    <VirtualRows
      items={items}
      label="Orders of the batch"
      estimatedRow={58}
      keyOf={(item) => item.seq}
      rowClass={(item) => (item.held.length > 0 ? 'batch-item-held' : `batch-item-${item.state}`)}
      renderRow={(item) => <ItemRow batchId={batchId} item={item} />}
    />
  );
}
