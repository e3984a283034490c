import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { Route, Router, Switch } from 'wouter';
import { describe, expect, it, vi } from 'vitest';
import { ShippingMethodInfo } from '@shared/api';
import { PricingTermsView } from '@shared/pricing-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import ProtocolEditorScreen from '@renderer/screens/editor/ProtocolEditorScreen';
import { installOrderDesk, refuse, type Handlers } from '@test/support/component/fake-order-desk';
import { packProduct, savedProtocol } from '@test/support/component/fixtures';

const LOCAL_ID = '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11';
const PACK = packProduct();

/** The editor's routes as App.tsx has them, at #/protocols/new (or another of their addresses). */
function renderNewProtocol(hash = '#/protocols/new') {
  // Set without a hashchange event, which would come a task later and meet the screen mounted.
  window.history.replaceState(null, '', hash);
  return render(
    <Router hook={useGuardedHashLocation}>
      <Switch>
        <Route path="/protocols/new">
          <ProtocolEditorScreen mode="new" />
        </Route>
        <Route path="/protocols/:localId">
          {(params) => <ProtocolEditorScreen mode="edit" localId={params.localId} />}
        </Route>
      </Switch>
    </Router>,
  );
}

/** What the editor reads besides the save: the partner's terms and the local catalog. */
const catalog: Handlers = {
  'catalog.pricing': () =>
    PricingTermsView.parse({
      known: true,
      discount: '15%',
      discountValue: 0.15,
      readAt: '2026-11-26T09:00:00.000Z',
    }),
  'catalog.shippingMethods': () =>
    [
      { id: 'STANDARD', name: 'Standard', price: '7.99', minDays: 3, maxDays: 5 },
      { id: 'EXPRESS', name: 'Express', price: '14.99', minDays: 2, maxDays: 3 },
    ].map((m) => ShippingMethodInfo.parse({ ...m, description: `${m.name} delivery` })),
  'catalog.products': () => ({ products: [PACK], total: 1 }),
  'catalog.product': ({ id }) => (id === PACK.id ? PACK : refuse('not-found', 'No such product')),
};

/** Fills the patient and address as a person would, and adds the pack product from the search. */
async function fillProtocol(user: UserEvent) {
  const form = screen.getByRole('form', { name: 'New protocol' });
  const field = (label: string) => within(form).getByLabelText(label);
  await user.type(field('First name'), 'Ada');
  await user.type(field('Last name'), 'Lovelace');
  await user.type(field('Patient ID'), 'PAT-ADA-1');
  await user.type(field('Email (optional)'), 'ada@example.com');
  await user.type(field('Address line 1'), '12 Analytical Way');
  await user.type(field('City'), 'Portland');
  await user.selectOptions(field('State'), 'OR');
  await user.type(field('ZIP code'), '97201');
  await user.click(within(form).getByRole('radio', { name: '90 days' }));
  await user.selectOptions(field('Shipping method'), 'EXPRESS');

  await user.type(within(form).getByRole('combobox', { name: 'Add a product' }), 'magnesium');
  const products = await screen.findByRole('listbox', { name: 'Products' });
  await user.click(await within(products).findByRole('option', { name: /^Magnesium Glycinate/ }));
  return form;
}

describe('the protocol editor', () => {
  it('saves with Ctrl+S and sends protocols.create exactly what was typed', async () => {
    const desk = installOrderDesk({
      ...catalog,
      'protocols.create': ({ draft }) => savedProtocol(draft, LOCAL_ID),
      'protocols.get': () => savedProtocol(desk.argsOf('protocols.create')[0]!.draft, LOCAL_ID),
    });
    const user = userEvent.setup();
    renderNewProtocol();
    const form = await fillProtocol(user);
    // The pack line starts at the product's recommended usage, 0-0-1-1.
    expect(within(form).getByLabelText('Evening')).toHaveProperty('value', '1');

    await user.keyboard('{Control>}s{/Control}');
    await screen.findByRole('heading', { level: 1, name: 'Protocol for Ada Lovelace' });
    expect(desk.argsOf('protocols.create')).toEqual([
      {
        draft: {
          customer: {
            sourceId: 'PAT-ADA-1',
            firstName: 'Ada',
            lastName: 'Lovelace',
            email: 'ada@example.com',
            phone: null,
            address: {
              line1: '12 Analytical Way',
              line2: null,
              city: 'Portland',
              state: 'OR',
              zipCode: '97201',
            },
          },
          daysSupply: 90,
          shippingMethod: 'EXPRESS',
          orderType: 'ONE_TIME',
          lineItems: [
            {
              productId: PACK.id,
              quantity: 2,
              packDescription: '2 capsules daily',
              administration: { morning: 0, afternoon: 0, evening: 1, sleep: 1 },
            },
          ],
        },
      },
    ]);
    // Saved: the address names the protocol now.
    expect(window.location.hash).toBe(`#/protocols/${LOCAL_ID}`);
  });

  it('offers Save changes only once something changed, saying why not before', async () => {
    const desk = installOrderDesk({
      ...catalog,
      'protocols.create': ({ draft }) => savedProtocol(draft, LOCAL_ID),
      'protocols.get': () => savedProtocol(desk.argsOf('protocols.create')[0]!.draft, LOCAL_ID),
      'protocols.update': ({ draft }) => savedProtocol(draft, LOCAL_ID),
    });
    const user = userEvent.setup();
    renderNewProtocol();
    await fillProtocol(user);
    await user.keyboard('{Control>}s{/Control}');
    await screen.findByRole('heading', { level: 1, name: 'Protocol for Ada Lovelace' });
    const form = screen.getByRole('form', { name: 'Protocol for Ada Lovelace' });
    const save = within(form).getByRole('button', { name: 'Save changes' });
    expect(save.getAttribute('aria-disabled')).toBe('true');
    expect(save.getAttribute('title')).toBe('No changes to save');
    // Neither the button nor Ctrl+S sends the unchanged protocol.
    await user.click(save);
    await user.click(within(form).getByLabelText('City'));
    await user.keyboard('{Control>}s{/Control}');
    expect(desk.argsOf('protocols.update')).toEqual([]);

    await user.type(within(form).getByLabelText('City'), 'ville');
    expect(save.getAttribute('aria-disabled')).toBeNull();
    expect(save.getAttribute('title')).toBeNull();
    await user.click(save);
    await vi.waitFor(() => expect(desk.argsOf('protocols.update')).toHaveLength(1));
    expect(desk.argsOf('protocols.update')[0]!.draft.customer.address.city).toBe('Portlandville');
    // Saved: unchanged again.
    await vi.waitFor(() => expect(save.getAttribute('aria-disabled')).toBe('true'));
  });

  it('puts a refusal’s field errors on their fields', async () => {
    const desk = installOrderDesk({
      ...catalog,
      'protocols.create': () =>
        refuse('validation', 'The server refused the protocol.', [
          {
            path: ['draft', 'customer', 'address', 'zipCode'],
            message: 'not a deliverable ZIP code',
          },
        ]),
    });
    const user = userEvent.setup();
    renderNewProtocol();
    const form = await fillProtocol(user);

    await user.click(within(form).getByRole('button', { name: 'Save protocol' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe('The protocol was not saved: some fields need attention.');
    const zip = within(form).getByLabelText('ZIP code');
    expect(zip.getAttribute('aria-invalid')).toBe('true');
    const described = (zip.getAttribute('aria-describedby') ?? '').split(' ');
    const messages = described.map((id) => document.getElementById(id)?.textContent);
    expect(messages).toContain('Not a deliverable ZIP code');
    // Nothing else is marked, and the editor stays on the new protocol.
    expect(form.querySelectorAll('[aria-invalid="true"]')).toHaveLength(1);
    expect(desk.argsOf('protocols.create')).toHaveLength(1);
    expect(window.location.hash).toBe('#/protocols/new');
  });

  it('refuses a phone that is no number and a ZIP code of another state, on their fields', async () => {
    const desk = installOrderDesk({ ...catalog });
    const user = userEvent.setup();
    renderNewProtocol();
    const form = await fillProtocol(user);
    await user.type(within(form).getByLabelText('Phone (optional)'), 'abc');
    await user.selectOptions(within(form).getByLabelText('State'), 'TX');
    await user.clear(within(form).getByLabelText('ZIP code'));
    await user.type(within(form).getByLabelText('ZIP code'), '10025');

    await user.click(within(form).getByRole('button', { name: 'Save protocol' }));
    expect(messagesOf(within(form).getByLabelText('Phone (optional)'))).toContain(
      'Enter a phone number of 7 to 15 digits; spaces, dashes, dots, brackets and a leading + may be used, such as (503) 555-0100 or +1 503 555 0100',
    );
    expect(messagesOf(within(form).getByLabelText('ZIP code'))).toContain(
      '10025 is a New York ZIP code, not one in Texas: check the ZIP code or the state',
    );
    expect(desk.argsOf('protocols.create')).toHaveLength(0);
  });

  it('opens a stored protocol the rules now refuse as it is, the problems on their fields', async () => {
    const stored = savedProtocol(
      {
        customer: {
          sourceId: 'PAT-OLD-1',
          firstName: 'Grace',
          lastName: 'Hopper',
          email: null,
          phone: 'abc',
          address: { line1: '1 Navy Way', city: 'Austin', state: 'TX', zipCode: '10025' },
        },
        daysSupply: 30,
        shippingMethod: 'STANDARD',
        orderType: 'ONE_TIME',
        lineItems: [
          {
            productId: PACK.id,
            quantity: 2,
            administration: { morning: 0, afternoon: 0, evening: 1, sleep: 1 },
          },
        ],
      },
      LOCAL_ID,
    );
    const desk = installOrderDesk({
      ...catalog,
      'protocols.get': () => stored,
      'protocols.update': ({ draft }) => savedProtocol(draft, LOCAL_ID),
    });
    const user = userEvent.setup();
    renderNewProtocol(`#/protocols/${LOCAL_ID}`);
    const form = await screen.findByRole('form', { name: 'Protocol for Grace Hopper' });
    const phone = within(form).getByLabelText('Phone (optional)');
    const zip = within(form).getByLabelText('ZIP code');
    // Nothing is lost: the stored values are in their boxes, each marked with what is wrong.
    expect(phone).toHaveProperty('value', 'abc');
    expect(zip).toHaveProperty('value', '10025');
    await waitFor(() => expect(phone.getAttribute('aria-invalid')).toBe('true'));
    expect(zip.getAttribute('aria-invalid')).toBe('true');
    expect(messagesOf(zip)).toContain(
      '10025 is a New York ZIP code, not one in Texas: check the ZIP code or the state',
    );

    await user.clear(phone);
    await user.type(phone, '(512) 555-0100');
    await user.clear(zip);
    await user.type(zip, '78701');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(desk.argsOf('protocols.update')).toHaveLength(1));
    const sent = desk.argsOf('protocols.update')[0]!.draft.customer;
    expect([sent.phone, sent.address.state, sent.address.zipCode]).toEqual([
      '(512) 555-0100',
      'TX',
      '78701',
    ]);
  });
});

/** The messages a field's aria-describedby points to. */
function messagesOf(field: HTMLElement): (string | null | undefined)[] {
  const described = (field.getAttribute('aria-describedby') ?? '').split(' ');
  return described.map((id) => document.getElementById(id)?.textContent);
}
