import { lazy, Suspense, useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../hooks.ts';
import { toastDismissed } from '../toasts.ts';
import type { Toast } from '../toasts.ts';
import { es } from '../../i18n/es-core.ts';

// The icon set loads with the first toast: the sign-in screen shows none on most visits.
const IconClose = lazy(async () => ({ default: (await import('../../ui/icons.tsx')).IconClose }));

function ToastItem({ toast }: { toast: Toast }) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const timer = setTimeout(() => dispatch(toastDismissed(toast.id)), toast.durationMs);
    return () => clearTimeout(timer);
  }, [dispatch, toast.id, toast.durationMs]);

  return (
    <div className={`app-toast app-toast--${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <span>{toast.message}</span>
      <button type="button" className="app-toast__close" aria-label={es.common.close} onClick={() => dispatch(toastDismissed(toast.id))}>
        <Suspense fallback={null}>
          <IconClose size={16} />
        </Suspense>
      </button>
    </div>
  );
}

/** Stacked toasts; each removes itself after its lifetime (spec §9). */
export function Toasts() {
  const toasts = useAppSelector((state) => state.toasts.items);
  return (
    <div className="app-toasts">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
