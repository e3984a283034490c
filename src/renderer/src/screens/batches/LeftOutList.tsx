import type { ReviewItemView } from '@shared/work-views';

interface Props {
  items: ReviewItemView[];
  /** Which list: cannot be an order ("Left out"), or the server will refuse it. */
  kind: 'left-out' | 'refused';
}

const WORDS = {
  'left-out': {
    heading: 'Left out of the batch',
    intro: 'These protocols are not sent. Fix each one in the editor; it can go in a later batch.',
    why: 'is left out',
  },
  refused: {
    heading: 'Will be refused',
    intro:
      'The catalog on this computer says the server would refuse these orders, so they are not sent and not in the total. Fix each protocol in the editor (replace the product); it can go in a later batch.',
    why: 'will be refused',
  },
} as const;

/** Protocols that are not sent (not an order, or one the server will refuse), each with why and a way to fix it. */
export function LeftOutList({ items, kind }: Props) {
  const words = WORDS[kind];
  const headingId = `${kind}-heading`;
  return (
    <section
      className={`card review-left-out review-${kind}`}
      aria-labelledby={headingId}
      data-testid={`review-${kind}-list`}
    >
      <h2 id={headingId}>{words.heading}</h2>
      <p className="muted">{words.intro}</p>
      <ul className="left-out-list">
        {items.map((item) => {
          const name = item.customerName || item.sourceId || 'Unnamed protocol';
          const reasons = kind === 'refused' ? item.refusals : item.problems;
          return (
            <li key={item.localId} className="left-out-item">
              <div className="left-out-who">
                <span className="batch-item-name">{name}</span>
                {item.sourceId && <span className="muted code">{item.sourceId}</span>}
              </div>
              <ul className="problem-list" aria-label={`Why ${name} ${words.why}`}>
                {reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
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
