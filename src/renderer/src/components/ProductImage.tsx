import { Package } from 'lucide-react';
import { useState } from 'react';
import { useAppStore } from '../stores/app-store';

/** The product's picture, or a neutral placeholder when offline or when it does not load. */
export function ProductImage({ src, name }: { src: string; name: string }) {
  const online = useAppStore((s) => s.online);
  const [failed, setFailed] = useState<string | null>(null);
  const usable = /^https?:\/\//i.test(src) && online && failed !== src;
  if (!usable) {
    return (
      <div
        className="product-image product-image-fallback"
        role="img"
        aria-label={`No image available for ${name}`}
      >
        <Package aria-hidden="true" size={40} />
        <span aria-hidden="true">{online ? 'No image' : 'Image unavailable offline'}</span>
      </div>
    );
  }
  return (
    <img
      className="product-image"
      src={src}
      alt={name}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(src)}
    />
  );
}
