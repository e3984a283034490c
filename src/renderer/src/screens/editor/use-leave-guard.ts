import { useEffect, useRef, useState } from 'react';
import { forceNavigate, setNavigationGuard } from '@renderer/lib/navigation-guard';

/**
 * While `dirty`, leaving asks first: in-app navigation is held and `pending` names where the user
 * wanted to go (the screen asks, then `leave()` or `stay()`); closing or reloading the window gets
 * the browser's own "leave site?" prompt.
 */
export function useLeaveGuard(dirty: boolean) {
  const [pending, setPending] = useState<string | null>(null);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  useEffect(() => {
    setNavigationGuard((to) => {
      if (!dirtyRef.current) return true;
      setPending(to);
      return false;
    });
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      setNavigationGuard(null);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, []);

  return {
    pending,
    stay: () => setPending(null),
    leave: () => {
      const to = pending;
      setPending(null);
      dirtyRef.current = false;
      if (to !== null) forceNavigate(to);
    },
  };
}
