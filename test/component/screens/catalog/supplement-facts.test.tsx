import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SupplementFacts } from '@renderer/screens/catalog/SupplementFacts';
import { packProduct } from '@test/support/component/fixtures';

describe('SupplementFacts', () => {
  it('shows the serving, servings a day, each nutrient and the other ingredients', () => {
    render(
      <SupplementFacts
        product={packProduct({
          recommendedUsage: { morning: 2, afternoon: 0, evening: 2, sleep: 0 },
          SupplementFactsPanel: {
            servingSize: 2,
            type: 'capsule',
            otherIngredients: ['Hypromellose', 'Rice flour'],
            ingredientInformation: [
              { name: 'Magnesium', value: '240', unit: 'mg', daily_value: '57%' },
              { name: 'Glycine', value: '1', unit: 'g', daily_value: '†' },
            ],
            nutritionInformation: [{ name: 'Calories', value: 5 }],
          },
        })}
      />,
    );
    const facts = screen.getByRole('region', { name: 'Supplement Facts' });
    expect(facts.textContent).toContain('Serving size2 capsules');
    expect(facts.textContent).toContain('Servings per day (recommended)2');
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['Calories', '5', '—'],
      ['Magnesium', '240 mg', '57%'],
      ['Glycine', '1 g', '†'],
    ]);
    expect(screen.getByText('† Daily Value not established.')).toBeTruthy();
    expect(facts.textContent).toContain('Other ingredients: Hypromellose, Rice flour.');
  });

  it('says when no nutrient is listed and no other ingredient is given', () => {
    render(
      <SupplementFacts
        product={packProduct({
          SupplementFactsPanel: {
            servingSize: 1,
            type: 'scoop',
            otherIngredients: [],
            ingredientInformation: [],
            nutritionInformation: [],
          },
        })}
      />,
    );
    expect(screen.getByText('No nutrients listed.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('region').textContent).toContain('Other ingredients: none.');
  });
});
