import { useEffect, useState } from 'react';
import type { PendingSummary } from '#shared/api/altas.ts';
import { useBridge } from '../../app/hooks.ts';

/**
 * On the desktop, what this PC's robots still have to do (bridge GetForms: not yet in RED, registered
 * but not yet in A3), asked again whenever `version` changes (the list reloaded). Null in the browser,
 * while asking, or when the desktop cannot tell: the lists already show every registration.
 */
export function useDesktopPending(version: number | undefined): PendingSummary | null {
  const bridge = useBridge();
  const [summary, setSummary] = useState<PendingSummary | null>(null);

  useEffect(() => {
    if (!bridge.available || version === undefined) return undefined;
    let current = true;
    void bridge.invoke('GetForms', {}).then(
      (answer) => {
        if (current) setSummary(answer.ok ? answer.data : null);
      },
      () => {
        if (current) setSummary(null);
      },
    );
    return () => {
      current = false;
    };
  }, [bridge, version]);

  return summary;
}
