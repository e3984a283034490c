import { describe, expect, it } from 'vitest';
import { createInvokeHandler, REFUSED_SENDER } from '@main/ipc/sender';
import type { Logger } from '@main/logging';
import type { RendererLocation } from '@main/renderer-location';

// Which URLs are trusted is test/unit/main/renderer-location.test.ts; here, that the handler asks.
const PAGE = 'app://order-desk/index.html';
const built: RendererLocation = { entryUrl: PAGE };

describe('createInvokeHandler', () => {
  const warnings: string[] = [];
  const log: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => warnings.push(m),
    error: (m) => warnings.push(m),
    child: () => log,
  };
  const calls: unknown[][] = [];
  const handler = createInvokeHandler({
    location: built,
    log,
    dispatch: async (channel, args) => {
      calls.push([channel, args]);
      if (channel === 'boom') throw new Error('secret-ish detail');
      return { ok: true, value: { echoed: args } };
    },
  });

  it('dispatches a call from our main frame', async () => {
    calls.length = 0;
    expect(
      await handler({ url: `${PAGE}#/`, isOurMainFrame: true }, 'app.state', { a: 1 }),
    ).toEqual({ ok: true, value: { echoed: { a: 1 } } });
    expect(calls).toEqual([['app.state', { a: 1 }]]);
  });

  it('refuses, without dispatching, a frame that is gone, not ours, or elsewhere', async () => {
    calls.length = 0;
    warnings.length = 0;
    expect(await handler(null, 'app.state', {})).toEqual(REFUSED_SENDER);
    expect(await handler({ url: PAGE, isOurMainFrame: false }, 'app.state', {})).toEqual(
      REFUSED_SENDER,
    );
    expect(
      await handler({ url: 'https://evil.example/', isOurMainFrame: true }, 'app.state', {}),
    ).toEqual(REFUSED_SENDER);
    // The built page as file:// (how it was loaded before app://) is no longer ours either.
    expect(
      await handler(
        {
          url: 'file:///opt/Order%20Desk/resources/app.asar/out/renderer/index.html',
          isOurMainFrame: true,
        },
        'app.state',
        {},
      ),
    ).toEqual(REFUSED_SENDER);
    expect(calls).toEqual([]);
    expect(warnings).toHaveLength(4);
    expect(REFUSED_SENDER).toMatchObject({ ok: false, error: { kind: 'internal' } });
  });

  it('answers an internal error, not a throw, when the dispatcher fails', async () => {
    const answer = await handler({ url: PAGE, isOurMainFrame: true }, 'boom', {});
    expect(answer).toMatchObject({ ok: false, error: { kind: 'internal' } });
    expect(JSON.stringify(answer)).not.toContain('secret-ish');
  });
});
