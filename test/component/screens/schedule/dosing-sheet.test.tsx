import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DosingSheet } from '@renderer/screens/schedule/DosingSheet';
import type { ScheduleContent } from '@renderer/screens/schedule/schedule-rows';
import { partnerSettings } from '@test/support/component/fixtures';

const BRANDING = partnerSettings({
  primaryColor: '#1d4ed8',
  logo: 'https://clinic.example/logo.png',
  phone: '+1 503 555 0199',
  supportEmail: 'support@evergreen-clinic.example',
});

const CONTENT: ScheduleContent = {
  patientName: 'Ada Lovelace',
  patientId: 'PAT-ADA-1',
  daysSupply: 30,
  lines: [
    {
      productId: 101,
      name: 'Magnesium Glycinate 120 mg',
      dose: '1 capsule',
      administration: { morning: 0, afternoon: 0, evening: 1, sleep: 1 },
    },
    {
      productId: 102,
      name: 'Vitamin D3 2000 IU',
      dose: null,
      administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
    },
    { productId: 201, name: 'Collagen Powder', dose: '1 scoop', administration: null },
  ],
};

describe('DosingSheet', () => {
  it('prints the clinic, the patient, the days and the pills at each time of day', () => {
    render(
      <DosingSheet
        content={CONTENT}
        branding={BRANDING}
        startDay="2026-12-01"
        lastDay="2026-12-30"
        preparedOn={new Date(2026, 10, 29)}
      />,
    );
    const sheet = screen.getByRole('article', { name: 'Daily dosing schedule' });
    expect(within(sheet).getByRole('img', { name: 'Evergreen Clinic logo' })).toBeTruthy();
    expect(sheet.textContent).toContain('PatientAda Lovelace');
    expect(sheet.textContent).toContain('Start dateDec 1, 2026');
    expect(sheet.textContent).toContain('30 days (through Dec 30, 2026)');
    const grid = within(sheet).getByRole('table', {
      name: 'Pills to take at each time of day, every day',
    });
    const cells = (name: string) =>
      [...within(grid).getByRole('row', { name: new RegExp(name) }).children].map(
        (c) => c.textContent,
      );
    expect(cells('Magnesium')).toEqual([
      'Magnesium Glycinate 120 mgEach dose: 1 capsule',
      '–none',
      '–none',
      '1',
      '1',
      '2',
    ]);
    expect(cells('Collagen')).toEqual([
      'Collagen PowderEach dose: 1 scoop',
      'Take as directed on the label',
    ]);
    expect(cells('Pills at each time')).toEqual([
      'Pills at each time',
      '1',
      '–none',
      '1',
      '1',
      '3',
    ]);
    expect(sheet.textContent).toContain(
      'Contact Evergreen Clinic: call +1 503 555 0199, email support@evergreen-clinic.example.',
    );
    expect(sheet.textContent).toContain('Prepared Nov 29, 2026');
  });

  it('without branding or a start date, leaves a blank and prints no contact', () => {
    render(
      <DosingSheet
        content={{ ...CONTENT, daysSupply: null }}
        branding={null}
        startDay={null}
        lastDay={null}
        preparedOn={new Date(2026, 10, 29)}
      />,
    );
    const sheet = screen.getByRole('article');
    expect(within(sheet).queryByRole('img')).toBeNull();
    expect(sheet.textContent).toContain('As decided for the subscription');
    expect(sheet.textContent).not.toContain('Questions about your supplements?');
  });
});
