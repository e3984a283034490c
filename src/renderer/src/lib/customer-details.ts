import type { Customer } from '@shared/api';

/** "12 Oak St, Portland, OR 97201 · maria@example.com": enough to tell two people apart. */
export const detailsText = (c: Customer | null): string =>
  c
    ? [
        [
          c.address.line1,
          c.address.line2,
          c.address.city,
          `${c.address.state} ${c.address.zipCode}`,
        ]
          .filter(Boolean)
          .join(', '),
        c.email,
        c.phone,
      ]
        .filter(Boolean)
        .join(' · ')
    : 'details not readable';
