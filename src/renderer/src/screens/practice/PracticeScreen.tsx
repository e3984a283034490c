import { Link } from 'wouter';
import { usePractice } from '@renderer/lib/practice';
import '@renderer/styles/practice.css';
import { AnotherDesk } from './AnotherDesk';
import { FulfillmentControls } from './FulfillmentControls';
import { MoveOrder } from './MoveOrder';
import { ProductStatusControl } from './ProductStatusControl';
import { ServerControls } from './ServerControls';

/** Practice mode's controls of the built-in sandbox, to learn the whole flow without a terminal. */
export default function PracticeScreen() {
  const practice = usePractice();
  return (
    <div className="screen screen-narrow">
      <h1>Practice</h1>
      {practice.enabled ? (
        <>
          <p className="lead practice-lead">
            Play the fulfillment partner: everything here happens on the local sandbox on this
            computer, never on real orders.
          </p>
          <FulfillmentControls
            fulfillment={practice.fulfillment}
            offline={practice.offline}
            onChange={practice.refresh}
          />
          <MoveOrder disabled={practice.offline} />
          <ServerControls
            offline={practice.offline}
            server={practice.server}
            onChange={practice.refresh}
          />
          <AnotherDesk />
          <ProductStatusControl />
        </>
      ) : (
        <p className="lead">
          Practice mode is off. It is offered on the local sandbox: switch it on on the{' '}
          <Link href="/connect">Connection</Link> screen.
        </p>
      )}
    </div>
  );
}
