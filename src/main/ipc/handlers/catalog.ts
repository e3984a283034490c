import { pricingTermsView } from '@main/catalog/partner-pricing';
import { IpcFailure } from '../errors';
import {
  ensureCatalog,
  ensureMirror,
  pricingTerms,
  type AreaHandlers,
  type IpcHandlerDeps,
} from './context';

/** catalog.*: the mirrored products and shipping methods, the partner's pricing terms. */
export function catalogHandlers(deps: IpcHandlerDeps): AreaHandlers<'catalog'> {
  const { core } = deps;
  return {
    'catalog.products': async ({ status, search, limit, offset, sort }) => {
      await ensureCatalog(core);
      const filter = {
        ...(status ? { status } : {}),
        ...(search ? { search } : {}),
      };
      return {
        products: core.store.products.list({ ...filter, limit, offset, sort }),
        total: core.store.products.countMatching(filter),
      };
    },
    'catalog.product': async ({ id }) => {
      await ensureCatalog(core);
      const product = core.store.products.get(id);
      if (!product) throw new IpcFailure('not-found', `Product ${id} is not in the catalog.`);
      return product;
    },
    'catalog.shippingMethods': async () => {
      await ensureMirror(core, () => core.store.shippingMethods.list().length === 0);
      return core.store.shippingMethods.list();
    },
    'catalog.pricing': async () => pricingTermsView(await pricingTerms(deps)),
  };
}
