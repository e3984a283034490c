import { fireEvent, render, screen } from '@testing-library/react';
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ProductImage } from '@renderer/components/ProductImage';
import { useAppStore } from '@renderer/stores/app-store';

const SRC = 'https://example.com/img/101.png';

beforeEach(() => useAppStore.setState(useAppStore.getInitialState(), true));

describe('ProductImage: the picture, or a neutral placeholder', () => {
  it('shows the picture online, and the placeholder when it does not load', () => {
    render(<ProductImage src={SRC} name="Magnesium Glycinate 120 mg" />);
    const img = screen.getByRole('img', { name: 'Magnesium Glycinate 120 mg' });
    expect(img.getAttribute('src')).toBe(SRC);
    fireEvent.error(img);
    const fallback = screen.getByRole('img', {
      name: 'No image available for Magnesium Glycinate 120 mg',
    });
    expect(fallback.textContent).toBe('No image');
  });

  it('offline, or no web address: the placeholder says why', () => {
    const { unmount } = render(<ProductImage src="" name="Whey Protein" />);
    expect(screen.getByRole('img', { name: 'No image available for Whey Protein' })).toBeTruthy();
    unmount();
    render(<ProductImage src={SRC} name="Whey Protein" />);
    act(() => useAppStore.setState({ online: false }));
    expect(
      screen.getByRole('img', { name: 'No image available for Whey Protein' }).textContent,
    ).toBe('Image unavailable offline');
  });
});
