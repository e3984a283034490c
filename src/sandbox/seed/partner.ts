import type { PartnerSettings } from '@shared/api/partner';

/** Client credentials the sandbox accepts at the token endpoint for the demo partner. */
export const DEMO_CLIENT_ID = 'demo-clinic';
export const DEMO_CLIENT_SECRET = 'demo-secret-change-me';

/** The demo partner the sandbox starts with. Timestamps are stamped by the store when it loads. */
export const DEMO_PARTNER: Omit<PartnerSettings, 'createdAt' | 'updatedAt'> = {
  id: 'ptn_demo_clinic',
  name: 'Evergreen Integrative Clinic',
  description:
    'Integrative and functional medicine practice offering personalized supplement protocols delivered as daily pill packs.',
  discount: '15% partner discount',
  discountValue: 0.15,
  primaryColor: '#1a7f64',
  secondaryColor: '#f4b942',
  logo: null,
  phone: '+1 503-555-0142',
  supportEmail: 'support@evergreen-clinic.example',
  website: 'https://evergreen-clinic.example',
  webhookUrl: null,
  billingAddressLine1: '2150 NW Lovejoy Street',
  billingAddressLine2: 'Suite 310',
  billingCity: 'Portland',
  billingState: 'OR',
  billingPostalCode: '97210',
  billingCountry: 'US',
};
