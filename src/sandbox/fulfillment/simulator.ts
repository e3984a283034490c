import type { Clock } from '../clock';
import type { OrderService } from '../orders-service';
import type { OrderStore } from '../store/orders';
import { Timer } from '../timer';

/** Moves orders along the fulfillment chain when their next step is due (auto-advance). */
export class FulfillmentSimulator {
  private readonly timer: Timer;
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly orders: OrderStore,
    private readonly service: () => OrderService,
    private readonly log: (line: string) => void,
  ) {
    this.timer = new Timer(() => this.run());
  }

  poke(): void {
    if (this.closed) return;
    // Paused (a control): nothing runs until it is resumed, which pokes again.
    if (this.service().fulfillment.paused) this.timer.cancel();
    else this.timer.at(this.orders.nextDueAt(), this.clock.now());
  }

  close(): void {
    this.closed = true;
    this.timer.cancel();
  }

  private run(): void {
    if (this.closed) return;
    try {
      this.service().stepDue();
    } catch (error) {
      this.log(
        `fulfillment step failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    this.poke();
  }
}
