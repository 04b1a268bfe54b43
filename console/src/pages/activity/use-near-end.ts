import { useEffect, useRef } from 'preact/hooks';

/** Calls `onNearEnd` when the returned element scrolls into view (infinite scroll), while `active`. */
export function useNearEnd(onNearEnd: () => void, active: boolean) {
  const element = useRef<HTMLDivElement>(null);
  const callback = useRef(onNearEnd);
  callback.current = onNearEnd;
  useEffect(() => {
    const target = element.current;
    if (!active || !target) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [active]);
  return element;
}
