import type { ReviewItemView } from '@shared/work-views';

/** Protocols that cannot be an order, each with why and a way to fix it. */
export function LeftOutList({ items }: { items: ReviewItemView[] }) {
  return (
    <section className="card review-left-out" aria-labelledby="left-out-heading">
      <h2 id="left-out-heading">Left out of the batch</h2>
      <p className="muted">
        These protocols are not sent. Fix each one in the editor; it can go in a later batch.
      </p>
      <ul className="left-out-list">
        {items.map((item) => {
          const name = item.customerName || item.sourceId || 'Unnamed protocol';
          return (
            <li key={item.localId} className="left-out-item">
              <div className="left-out-who">
                <span className="batch-item-name">{name}</span>
                {item.sourceId && <span className="muted code">{item.sourceId}</span>}
              </div>
              <ul className="problem-list" aria-label={`Why ${name} is left out`}>
                {item.problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
              <a
                href={`#/protocols/${item.localId}`}
                className="button button-small"
                aria-label={`Fix protocol of ${name} in the editor`}
              >
                Fix protocol
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
